"""Read-only, typed views of what the user-side API returns, for tests and the console to read easily."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True)
class EmuUser:
    id: int
    first_name: str
    username: str | None = None

    @classmethod
    def from_json(cls, data: Json) -> EmuUser:
        return cls(int(data["id"]), str(data["first_name"]), data.get("username"))


@dataclass(frozen=True)
class EmuChat:
    id: int
    type: str
    title: str | None = None

    @classmethod
    def from_json(cls, data: Json) -> EmuChat:
        return cls(int(data["id"]), str(data["type"]), data.get("title"))


@dataclass(frozen=True)
class Button:
    text: str
    data: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class PollView:
    id: str
    question: str
    options: tuple[str, ...]
    voter_counts: tuple[int, ...]
    total_voter_count: int
    is_closed: bool
    is_anonymous: bool
    type: str
    allows_multiple_answers: bool
    allows_revoting: bool
    correct_option_ids: tuple[int, ...] = ()
    explanation: str | None = None
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @property
    def is_quiz(self) -> bool:
        return self.type == "quiz"

    @classmethod
    def from_json(cls, data: Json) -> PollView:
        options = data.get("options", [])
        return cls(
            id=str(data["id"]),
            question=str(data["question"]),
            options=tuple(str(option["text"]) for option in options),
            voter_counts=tuple(int(option["voter_count"]) for option in options),
            total_voter_count=int(data.get("total_voter_count", 0)),
            is_closed=bool(data.get("is_closed")),
            is_anonymous=bool(data.get("is_anonymous")),
            type=str(data.get("type", "regular")),
            allows_multiple_answers=bool(data.get("allows_multiple_answers")),
            allows_revoting=bool(data.get("allows_revoting")),
            correct_option_ids=tuple(data.get("correct_option_ids", ())),
            explanation=data.get("explanation"),
            raw=data,
        )


@dataclass(frozen=True)
class ChatMessage:
    """One message as a person in the chat sees it."""

    chat_id: int
    message_id: int
    from_bot: bool
    sender_id: int | None
    text: str | None
    caption: str | None
    keyboard: tuple[tuple[Button, ...], ...]
    force_reply: bool
    poll: PollView | None
    document: Json | None
    photo: tuple[Json, ...]
    reply_to_message_id: int | None
    edited: bool
    deleted: bool
    raw: Json = field(repr=False, compare=False)

    @property
    def buttons(self) -> tuple[Button, ...]:
        return tuple(button for row in self.keyboard for button in row)

    @property
    def body(self) -> str:
        """The text a reader sees first: text, caption or poll question."""
        return self.text or self.caption or (self.poll.question if self.poll else "") or ""

    def button(self, label: str) -> Button:
        """The button with this exact label, else this callback data, else the one label containing it."""
        for matches in (
            [b for b in self.buttons if b.text == label],
            [b for b in self.buttons if b.data == label],
            [b for b in self.buttons if label in b.text],
        ):
            if len(matches) == 1:
                return matches[0]
        labels = ", ".join(repr(b.text) for b in self.buttons) or "no buttons"
        raise LookupError(f"message {self.message_id} has no single button matching {label!r} ({labels})")

    @classmethod
    def from_json(cls, data: Json) -> ChatMessage:
        markup = data.get("reply_markup") or {}
        sender = data.get("from")
        reply_to = data.get("reply_to_message")
        return cls(
            chat_id=int(data["chat"]["id"]),
            message_id=int(data["message_id"]),
            from_bot=bool(data.get("by_bot", sender and sender.get("is_bot"))),
            sender_id=int(sender["id"]) if sender else None,
            text=data.get("text"),
            caption=data.get("caption"),
            keyboard=tuple(
                tuple(Button(str(b["text"]), b.get("callback_data"), b.get("url")) for b in row)
                for row in markup.get("inline_keyboard", [])
            ),
            force_reply=bool(markup.get("force_reply")),
            poll=PollView.from_json(data["poll"]) if "poll" in data else None,
            document=data.get("document"),
            photo=tuple(data.get("photo", ())),
            reply_to_message_id=int(reply_to["message_id"]) if reply_to else None,
            edited="edit_date" in data,
            deleted=bool(data.get("deleted")),
            raw=data,
        )


@dataclass(frozen=True)
class ChatEvent:
    """Something seen in a chat: message, edited, deleted, poll, callback_answer, chat_action or member."""

    seq: int
    kind: str
    chat_id: int
    message_id: int | None
    message: ChatMessage | None
    poll: PollView | None
    raw: Json = field(repr=False, compare=False)

    def summary(self) -> str:
        what = self.message.body if self.message else (self.poll.question if self.poll else "")
        return f"#{self.seq} {self.kind} msg={self.message_id} {what[:60]!r}"

    @classmethod
    def from_json(cls, data: Json) -> ChatEvent:
        message = ChatMessage.from_json(data["message"]) if "message" in data else None
        message_id = data.get("message_id", message.message_id if message else None)
        return cls(
            seq=int(data["seq"]),
            kind=str(data["kind"]),
            chat_id=int(data["chat_id"]),
            message_id=message_id,
            message=message,
            poll=PollView.from_json(data["poll"]) if "poll" in data else None,
            raw=data,
        )


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a button press; `answered` is False if it had not yet when the wait ended."""

    callback_query_id: str
    data: str
    answered: bool
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
