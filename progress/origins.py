"""Where a stored question came from, read from its key: the loop's own questions have a thread to revise,
while a past question from the bank and a sub-question of a generated case were written outside it. An
instructor's 修复 on those is answered at once with the reason instead of a revision that cannot come."""

from __future__ import annotations

from typing import Literal

from storage import Store

BANK_PREFIX = "bank-"
CASE_PREFIX = "case-"

Outside = Literal["bank", "case"]


def case_key(seed: int, number: int) -> str:
    return f"{CASE_PREFIX}{seed}-{number}"


async def written_outside_the_loop(store: Store, version_id: int) -> Outside | None:
    version = await store.questions.version(version_id)
    stored = await store.questions.get(version.question_id) if version else None
    if stored is None:
        return None
    if stored.question_key.startswith(BANK_PREFIX):
        return "bank"
    return "case" if stored.question_key.startswith(CASE_PREFIX) else None
