"""Typed access to a method's parameters, whatever encoding the caller used.

python-telegram-bot sends form fields (urlencoded, or multipart when files are attached) in which every
non-string value is a JSON document (`"true"`, `"123"`, `'{"inline_keyboard": …}'`) and strings are sent raw.
Other clients post a JSON body with native types. Reading a parameter through the type the method expects
handles both without a per-method schema, and a raw string such as a message text "123" stays a string.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from emulator.errors import ApiError, bad_request

ATTACH_PREFIX = "attach://"


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request."""

    filename: str
    content: bytes
    content_type: str


class Params:
    def __init__(self, values: Mapping[str, object], uploads: Mapping[str, Upload] | None = None) -> None:
        self._values = dict(values)
        self._uploads = dict(uploads or {})

    def has(self, name: str) -> bool:
        return self._values.get(name) not in (None, "")

    def _missing(self, name: str) -> ApiError:
        return bad_request(f'parameter "{name}" is required')

    def _wrong_type(self, name: str, expected: str) -> ApiError:
        return bad_request(f'field "{name}" must be of type {expected}')

    def text(self, name: str, *, required: bool = False) -> str | None:
        value = self._values.get(name)
        if value is None:
            if required:
                raise self._missing(name)
            return None
        if isinstance(value, dict | list):
            raise self._wrong_type(name, "String")
        return value if isinstance(value, str) else json.dumps(value)

    def integer(self, name: str, *, required: bool = False) -> int | None:
        value = self._values.get(name)
        if value is None or value == "":
            if required:
                raise self._missing(name)
            return None
        if isinstance(value, bool):
            raise self._wrong_type(name, "Integer")
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            raise self._wrong_type(name, "Integer") from None

    def number(self, name: str) -> float | None:
        value = self._values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise self._wrong_type(name, "Float")
        try:
            return float(value) if isinstance(value, int | float) else float(str(value).strip())
        except ValueError:
            raise self._wrong_type(name, "Float") from None

    def flag(self, name: str, default: bool = False) -> bool:
        value = self._values.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            return value
        normalised = str(value).strip().lower()
        if normalised in ("true", "1"):
            return True
        if normalised in ("false", "0"):
            return False
        raise self._wrong_type(name, "Boolean")

    def structured(self, name: str, *, required: bool = False) -> object:
        """An object or array parameter, decoding the JSON text a form field carries."""
        value = self._values.get(name)
        if value is None or value == "":
            if required:
                raise self._missing(name)
            return None
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise bad_request(f'can\'t parse "{name}" JSON object') from None
        return value

    def chat_id(self, name: str = "chat_id", *, required: bool = True) -> int | str | None:
        """A numeric chat id, or a public `@username`."""
        value = self._values.get(name)
        if isinstance(value, str) and value.strip().startswith("@"):
            return value.strip()
        return self.integer(name, required=required)

    def upload(self, name: str) -> Upload | str | None:
        """A file parameter: the uploaded part (by its field name or an attach:// reference) or a file id."""
        if name in self._uploads:
            return self._uploads[name]
        value = self.text(name)
        if value is not None and value.startswith(ATTACH_PREFIX):
            part = self._uploads.get(value.removeprefix(ATTACH_PREFIX))
            if part is None:
                raise bad_request(f'file part "{value}" of field "{name}" was not uploaded')
            return part
        return value
