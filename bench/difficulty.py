"""Difficulty benchmark: how often a 难 request gets a question the author estimates hard, per bundled KB.

Every chapter of each bundled knowledge base is asked for 难 questions of every type in both modes, through
the whole loop (router, finance expert, critic) with the offline author, as a learner's 难 session would.
A request is served hard when its delivered question is estimated above HARD_ABOVE; one that could not be
written at all counts against the share. A chapter is served hard when most of its written 难 requests are.
The figure is the author's estimate, not learners' answers: progress.difficulty corrects it in use.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path

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
    """What the 难 requests of one KB got: per chapter, (written, hard) counts, and how many failed."""

    chapters: dict[str, tuple[int, int]]
    failed: int

    @property
    def requests(self) -> int:
        return sum(written for written, _ in self.chapters.values()) + self.failed

    @property
    def hard(self) -> int:
        return sum(hard for _, hard in self.chapters.values())

    @property
    def hard_chapters(self) -> int:
        return sum(written > 0 and hard * 2 > written for written, hard in self.chapters.values())


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
    failed = 0
    sampler = None
    try:
        for chapter in sources.tree.chapters:
            written = hard = 0
            for qtype in QUESTION_TYPES:
                for mode in MODES:
                    for number in range(VISITS):
                        drawn, sampler = service.new_request(
                            1, qtype, mode, [chapter.key], sampler_state=sampler
                        )
                        key = f"{chapter.name}-{qtype}-{mode}-{number}"
                        request = drawn.model_copy(update={"question_id": key, "difficulty": "hard"})
                        result = await service.generate(request)
                        if result.question is None:
                            failed += 1
                            continue
                        written += 1
                        hard += result.question.difficulty > HARD_ABOVE
            chapters[chapter.name] = (written, hard)
    finally:
        await service.close()
    return Served(chapters, failed)


def rows_of(name: str, served: Served) -> list[Row]:
    share = served.hard / served.requests if served.requests else 0.0
    chapters = served.hard_chapters / len(served.chapters) if served.chapters else 0.0
    return [
        (
            f"difficulty[{name}]: 难 requests served hard ({served.failed} not written)",
            f"{served.hard}/{served.requests} ({share:.0%})",
            f"≥ {SHARE_TARGET:.0%}",
            share >= SHARE_TARGET,
        ),
        (
            f"difficulty[{name}]: chapters whose 难 requests are mostly hard",
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
