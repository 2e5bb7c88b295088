"""Difficulty benchmark: how often a 难 request gets a question the author estimates hard, per bundled KB.

Every chapter of each bundled knowledge base is asked for 难 questions of every type in both modes, through
the whole loop (router, finance expert, critic) with the offline author, as a learner's 难 session would.
A request is served hard when its delivered question is estimated above HARD_ABOVE; the share is of the
questions written (those not written at all are counted beside it). A chapter is served hard when most of
its written 单选 and 多选 难 requests are (a mixed 难 session asks no 判断, which is rarely 难); the share is
also given per question type.
The figure is the author's estimate, not learners' answers: progress.difficulty corrects it in use.
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from dataclasses import dataclass
from pathlib import Path

from engines.sessions import HARD_MIXED_ORDER
from graph.service import GenerationService
from retrieval.sources import load_sources
from settings import Settings
from settings.model import DataSettings, GraphSettings
from vocabulary.kinds import HARD_ABOVE, MODES, QUESTION_TYPES

ROOT = Path(__file__).resolve().parent.parent
KBS = {"structured": ROOT / "data", "prose": ROOT / "data" / "prose"}
VISITS = 2
SHARE_TARGET = 0.5
CHAPTER_TARGET = 0.5

Row = tuple[str, str, str, bool | None]


@dataclass(frozen=True)
class Served:
    """What the 难 requests of one KB got: (written, hard) per question type, and per chapter for the types
    a mixed 难 session asks (engines.sessions.HARD_MIXED_ORDER); how many could not be written at all
    (mostly 灵活 requests in chapters with no case to tell)."""

    chapters: dict[str, tuple[int, int]]
    qtypes: dict[str, tuple[int, int]]
    failed: int

    @property
    def written(self) -> int:
        return sum(written for written, _ in self.qtypes.values())

    @property
    def hard(self) -> int:
        return sum(hard for _, hard in self.qtypes.values())

    @property
    def hard_chapters(self) -> int:
        return sum(written > 0 and hard * 2 > written for written, hard in self.chapters.values())


def _add(tally: dict[str, tuple[int, int]], key: str, hard: bool) -> None:
    written, hard_ones = tally.get(key, (0, 0))
    tally[key] = (written + 1, hard_ones + hard)


async def serve_hard(folder: Path, checkpoints: Path) -> Served:
    """Every chapter × type × mode, VISITS requests each, for one chat (so visits move on to other facts)."""
    kb, bank = folder / "knowledge_base.jsonl", folder / "question_bank.xlsx"
    settings = Settings(
        data=DataSettings(knowledge_base=kb, question_bank=bank),
        graph=GraphSettings(checkpoint_db=checkpoints),
    )
    sources = load_sources(kb, bank)
    service = await GenerationService.open(settings, sources=sources)
    chapters: dict[str, tuple[int, int]] = {}
    qtypes: dict[str, tuple[int, int]] = {}
    failed = 0
    sampler = None
    try:
        for chapter in sources.tree.chapters:
            for qtype, mode, number in itertools.product(QUESTION_TYPES, MODES, range(VISITS)):
                drawn, sampler = service.new_request(1, qtype, mode, [chapter.key], sampler_state=sampler)
                key = f"{chapter.name}-{qtype}-{mode}-{number}"
                result = await service.generate(
                    drawn.model_copy(update={"question_id": key, "difficulty": "hard"})
                )
                if result.question is None:
                    failed += 1
                    continue
                hard = result.question.difficulty > HARD_ABOVE
                _add(qtypes, qtype, hard)
                if qtype in HARD_MIXED_ORDER:
                    _add(chapters, chapter.name, hard)
    finally:
        await service.close()
    return Served(chapters, qtypes, failed)


def rows_of(name: str, served: Served) -> list[Row]:
    share = served.hard / served.written if served.written else 0.0
    chapters = served.hard_chapters / len(served.chapters) if served.chapters else 0.0
    by_type = ", ".join(f"{qtype} {hard}/{written}" for qtype, (written, hard) in served.qtypes.items())
    return [
        (
            f"difficulty[{name}]: 难 requests served hard ({served.failed} more not written)",
            f"{served.hard}/{served.written} ({share:.0%})",
            f"≥ {SHARE_TARGET:.0%}",
            share >= SHARE_TARGET,
        ),
        (f"difficulty[{name}]: served hard by type", by_type, "", None),
        (
            f"difficulty[{name}]: chapters whose 单选/多选 难 requests are mostly hard",
            f"{served.hard_chapters}/{len(served.chapters)}",
            f"> {CHAPTER_TARGET:.0%}",
            chapters > CHAPTER_TARGET,
        ),
    ]


def run() -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        for name, data in KBS.items():
            served = asyncio.run(serve_hard(data, Path(folder) / f"{name}.sqlite"))
            rows += rows_of(name, served)
    return rows


if __name__ == "__main__":
    for row in run():
        print(" | ".join(str(cell) for cell in row))
