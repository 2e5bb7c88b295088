"""Which knowledge slice a chat practises next.

Slices are drawn with a chance proportional to the weight of their 掌握程度 (掌握 counts more than 了解), and
without replacement: a chat sees every slice of its chosen chapters once before any comes back. What a chat
has used lives in a `SamplerState` the caller can store and hand back, so the cycle survives restarts; the
random choice is derived from the seed, the chat and how many draws it has made, so the same history always
gives the same next slice, whatever other chats do in between.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from retrieval.models import PATH_SEPARATOR, Slice
from vocabulary.records import SamplerState

Chapter = tuple[str, ...]


class NoSlicesError(ValueError):
    """The chapters asked for hold no slice that can be drawn."""


class SliceSampler:
    """Mastery-weighted draws without replacement, one `SamplerState` per chat in `states`.

    A mastery level missing from `weights`, or weighted 0, is never drawn.
    """

    def __init__(self, slices: Iterable[Slice], weights: Mapping[str, float], seed: int = 0) -> None:
        self.slices: tuple[Slice, ...] = tuple(slices)
        self.weights = dict(weights)
        self.seed = seed
        self.states: dict[str, SamplerState] = {}

    def draw(
        self, chat_key: str, chapters: set[Chapter] | None = None, calculation_only: bool = False
    ) -> Slice:
        """The next slice for a chat from `chapters` (篇, 章 pairs; None means all of them).

        When every eligible slice has been used, a new cycle starts over them; slices of other chapters the
        chat used keep their place in its history.
        """
        eligible = self._eligible(chapters, calculation_only)
        if not eligible:
            raise NoSlicesError(self._empty_message(chapters, calculation_only))
        state = self.states.setdefault(chat_key, SamplerState())
        used = set(state.used)
        remaining = [s for s in eligible if s.id not in used]
        if not remaining:
            ids = {s.id for s in eligible}
            state.used = [i for i in state.used if i not in ids]
            remaining = eligible
        rng = random.Random(f"{self.seed}/{chat_key}/{state.draws}")
        chosen = rng.choices(remaining, weights=[self.weights[s.mastery] for s in remaining])[0]
        state.used.append(chosen.id)
        state.draws += 1
        state.visits[chosen.id] = state.visits.get(chosen.id, 0) + 1
        return chosen

    def has_calculations(self, chapters: set[Chapter] | None = None) -> bool:
        """Whether `chapters` (None: all) hold a slice a calculation question can be drawn from."""
        return bool(self._eligible(chapters, calculation_only=True))

    def _eligible(self, chapters: set[Chapter] | None, calculation_only: bool) -> list[Slice]:
        return [
            s
            for s in self.slices
            if self.weights.get(s.mastery, 0) > 0
            and (chapters is None or s.chapter in chapters)
            and (s.is_calculation or not calculation_only)
        ]

    def _empty_message(self, chapters: set[Chapter] | None, calculation_only: bool) -> str:
        where = (
            "the knowledge base"
            if chapters is None
            else ", ".join(sorted(PATH_SEPARATOR.join(c) for c in chapters))
        )
        kind = "calculation slices" if calculation_only else "knowledge slices"
        message = f"no {kind} to draw from in {where}"
        zero = sorted(level for level in {s.mastery for s in self.slices} if self.weights.get(level, 0) <= 0)
        if zero:
            message += f" (mastery levels weighted 0 are never drawn: {', '.join(zero)})"
        return message
