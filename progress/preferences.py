"""What a learner's preferences mean at a given moment: their language, their time zone, and the daily
reminders to arm at start-up.

The reminder fires at a wall-clock time in the learner's zone (08:00 in Shanghai stays 08:00 across a
daylight-saving change elsewhere), so what start-up hands the job queue is a zone-aware `time` plus, for
the first message, how many questions are due for each learner.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from storage import Store
from storage.preferences import Preferences, check_time_zone
from storage.users import LOCALES, Locale

# The bundled subject's learners sit a mainland exam; a deployment elsewhere passes its own zone.
DEFAULT_TIME_ZONE = "Asia/Shanghai"


@dataclass(frozen=True)
class ScheduledReminder:
    """`at`: the time of day with the learner's zone attached (what `JobQueue.run_daily` takes);
    `next_at`: Unix seconds of its next firing; `due`: questions due for review now; `locale` None means
    the configured default."""

    user_id: int
    at: time
    time_zone: str
    locale: Locale | None
    due: int
    next_at: float


def language(stored: Locale | None, language_code: str | None, default: Locale) -> Locale:
    """The learner's interface language: their own /lang choice, else what their Telegram app is set to
    when it is one we have ("zh-hans", "en-US"), else the bot's default."""
    if stored is not None:
        return stored
    base = (language_code or "").split("-")[0].split("_")[0].lower()
    return next((locale for locale in LOCALES if locale == base), default)


def learner_zone(preferences: Preferences, default: str = DEFAULT_TIME_ZONE) -> str:
    """The zone the learner's days and reminders are counted in."""
    zone = preferences.time_zone or default
    check_time_zone(zone)
    return zone


def reminder_time(reminder: str, time_zone: str) -> time:
    hours, minutes = (int(part) for part in reminder.split(":"))
    return time(hours, minutes, tzinfo=ZoneInfo(time_zone))


def next_firing(reminder: str, time_zone: str, now: float) -> float:
    """The first moment after `now` when the learner's clock shows the reminder time."""
    zone = ZoneInfo(time_zone)
    local_now = datetime.fromtimestamp(now, zone)
    at = reminder_time(reminder, time_zone)
    day = local_now.date()
    while True:
        candidate = datetime.combine(day, at.replace(tzinfo=None), zone)
        if candidate.timestamp() > now:
            return candidate.timestamp()
        day += timedelta(days=1)


async def reminders(store: Store, default_zone: str = DEFAULT_TIME_ZONE) -> list[ScheduledReminder]:
    """Every reminder that is on, to (re)arm at start-up, with the questions due for each learner now."""
    now = store.db.now()
    due = await store.reviews.due_counts(now)
    scheduled = []
    for row in await store.preferences.with_reminders():
        zone = row.time_zone or default_zone
        scheduled.append(
            ScheduledReminder(
                user_id=row.user_id,
                at=reminder_time(row.reminder, zone),
                time_zone=zone,
                locale=row.locale,
                due=due.get(row.user_id, 0),
                next_at=next_firing(row.reminder, zone, now),
            )
        )
    return scheduled
