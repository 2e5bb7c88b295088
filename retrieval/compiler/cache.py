"""Compiled facts kept on disk per knowledge-base content, so a restart skips the compile.

The key hashes every slice's content and the compiler's own source, so an edited knowledge base or a changed
compiler compiles afresh. A cache file that cannot be read back as facts (truncated, from another version,
tampered) is treated as absent and overwritten; the file is written to a temporary name and renamed, so a
crash mid-write never leaves a half file under the real name.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Sequence
from pathlib import Path

from retrieval.facts import Fact
from retrieval.models import Slice

_SOURCE = Path(__file__).resolve().parent


def _compiler_digest() -> bytes:
    digest = hashlib.sha256()
    for path in sorted(_SOURCE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.digest()


def kb_key(slices: Sequence[Slice]) -> str:
    digest = hashlib.sha256(_compiler_digest())
    for s in slices:
        content = (
            s.id,
            s.path,
            s.text,
            s.tables,
            s.formulas,
            s.examples,
            s.key_params,
            s.rules,
            s.calc_examples,
        )
        digest.update(repr(content).encode("utf-8"))
    return digest.hexdigest()


def cache_path(cache_dir: Path, key: str) -> Path:
    return cache_dir / f"facts-{key[:32]}.pickle"


def load(path: Path) -> list[Fact] | None:
    """The cached facts, or None when the file is missing or is not a list of facts."""
    try:
        with path.open("rb") as handle:
            facts = pickle.load(handle)
    except FileNotFoundError:
        return None
    except Exception:  # any unreadable file is a cache miss, never an error for the caller
        return None
    if not isinstance(facts, list) or not all(isinstance(fact, Fact) for fact in facts):
        return None
    return facts


def save(path: Path, facts: list[Fact]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".facts-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            pickle.dump(facts, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
