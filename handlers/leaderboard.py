"""Leaderboards: the one that closes a group round, and /leaderboard — the group's standing this week and
over all time, read from the stored answers so it survives restarts and matches what was scored."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from handlers.context import remember, state
from handlers.i18n import text
from handlers.pacing import post
from storage.rounds import Standing

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
SHOWN = 10
# Bidirectional controls (marks, embeddings, overrides, isolates): in a name they would reorder the rest of
# the line, e.g. U+202E shows everyone's score after it backwards.
BIDI_CONTROLS = dict.fromkeys([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def shown_name(standing: Standing) -> str:
    name = standing.name.translate(BIDI_CONTROLS).strip()
    return name or (f"@{standing.username}" if standing.username else str(standing.user_id))


def standings_lines(locale: str, standings: list[Standing]) -> list[str]:
    return [
        text(
            locale,
            "leaderboard_line",
            rank=MEDALS.get(s.rank, f"{s.rank}."),
            name=shown_name(s),
            score=s.correct,
            answered=s.answered,
            seconds=f"{s.seconds:.1f}",
        )
        for s in standings
    ]


def round_leaderboard(locale: str, standings: list[Standing]) -> str:
    lines = standings_lines(locale, standings) or [text(locale, "leaderboard_empty")]
    return "\n".join([text(locale, "leaderboard_round_title"), *lines])


async def leaderboard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    locale = await remember(update, context)
    chat = update.effective_chat
    if chat.type not in ("group", "supergroup"):
        await update.effective_message.reply_text(text(locale, "leaderboard_group_only"))
        return
    rounds = state(context).store.rounds
    week = await rounds.week_leaderboard(chat.id, limit=SHOWN)
    ever = await rounds.chat_leaderboard(chat.id, limit=SHOWN)
    none = [text(locale, "leaderboard_none")]
    body = "\n".join(
        [
            text(locale, "leaderboard_title"),
            text(locale, "leaderboard_week"),
            *(standings_lines(locale, week) or none),
            text(locale, "leaderboard_all"),
            *(standings_lines(locale, ever) or none),
        ]
    )
    await post(context.application, chat.id, body)
