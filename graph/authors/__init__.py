"""Authors write the text; `make_author` picks one from `[llm] provider`."""

from __future__ import annotations

from graph.authors.base import Author
from settings.model import LLMSettings


def make_author(settings: LLMSettings) -> Author:
    if settings.provider == "offline":
        from graph.authors.offline import OfflineAuthor

        return OfflineAuthor()
    from graph.authors.llm import LLMAuthor

    return LLMAuthor(settings)
