"""An async client of the emulator's user-side API, written for readable end-to-end tests.

    async with EmulatorClient(emulator.root_url) as emu:
        alice = await emu.create_user("Alice")
        await emu.send_text(alice, "/quiz")
        menu = await emu.next_message(alice)
        await emu.press(alice, menu, "全部")
        quiz = await emu.wait_for_poll(alice)
        await emu.vote(alice, quiz, [0, 2])

Waiting works like `expect`: each chat has a cursor, and every `wait_for…`/`next_message` consumes the
events it looks at, skipping those that do not match. A private chat is named by its user.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import Any

import aiohttp

from emulator.views import Button, CallbackAnswer, ChatEvent, ChatMessage, EmuChat, EmuUser, PollView

ChatRef = EmuChat | EmuUser | ChatMessage | int
UserRef = EmuUser | int
DEFAULT_TIMEOUT = 10.0


class EmulatorError(Exception):
    """The emulator refused a user-side call; `description` says which field or object was wrong."""

    def __init__(self, status: int, description: str) -> None:
        super().__init__(f"{status}: {description}")
        self.status = status
        self.description = description


def _chat_id(chat: ChatRef) -> int:
    if isinstance(chat, ChatMessage):
        return chat.chat_id
    return chat if isinstance(chat, int) else chat.id


def _user_id(user: UserRef) -> int:
    return user if isinstance(user, int) else user.id


def root_of(url: str) -> str:
    """Accept the server root, the Bot API base_url (…/bot) or the user API URL (…/_emu)."""
    root = url.rstrip("/")
    for suffix in ("/bot", "/_emu"):
        root = root.removesuffix(suffix)
    return root


class EmulatorClient:
    def __init__(
        self, url: str, *, session: aiohttp.ClientSession | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self._api = f"{root_of(url)}/_emu"
        self._session = session
        self._owns_session = session is None
        self.timeout = timeout
        self._cursors: dict[int, int] = {}
        self._bot: EmuUser | None = None

    async def __aenter__(self) -> EmulatorClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        if self._session is not None and self._owns_session:
            await self._session.close()
        self._session = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            # Many simulated people each hold a long poll open: no cap on connections.
            self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        return self._session

    async def _call(
        self,
        method: str,
        path: str,
        *,
        body: dict[str, Any] | None = None,
        query: dict[str, Any] | None = None,
    ) -> Any:
        wait = float((query or {}).get("timeout", 0)) + float((body or {}).get("wait", 0))
        async with self._http().request(
            method,
            f"{self._api}{path}",
            json=body,
            params={key: str(value) for key, value in (query or {}).items() if value is not None},
            timeout=aiohttp.ClientTimeout(total=wait + 30.0),
        ) as response:
            payload = await response.json(content_type=None)
        if not payload.get("ok"):
            raise EmulatorError(
                int(payload.get("error_code", response.status)), str(payload.get("description"))
            )
        return payload["result"]

    # ---- setting the scene ---------------------------------------------------------------------------------

    async def bot(self) -> EmuUser:
        if self._bot is None:
            self._bot = EmuUser.from_json((await self.bot_info())["bot"])
        return self._bot

    async def bot_info(self) -> dict[str, Any]:
        """The bot, its webhook, commands, per-method call counts and the journal's last sequence number."""
        return dict(await self._call("GET", "/bot"))

    async def reset(self) -> None:
        await self._call("POST", "/reset")
        self._cursors.clear()

    async def create_user(
        self,
        first_name: str,
        username: str | None = None,
        *,
        user_id: int | None = None,
        language_code: str | None = None,
    ) -> EmuUser:
        body = {"first_name": first_name, "username": username, "id": user_id, "language_code": language_code}
        return EmuUser.from_json(await self._call("POST", "/users", body=body))

    async def users(self) -> list[EmuUser]:
        return [EmuUser.from_json(user) for user in await self._call("GET", "/users")]

    async def create_group(
        self,
        title: str,
        members: Iterable[UserRef],
        *,
        admins: Iterable[UserRef] = (),
        bot: str = "administrator",
        supergroup: bool = True,
        username: str | None = None,
    ) -> EmuChat:
        """A group created by its first admin (else first member); `bot` is administrator, member or left."""
        return await self._create_chat(
            "supergroup" if supergroup else "group", title, members, admins, bot, username
        )

    async def create_channel(
        self,
        title: str,
        admins: Iterable[UserRef],
        *,
        subscribers: Iterable[UserRef] = (),
        bot: str = "administrator",
        username: str | None = None,
    ) -> EmuChat:
        return await self._create_chat("channel", title, subscribers, admins, bot, username)

    async def _create_chat(
        self,
        chat_type: str,
        title: str,
        members: Iterable[UserRef],
        admins: Iterable[UserRef],
        bot: str,
        username: str | None,
    ) -> EmuChat:
        body = {
            "type": chat_type,
            "title": title,
            "members": [_user_id(user) for user in members],
            "admins": [_user_id(user) for user in admins],
            "bot": bot,
            "username": username,
        }
        return EmuChat.from_json(await self._call("POST", "/chats", body=body))

    async def chats(self) -> list[EmuChat]:
        return [EmuChat.from_json(chat) for chat in await self._call("GET", "/chats")]

    async def chat_info(self, chat: ChatRef) -> dict[str, Any]:
        return dict(await self._call("GET", f"/chats/{_chat_id(chat)}"))

    async def set_member(
        self, chat: ChatRef, user: UserRef, status: str, *, by: UserRef | None = None
    ) -> None:
        body = {"user_id": _user_id(user), "status": status, "by": _user_id(by) if by is not None else None}
        await self._call("POST", f"/chats/{_chat_id(chat)}/members", body=body)

    async def set_bot_status(self, chat: ChatRef, status: str) -> None:
        """Promote, demote, add or remove the bot; it receives a my_chat_member update."""
        await self.set_member(chat, await self.bot(), status)

    async def block(self, user: UserRef, blocked: bool = True) -> None:
        await self._call("POST", f"/users/{_user_id(user)}/block", body={"blocked": blocked})

    # ---- acting --------------------------------------------------------------------------------------------

    async def send_text(
        self,
        user: UserRef,
        text: str,
        chat: ChatRef | None = None,
        *,
        reply_to: ChatMessage | int | None = None,
    ) -> ChatMessage:
        """Type a message (or /command) into the user's private chat with the bot, or into `chat`."""
        body = {
            "user_id": _user_id(user),
            "text": text,
            "chat_id": _chat_id(chat) if chat is not None else None,
            "reply_to_message_id": reply_to.message_id if isinstance(reply_to, ChatMessage) else reply_to,
        }
        return ChatMessage.from_json(await self._call("POST", "/messages", body=body))

    async def reply(self, user: UserRef, message: ChatMessage, text: str) -> ChatMessage:
        """Answer a message (what a ForceReply prompt asks for)."""
        return await self.send_text(user, text, message.chat_id, reply_to=message)

    async def send_document(
        self,
        user: UserRef,
        file_name: str,
        content: bytes,
        chat: ChatRef | None = None,
        *,
        caption: str | None = None,
        mime_type: str = "application/octet-stream",
    ) -> ChatMessage:
        body = {
            "user_id": _user_id(user),
            "chat_id": _chat_id(chat) if chat is not None else None,
            "file_name": file_name,
            "mime_type": mime_type,
            "content_base64": base64.b64encode(content).decode(),
            "caption": caption,
        }
        return ChatMessage.from_json(await self._call("POST", "/documents", body=body))

    async def press(
        self, user: UserRef, message: ChatMessage, button: Button | str, *, wait: float = 0.0
    ) -> CallbackAnswer:
        """Tap a button (or the one with this label or callback data); `wait` for the bot's answer."""
        chosen = button if isinstance(button, Button) else message.button(button)
        body = {
            "user_id": _user_id(user),
            "chat_id": message.chat_id,
            "message_id": message.message_id,
            "data": chosen.data,
            "text": chosen.text,
            "wait": wait,
        }
        result = await self._call("POST", "/callbacks", body=body)
        answer = result.get("answer") or {}
        return CallbackAnswer(
            callback_query_id=str(result["callback_query_id"]),
            data=str(result["data"]),
            answered=bool(result.get("answer") is not None),
            text=answer.get("text"),
            show_alert=bool(answer.get("show_alert")),
            url=answer.get("url"),
        )

    async def vote(self, user: UserRef, poll_message: ChatMessage, option_indexes: Sequence[int]) -> PollView:
        """Choose options by 0-based index (as the Bot API numbers them); an empty list retracts the vote."""
        if poll_message.poll is None:
            raise ValueError(f"message {poll_message.message_id} has no poll")
        body = {
            "user_id": _user_id(user),
            "poll_id": poll_message.poll.id,
            "option_ids": list(option_indexes),
        }
        return PollView.from_json(await self._call("POST", "/votes", body=body))

    # ---- watching ------------------------------------------------------------------------------------------

    async def events(
        self, chat: ChatRef | None = None, *, after: int = 0, timeout: float = 0.0
    ) -> list[ChatEvent]:
        """Raw journal access: events after `after`, waiting up to `timeout` for the first."""
        query = {"after": after, "chat_id": _chat_id(chat) if chat is not None else None, "timeout": timeout}
        result = await self._call("GET", "/events", query=query)
        return [ChatEvent.from_json(event) for event in result["events"]]

    async def wait_for(
        self,
        chat: ChatRef,
        predicate: Callable[[ChatEvent], bool] | None = None,
        *,
        kind: str | tuple[str, ...] = "message",
        timeout: float | None = None,
    ) -> ChatEvent:
        """The next event of `kind` in `chat` satisfying `predicate`; events passed over are consumed."""
        chat_id = _chat_id(chat)
        kinds = (kind,) if isinstance(kind, str) else kind
        limit = self.timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        skipped: list[ChatEvent] = []
        while True:
            cursor = self._cursors.get(chat_id, 0)
            remaining = deadline - loop.time()
            batch = await self.events(chat_id, after=cursor, timeout=max(remaining, 0.0))
            for event in batch:
                self._cursors[chat_id] = event.seq
                if event.kind in kinds and (predicate is None or predicate(event)):
                    return event
                skipped.append(event)
            if not batch and loop.time() >= deadline:
                seen = "; ".join(event.summary() for event in skipped[-5:]) or "nothing"
                raise TimeoutError(
                    f"no {'/'.join(kinds)} in chat {chat_id} within {limit:g}s (passed over: {seen})"
                )

    async def next_message(self, chat: ChatRef, timeout: float | None = None) -> ChatMessage:
        """The bot's next new message in `chat`."""
        event = await self.wait_for(
            chat, lambda e: e.message is not None and e.message.from_bot, timeout=timeout
        )
        assert event.message is not None
        return event.message

    async def wait_for_message(
        self, chat: ChatRef, predicate: Callable[[ChatMessage], bool], timeout: float | None = None
    ) -> ChatMessage:
        """The bot's next new message in `chat` for which `predicate` holds."""
        event = await self.wait_for(
            chat,
            lambda e: e.message is not None and e.message.from_bot and predicate(e.message),
            timeout=timeout,
        )
        assert event.message is not None
        return event.message

    async def wait_for_text(self, chat: ChatRef, fragment: str, timeout: float | None = None) -> ChatMessage:
        return await self.wait_for_message(chat, lambda message: fragment in message.body, timeout)

    async def wait_for_poll(self, chat: ChatRef, timeout: float | None = None) -> ChatMessage:
        return await self.wait_for_message(chat, lambda message: message.poll is not None, timeout)

    async def wait_for_edit(self, message: ChatMessage, timeout: float | None = None) -> ChatMessage:
        """The next edited version of `message`."""
        event = await self.wait_for(
            message.chat_id, lambda e: e.message_id == message.message_id, kind="edited", timeout=timeout
        )
        assert event.message is not None
        return event.message

    async def wait_for_poll_closed(self, poll_message: ChatMessage, timeout: float | None = None) -> PollView:
        event = await self.wait_for(
            poll_message.chat_id,
            lambda e: e.message_id == poll_message.message_id and e.poll is not None and e.poll.is_closed,
            kind="poll",
            timeout=timeout,
        )
        assert event.poll is not None
        return event.poll

    async def settle(self, chat: ChatRef | None = None, *, quiet: float = 1.0, timeout: float = 30.0) -> int:
        """Wait until `quiet` seconds pass with no event (in `chat`, or anywhere); returns how many passed.

        Does not move the cursors: it only tells that the bot has stopped talking for now.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        after = int((await self.bot_info())["last_seq"])
        seen = 0
        while loop.time() < deadline:
            batch = await self.events(chat, after=after, timeout=min(quiet, max(deadline - loop.time(), 0.0)))
            if not batch:
                return seen
            seen += len(batch)
            after = batch[-1].seq
        return seen

    async def transcript(self, chat: ChatRef) -> list[ChatMessage]:
        """Every message in the chat, both sides, in order (deleted ones flagged)."""
        return await self.messages_since(chat, 0)

    async def messages_since(self, chat: ChatRef, message_id: int) -> list[ChatMessage]:
        result = await self._call("GET", f"/chats/{_chat_id(chat)}/messages", query={"after_id": message_id})
        return [ChatMessage.from_json(message) for message in result]

    async def bot_send_times(self, chat: ChatRef) -> list[float]:
        """Monotonic timestamps of the bot's sends in `chat`, to check pacing."""
        return [float(moment) for moment in await self._call("GET", f"/chats/{_chat_id(chat)}/sends")]

    async def download(self, file_id: str) -> bytes:
        async with self._http().get(f"{self._api}/files/{file_id}") as response:
            if response.status != 200:
                payload = await response.json(content_type=None)
                raise EmulatorError(response.status, str(payload.get("description")))
            return await response.read()
