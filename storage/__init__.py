"""The SQLite store: `await Store.open(path)` once per process, then `store.<repository>.<operation>`."""

from storage.errors import ConflictError, InvalidValueError, NotFoundError, SchemaError, StorageError
from storage.store import Store

__all__ = ["ConflictError", "InvalidValueError", "NotFoundError", "SchemaError", "StorageError", "Store"]
