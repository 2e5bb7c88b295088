"""What a chat's next question asks: its slice (mastery-weighted, no repeats per cycle), its seed, and
whether a 灵活 question is told as a calculation — the request mix is decided here and nowhere else.

A chat's sampler history goes in and its successor comes out: the caller's state is never changed, so a
caller that fails before storing the new state has stored nothing half-advanced. Chats whose history nobody
stores (the CLI, scripts) are remembered here, in memory.
"""

from __future__ import annotations

import copy
import uuid
import zlib
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from retrieval.models import Slice
from retrieval.sampler import SliceSampler
from vocabulary.records import GenerationRequest, SamplerState

Chapters = list[tuple[str, ...]] | None


def question_seed(seed: int, chat_id: int, draws: int) -> int:
    """Each question of each chat its own seed (people, figures, fact order), reproducible from the
    configured seed: the same chat history gives the same questions, two chats do not start alike."""
    return zlib.crc32(f"{seed}/{chat_id}/{draws}".encode())


def tells_a_calculation(qtype: str, mode: str, seed: int) -> bool:
    """Every other 灵活 single or judge question is a calculation case where the chosen chapters have worked
    examples: examiners signed 38 of 42 calculations told as a client's situation and none of the fixed
    frames a chapter's rules fall back to, and the field's own 灵活 items in such chapters are mostly cases
    with figures. Multiple choice is never a calculation."""
    return mode == "flexible" and qtype != "multi" and seed % 2 == 0


def _chosen(chapters: Chapters) -> set[tuple[str, ...]] | None:
    return {tuple(c) for c in chapters} if chapters else None


class Drawn(NamedTuple):
    """A new request and the chat's sampler history after drawing it, for the caller to store."""

    request: GenerationRequest
    state: SamplerState


class RequestDrawer:
    def __init__(self, slices: Iterable[Slice], weights: Mapping[str, float], seed: int) -> None:
        self.seed = seed
        self.sampler = SliceSampler(slices, weights, seed)

    def new_request(
        self,
        chat_id: int,
        qtype: str,
        mode: str = "strict",
        chapters: Chapters = None,
        calculation_only: bool = False,
        sampler_state: SamplerState | None = None,
    ) -> Drawn:
        """`sampler_state` is the chat's stored history; without it the history kept here is used."""
        key = str(chat_id)
        remembered = self.sampler.states.pop(key, None)
        state = copy.deepcopy(sampler_state) if sampler_state is not None else remembered or SamplerState()
        self.sampler.states[key] = state
        try:
            seed = question_seed(self.seed, chat_id, state.draws + 1)
            calculation_only = calculation_only or (
                tells_a_calculation(qtype, mode, seed) and self.sampler.has_calculations(_chosen(chapters))
            )
            slice_ = self.draw_slice(chat_id, chapters, calculation_only)
        finally:
            if sampler_state is not None:  # the caller stores this chat's history; what was kept stays
                del self.sampler.states[key]
                if remembered is not None:
                    self.sampler.states[key] = remembered
        request = GenerationRequest(
            chat_id=chat_id,
            question_id=uuid.uuid4().hex[:12],
            qtype=qtype,
            mode=mode,
            chapters=[list(c) for c in chapters or []],
            calculation_only=calculation_only,
            slice_id=slice_.id,
            seed=question_seed(self.seed, chat_id, state.draws),
            visit=state.visits.get(slice_.id, 1) - 1,
        )
        return Drawn(request, copy.deepcopy(state) if sampler_state is None else state)

    def draw_slice(self, chat_id: int, chapters: Chapters, calculation_only: bool) -> Slice:
        """A slice from the history kept here (a request that came without one)."""
        return self.sampler.draw(str(chat_id), _chosen(chapters), calculation_only)
