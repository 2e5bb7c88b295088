"""The schema, as an append-only list of migrations; a database's `PRAGMA user_version` is how many of them
it has had.

Never edit a migration that has shipped: databases in the field have already run it. Change the schema by
appending one. Statements are listed one by one (not as a script) so they all run inside the single
transaction that also sets the new `user_version`; `executescript` would commit half-way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    description: str
    statements: tuple[str, ...]


# Times are Unix seconds (REAL). Booleans are 0/1 with a CHECK. JSON columns hold what pydantic or the
# dataclasses dump; nothing queries inside them.
_INITIAL = Migration(
    "users, chats, sessions, questions and versions, deliveries, attempts, feedback, revisions, rounds",
    (
        """CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            username TEXT,
            locale TEXT CHECK (locale IN ('zh', 'en')),
            role TEXT NOT NULL DEFAULT 'learner' CHECK (role IN ('learner', 'instructor')),
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE chats (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL CHECK (type IN ('private', 'group', 'supergroup', 'channel')),
            title TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE sampler_states (
            chat_id INTEGER PRIMARY KEY REFERENCES chats(id) ON DELETE CASCADE,
            state TEXT NOT NULL,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL REFERENCES users(id),
            settings TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'cancelled')),
            position INTEGER NOT NULL DEFAULT 0,
            score INTEGER,
            created_at REAL NOT NULL,
            finished_at REAL
        )""",
        "CREATE UNIQUE INDEX sessions_one_active ON sessions (chat_id, user_id) WHERE status = 'active'",
        """CREATE TABLE rounds (
            id INTEGER PRIMARY KEY,
            chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            initiator_id INTEGER NOT NULL REFERENCES users(id),
            settings TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'preparing'
                CHECK (status IN ('preparing', 'running', 'finished', 'cancelled')),
            position INTEGER NOT NULL DEFAULT 0,
            question_count INTEGER NOT NULL,
            created_at REAL NOT NULL,
            started_at REAL,
            finished_at REAL
        )""",
        "CREATE UNIQUE INDEX rounds_one_live ON rounds (chat_id) WHERE status IN ('preparing', 'running')",
        """CREATE TABLE questions (
            id INTEGER PRIMARY KEY,
            thread_id TEXT NOT NULL UNIQUE,
            chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            question_key TEXT NOT NULL,
            session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
            round_id INTEGER REFERENCES rounds(id) ON DELETE SET NULL,
            created_at REAL NOT NULL,
            UNIQUE (chat_id, question_key)
        )""",
        "CREATE INDEX questions_session ON questions (session_id)",
        "CREATE INDEX questions_round ON questions (round_id)",
        """CREATE TABLE question_versions (
            id INTEGER PRIMARY KEY,
            question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
            number INTEGER NOT NULL CHECK (number >= 1),
            body TEXT NOT NULL,
            flagged INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
            created_at REAL NOT NULL,
            superseded_by INTEGER REFERENCES question_versions(id) ON DELETE SET NULL,
            UNIQUE (question_id, number)
        )""",
        """CREATE TABLE deliveries (
            id INTEGER PRIMARY KEY,
            poll_id TEXT NOT NULL UNIQUE,
            version_id INTEGER NOT NULL REFERENCES question_versions(id) ON DELETE CASCADE,
            chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            message_id INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('private', 'group', 'channel')),
            anonymous INTEGER NOT NULL CHECK (anonymous IN (0, 1)),
            session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
            round_id INTEGER REFERENCES rounds(id) ON DELETE SET NULL,
            position INTEGER,
            delivered_at REAL NOT NULL,
            open_period INTEGER,
            close_at REAL,
            closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
            UNIQUE (chat_id, message_id)
        )""",
        "CREATE INDEX deliveries_session ON deliveries (session_id, position)",
        "CREATE INDEX deliveries_round ON deliveries (round_id, position)",
        "CREATE INDEX deliveries_version ON deliveries (version_id)",
        "CREATE INDEX deliveries_open ON deliveries (close_at) WHERE closed = 0 AND close_at IS NOT NULL",
        """CREATE TABLE attempts (
            id INTEGER PRIMARY KEY,
            delivery_id INTEGER NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
            version_id INTEGER NOT NULL REFERENCES question_versions(id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL REFERENCES users(id),
            option_ids TEXT NOT NULL,
            correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
            seconds REAL NOT NULL,
            answered_at REAL NOT NULL,
            UNIQUE (user_id, delivery_id)
        )""",
        "CREATE INDEX attempts_delivery ON attempts (delivery_id)",
        "CREATE INDEX attempts_version ON attempts (version_id)",
        """CREATE TABLE votes (
            user_id INTEGER NOT NULL REFERENCES users(id),
            version_id INTEGER NOT NULL REFERENCES question_versions(id) ON DELETE CASCADE,
            value INTEGER NOT NULL CHECK (value IN (-1, 1)),
            voted_at REAL NOT NULL,
            PRIMARY KEY (user_id, version_id)
        )""",
        "CREATE INDEX votes_version ON votes (version_id)",
        """CREATE TABLE reports (
            id INTEGER PRIMARY KEY,
            version_id INTEGER NOT NULL REFERENCES question_versions(id) ON DELETE CASCADE,
            reporter_id INTEGER NOT NULL REFERENCES users(id),
            reason TEXT NOT NULL,
            comment TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'fixed', 'dismissed')),
            created_at REAL NOT NULL,
            resolved_at REAL,
            resolved_by INTEGER REFERENCES users(id),
            fixed_by INTEGER REFERENCES question_versions(id) ON DELETE SET NULL,
            CHECK (status != 'fixed' OR fixed_by IS NOT NULL)
        )""",
        "CREATE UNIQUE INDEX reports_one_open ON reports (version_id, reporter_id) WHERE status = 'open'",
        "CREATE INDEX reports_status ON reports (status, created_at)",
        """CREATE TABLE revisions (
            id INTEGER PRIMARY KEY,
            version_id INTEGER NOT NULL REFERENCES question_versions(id) ON DELETE CASCADE,
            instructor_id INTEGER NOT NULL REFERENCES users(id),
            reason TEXT NOT NULL,
            comment TEXT NOT NULL DEFAULT '',
            started_at REAL NOT NULL,
            finished_at REAL,
            outcome TEXT CHECK (outcome IN ('revised', 'failed', 'abandoned')),
            result_version_id INTEGER REFERENCES question_versions(id) ON DELETE SET NULL,
            CHECK ((finished_at IS NULL) = (outcome IS NULL))
        )""",
        "CREATE UNIQUE INDEX revisions_one_in_flight ON revisions (version_id) WHERE finished_at IS NULL",
        "CREATE INDEX revisions_instructor ON revisions (instructor_id) WHERE finished_at IS NULL",
    ),
)

_ROUND_PACE = Migration(
    "rounds remember their pace (seconds per question, pause between questions) so a restart can resume them",
    (
        "ALTER TABLE rounds ADD COLUMN seconds INTEGER CHECK (seconds IS NULL OR seconds > 0)",
        "ALTER TABLE rounds ADD COLUMN pause INTEGER NOT NULL DEFAULT 0 CHECK (pause >= 0)",
    ),
)

# The chapter was already stored with every answer, but only inside the version's JSON body: a generated
# column names it so statistics can group by it (VIRTUAL: computed on read, nothing to backfill or keep in
# step). Review schedules are per learner and question (not version), so a revision keeps its schedule.
_LEARNER_PROGRESS = Migration(
    "learner progress: the chapter of each version as a column, review schedules, learner preferences",
    (
        "ALTER TABLE question_versions ADD COLUMN chapter TEXT "
        "GENERATED ALWAYS AS (json_extract(body, '$.chapter')) VIRTUAL",
        "CREATE INDEX attempts_user ON attempts (user_id, answered_at, correct)",
        """CREATE TABLE reviews (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
            missed_version_id INTEGER NOT NULL REFERENCES question_versions(id) ON DELETE CASCADE,
            card TEXT NOT NULL,
            due_at REAL NOT NULL,
            reviews INTEGER NOT NULL DEFAULT 0 CHECK (reviews >= 0),
            misses INTEGER NOT NULL DEFAULT 1 CHECK (misses >= 1),
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (user_id, question_id)
        )""",
        "CREATE INDEX reviews_due ON reviews (user_id, due_at)",
        """CREATE TABLE preferences (
            user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            quiz TEXT NOT NULL,
            source TEXT NOT NULL DEFAULT 'generated' CHECK (source IN ('generated', 'past_papers')),
            difficulty TEXT CHECK (difficulty IN ('easy', 'medium', 'hard')),
            reminder TEXT CHECK (reminder IS NULL OR reminder GLOB '[0-2][0-9]:[0-5][0-9]'),
            time_zone TEXT,
            updated_at REAL NOT NULL
        )""",
        "CREATE INDEX preferences_reminder ON preferences (reminder) WHERE reminder IS NOT NULL",
    ),
)

MIGRATIONS: tuple[Migration, ...] = (_INITIAL, _ROUND_PACE, _LEARNER_PROGRESS)
LATEST_VERSION = len(MIGRATIONS)
