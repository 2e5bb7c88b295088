"""The state of one bot process, in one typed object: what it was built with, what it opens while it runs,
and the tables of work in flight. It lives in the Application's `bot_data` under a single key and is
reached through `handlers.context.state`; nothing else is kept there."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engines.clock import Clock, Pace, WallClock
from engines.limits import DialogueLimit
from engines.metrics import Metrics
from engines.roundprep import RoundPrep
from engines.rounds import Rounds
from engines.sending import Sender
from engines.sessions import Sessions, StatusOpener
from settings import Settings

if TYPE_CHECKING:
    from graph.service import GenerationService
    from retrieval.sources import Sources
    from storage import Store

KEY = "state"


@dataclass
class BotState:
    """`sources`, `generation`, `store` and the `rounds`, `prep` and `sessions` engines are set by `open`
    when the bot starts and dropped by `close`: between the two the bot is `running`, and only then may an
    update be handled."""

    settings: Settings
    metrics: Metrics = field(default_factory=Metrics)
    dialogues: DialogueLimit = field(default_factory=DialogueLimit)
    clock: Clock = field(default_factory=WallClock)
    pace: Pace = field(default_factory=Pace)
    # Around the Telegram sender, when a test holds or fails what the engines send.
    wrap_sender: Callable[[Sender], Sender] | None = None
    # Reads the knowledge base and the bank when the bot opens; tests reuse one reading across many starts.
    read_sources: Callable[[Path, Path], Sources] | None = None
    sources: Sources = field(init=False)
    generation: GenerationService = field(init=False)
    store: Store = field(init=False)
    rounds: Rounds = field(init=False)
    prep: RoundPrep = field(init=False)
    sessions: Sessions = field(init=False)
    running: bool = False
    # Per-chat pacing of posts to groups and channels.
    pacers: dict[int, Any] = field(default_factory=dict)
    # Group administrators as Telegram last listed them: chat id -> (when, user ids).
    admin_cache: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    # Revisions being published, so a second tap does not publish twice.
    publishing: set[int] = field(default_factory=set)

    def open(
        self,
        sources: Sources,
        generation: GenerationService,
        store: Store,
        sender: Sender,
        open_status: StatusOpener,
    ) -> None:
        """`open_status`: how the engines show a generation's live status (a Telegram message)."""
        self.sources, self.generation, self.store = sources, generation, store
        self.rounds = Rounds(store, sender, self.clock, self.pace, self.settings.locale.default)
        self.prep = RoundPrep(self.rounds, generation, self.metrics, open_status)
        self.sessions = Sessions(
            store,
            generation,
            sender,
            self.clock,
            self.metrics,
            open_status,
            default_locale=self.settings.locale.default,
            status_after=self.settings.telegram.status_after,
        )
        self.running = True

    def close(self) -> None:
        self.running = False
        for name in ("sources", "generation", "store", "rounds", "prep", "sessions"):
            self.__dict__.pop(name, None)
