"""The store a process opens once: the database plus one repository per kind of record.

Handlers reach storage only through these repositories, never through SQL, so the schema can change behind
them by adding a migration.
"""

from __future__ import annotations

import time
from pathlib import Path

from storage.attempts import AttemptRepository
from storage.chats import ChatRepository
from storage.db import Clock, Database, Synchronous
from storage.deliveries import DeliveryRepository
from storage.feedback import ReportRepository, VoteRepository
from storage.history import HistoryRepository
from storage.preferences import PreferenceRepository
from storage.questions import QuestionRepository
from storage.reviews import ReviewRepository
from storage.revisions import RevisionRepository
from storage.rounds import RoundRepository
from storage.sessions import SessionRepository
from storage.users import UserRepository


class Store:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.users = UserRepository(db)
        self.chats = ChatRepository(db)
        self.sessions = SessionRepository(db)
        self.questions = QuestionRepository(db)
        self.deliveries = DeliveryRepository(db)
        self.attempts = AttemptRepository(db)
        self.votes = VoteRepository(db)
        self.reports = ReportRepository(db)
        self.revisions = RevisionRepository(db)
        self.rounds = RoundRepository(db)
        self.history = HistoryRepository(db)
        self.reviews = ReviewRepository(db)
        self.preferences = PreferenceRepository(db)

    @classmethod
    async def open(
        cls, path: Path | str, clock: Clock = time.time, synchronous: Synchronous = "full"
    ) -> Store:
        """Open and migrate the database; `clock` (Unix seconds) is injectable so tests can set the time."""
        return cls(await Database.open(Path(path), clock, synchronous=synchronous))

    async def close(self) -> None:
        await self.db.close()
