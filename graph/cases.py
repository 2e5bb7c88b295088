"""案例题 for the bot: which chosen chapters can carry one, and a case whose every sub-question the critic's
checks accept, ready to be stored and sent as a situation followed by one poll per sub-question.

A case is written whole by the offline author (graph/authors/recipes/case) rather than by the loop one
question at a time: its sub-questions share one deal, so none can be rewritten alone.
"""

from __future__ import annotations

from graph.authors.base import AuthorError
from graph.authors.recipes.case import Library, can_carry, check_case, write_case
from retrieval.chapters import ChapterTree
from vocabulary.kinds import Mode
from vocabulary.records import CaseQuestion

_FEWEST = 3


def case_chapters(
    library: Library, tree: ChapterTree, chosen: list[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """Of the chosen chapters (every chapter when none is chosen), those a case can be written on."""
    chapters = chosen or [chapter.key for chapter in tree.chapters if chapter.slices]
    return [chapter for chapter in chapters if can_carry(library, chapter)]


def verified_case(library: Library, chapter: tuple[str, ...], mode: Mode, seed: int) -> CaseQuestion:
    """The case, each sub-question read with its situation by the critic's checks: one they reject is left
    out; an AuthorError when the chapter yields no case or fewer than three sub-questions pass."""
    case = write_case(library, chapter, mode, seed)
    passed = [q for q, issues in zip(case.questions, check_case(case, library), strict=True) if not issues]
    if len(passed) < _FEWEST:
        raise AuthorError(f"“{chapter[-1]}”的案例题没有通过审核")
    return case.model_copy(update={"questions": passed})
