"""Standings as the chat reads them: ranked lines with medals, names made safe to show. Used by the
leaderboard that closes a group round and by /leaderboard."""

from __future__ import annotations

from engines.i18n import text
from storage.rounds import Standing

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
# Bidirectional controls (marks, embeddings, overrides, isolates): in a name they would reorder the rest of
# the line, e.g. U+202E shows everyone's score after it backwards.
BIDI_CONTROLS = dict.fromkeys([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def display_name(name: str, username: str | None, user_id: int) -> str:
    """A member's name as others see it, in standings and class statistics alike."""
    return name.translate(BIDI_CONTROLS).strip() or (f"@{username}" if username else str(user_id))


def shown_name(standing: Standing) -> str:
    return display_name(standing.name, standing.username, standing.user_id)


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
