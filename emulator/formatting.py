"""Turning sent text into what Telegram stores: plain text plus entities.

Bots format with parse_mode=HTML; Telegram strips the tags and returns entities, so a bot that compares
`message.text` or edits a message sees the same text here as in production. Markdown modes are passed
through unchanged (their text keeps its markers), which is enough for an offline console.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from emulator.errors import ApiError, bad_request

_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")


def utf16_length(text: str) -> int:
    """Telegram measures entity offsets and lengths in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


class _TelegramHtml(HTMLParser):
    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self._line_starts = [0]
        for index, char in enumerate(source):
            if char == "\n":
                self._line_starts.append(index + 1)
        self._source = source
        self.parts: list[str] = []
        self.length = 0
        self._closed: list[tuple[int, int, dict[str, object]]] = []
        self._open: list[tuple[str, dict[str, object], int]] = []

    def _byte_offset(self) -> int:
        line, column = self.getpos()
        return len(self._source[: self._line_starts[line - 1] + column].encode())

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.length += utf16_length(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        entity: dict[str, object] = {}
        if tag in _SIMPLE_TAGS:
            entity["type"] = _SIMPLE_TAGS[tag]
            language = (attributes.get("class") or "").removeprefix("language-")
            if tag == "code" and language and self._open and self._open[-1][0] == "pre":
                self._open[-1][1]["language"] = language
        elif tag == "span" and attributes.get("class") == "tg-spoiler":
            entity["type"] = "spoiler"
        elif tag == "a" and attributes.get("href"):
            entity.update(type="text_link", url=attributes["href"])
        elif tag == "blockquote":
            entity["type"] = "expandable_blockquote" if "expandable" in attributes else "blockquote"
        elif tag == "tg-emoji" and attributes.get("emoji-id"):
            entity.update(type="custom_emoji", custom_emoji_id=attributes["emoji-id"])
        else:
            raise bad_request(
                f'can\'t parse entities: Unsupported start tag "{tag}" at byte offset {self._byte_offset()}'
            )
        self._open.append((tag, entity, self.length))

    def handle_endtag(self, tag: str) -> None:
        if not self._open or self._open[-1][0] != tag:
            expected = f'"</{self._open[-1][0]}>"' if self._open else "no end tag"
            raise bad_request(
                f"can't parse entities: Unmatched end tag at byte offset {self._byte_offset()}, "
                f'expected {expected}, found "</{tag}>"'
            )
        _, entity, start = self._open.pop()
        nested_code_in_pre = entity["type"] == "code" and self._open and "language" in self._open[-1][1]
        if self.length > start and not nested_code_in_pre:
            self._closed.append((start, self.length - start, entity))

    def finish(self) -> tuple[str, list[dict[str, object]]]:
        self.close()
        if self._open:
            raise bad_request(
                f"can't parse entities: Can't find end tag corresponding to start tag \"{self._open[-1][0]}\""
            )
        # Telegram lists entities by offset, outer ones first.
        ordered = sorted(self._closed, key=lambda closed: (closed[0], -closed[1]))
        return "".join(self.parts), [
            {**entity, "offset": start, "length": size} for start, size, entity in ordered
        ]


def parse_text(text: str, parse_mode: str | None) -> tuple[str, list[dict[str, object]]]:
    """Plain text and entities for `text` sent with `parse_mode`."""
    if not parse_mode or parse_mode.lower() != "html":
        return text, []
    parser = _TelegramHtml(text)
    try:
        parser.feed(text)
        return parser.finish()
    except ApiError:
        raise
    except (ValueError, AssertionError) as exc:
        raise bad_request(f"can't parse entities: {exc}") from None


def command_entities(text: str) -> list[dict[str, object]]:
    """The bot_command entities a Telegram client attaches to a typed message."""
    return [
        {
            "type": "bot_command",
            "offset": utf16_length(text[: match.start()]),
            "length": utf16_length(match[0]),
        }
        for match in _COMMAND.finditer(text)
    ]
