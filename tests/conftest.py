"""Shared fixtures: settings isolated in a temporary folder, the bundled sample loaded once, and a store on a
clock the test moves by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from retrieval.compiler import compile_kb
from retrieval.facts import FactBase
from retrieval.models import Slice
from retrieval.sources import Sources, load_sources
from settings import Settings, load_settings
from storage import Store
from tests.test_storage_support import Clock

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def sample_sources() -> Sources:
    settings = load_settings(ROOT / "config.toml", environ={})
    return load_sources(settings.data.knowledge_base, settings.data.question_bank)


@pytest.fixture(scope="session")
def compiled_sample(sample_sources: Sources) -> tuple[FactBase, dict[str, Slice]]:
    """The bundled sample's compiled facts and its slices by id: recipes tried on real material."""
    return compile_kb(sample_sources.slices), {s.id: s for s in sample_sources.slices}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The project's config with every file it writes moved into tmp_path."""
    loaded = load_settings(ROOT / "config.toml", environ={})
    loaded.graph.checkpoint_db = tmp_path / "checkpoints.sqlite"
    loaded.storage.database = tmp_path / "examforge.sqlite"
    return loaded


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "examforge.sqlite"


@pytest.fixture
async def store(db_path: Path, clock: Clock) -> AsyncIterator[Store]:
    opened = await Store.open(db_path, clock)
    yield opened
    await opened.close()
