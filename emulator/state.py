"""The emulated Telegram world and its rules.

Every rule that decides whether a call succeeds lives here (who may post where, what can be edited, when a
poll takes votes), so the Bot API and the user-side API stay thin and apply the same rules.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from emulator.errors import ApiError, bad_request, forbidden, not_found
from emulator.formatting import command_entities
from emulator.journal import Journal
from emulator.objects import (
    ADMINISTRATOR,
    CHANNEL,
    CREATOR,
    GROUP,
    KICKED,
    LEFT,
    MEMBER,
    MEMBER_STATUSES,
    PRESENT,
    PRIVATE,
    SUPERGROUP,
    Chat,
    JsonDict,
    Message,
    Poll,
    StoredFile,
    User,
    member_json,
)
from emulator.updates import UpdateQueue
from emulator.wakeup import Wakeup

DEFAULT_TOKEN = "000000:EMULATOR"
MAX_TEXT = 4096
MAX_CAPTION = 1024
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the same as a "
    "current content and reply markup of the message"
)
_OTHER_BUTTON_ACTIONS = (
    "url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "web_app",
    "copy_text",
)


@dataclass
class EmulatorOptions:
    """Knobs of the emulator; the defaults behave like Telegram, tests shorten the timings."""

    token: str = DEFAULT_TOKEN
    bot_id: int = 7_000_000_001
    bot_username: str = "examforge_bot"
    bot_name: str = "examforge"
    min_open_period: float = 5.0
    flood_control: bool = False
    group_limit: int = 20
    group_window: float = 60.0
    callback_answer_window: float = 15.0
    webhook_retry_delay: float = 1.0
    webhook_retry_max: float = 30.0
    webhook_timeout: float = 10.0


@dataclass
class CallbackQuery:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float = field(default_factory=time.monotonic)
    answer: JsonDict | None = None
    answered: Wakeup = field(default_factory=Wakeup)


def check_markup(markup: object) -> JsonDict | None:
    """Refuse keyboards Telegram refuses, so the bot's mistakes surface offline too."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    keyboard = markup.get("inline_keyboard")
    if keyboard is None:
        if not any(key in markup for key in ("force_reply", "keyboard", "remove_keyboard")):
            raise bad_request("can't parse reply keyboard markup JSON object")
        return markup
    if not isinstance(keyboard, list) or not all(isinstance(row, list) for row in keyboard):
        raise bad_request('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays')
    for row in keyboard:
        for button in row:
            if not isinstance(button, dict) or not str(button.get("text", "")).strip():
                raise bad_request("text buttons are unallowed in the inline keyboard")
            data = button.get("callback_data")
            if data is None and not any(key in button for key in _OTHER_BUTTON_ACTIONS):
                raise bad_request("text buttons are unallowed in the inline keyboard")
            if data is not None and not 1 <= len(str(data).encode()) <= 64:
                raise bad_request("BUTTON_DATA_INVALID")
    return markup


def _member_change(chat: Chat, actor: User, member: User, old: str, new: str) -> JsonDict:
    """A ChatMemberUpdated: `actor` changed `member` from `old` to `new` status."""
    return {
        "chat": chat.to_api(),
        "from": actor.to_api(),
        "date": int(time.time()),
        "old_chat_member": member_json(chat, member, old),
        "new_chat_member": member_json(chat, member, new),
    }


def _buttons(message: Message) -> list[JsonDict]:
    keyboard = message.inline_keyboard
    rows = keyboard["inline_keyboard"] if keyboard else []
    return [button for row in rows for button in row]


class World:
    def __init__(self, options: EmulatorOptions | None = None) -> None:
        self.options = options or EmulatorOptions()
        self.bot = User(
            id=self.options.bot_id,
            first_name=self.options.bot_name,
            username=self.options.bot_username,
            is_bot=True,
        )
        self.updates = UpdateQueue()
        self.journal = Journal()
        self._serial = itertools.count(1)
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self.commands: dict[str, list[JsonDict]] = {}
        self._clear()

    def _clear(self) -> None:
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.polls: dict[str, Poll] = {}
        self.callbacks: dict[str, CallbackQuery] = {}
        self.files: dict[str, StoredFile] = {}
        self._next_user_id = 100_001
        self._next_chat_serial = 1

    def reset(self) -> None:
        """Forget every user, chat and pending update; the bot, its commands and its webhook stay."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self.updates.drop_pending()
        self.journal.clear()
        self._clear()

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self.updates.close()
        self.journal.close()

    def _serial_id(self, base: int) -> str:
        return str(base + next(self._serial))

    # ---- lookups -------------------------------------------------------------------------------------------

    def me(self) -> JsonDict:
        return {
            **self.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def person(self, user_id: int) -> User:
        """A user the Bot API may ask about: a person or the bot itself."""
        user = self.bot if user_id == self.bot.id else self.users.get(user_id)
        if user is None:
            raise bad_request("user not found")
        return user

    def human(self, user_id: int) -> User:
        user = self.users.get(user_id)
        if user is None:
            raise not_found(f"user {user_id} does not exist; create it first")
        return user

    def chat(self, chat_ref: int | str) -> Chat:
        if isinstance(chat_ref, str):
            wanted = chat_ref.removeprefix("@").lower()
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == wanted:
                    return chat
            raise bad_request("chat not found")
        chat = self.chats.get(chat_ref)
        if chat is None:
            raise bad_request("chat not found")
        return chat

    def known_chat(self, chat_id: int) -> Chat:
        """The user-side lookup: a missing chat is the caller's mistake, reported as 404."""
        chat = self.chats.get(chat_id)
        if chat is None:
            raise not_found(f"chat {chat_id} does not exist")
        return chat

    def writable_chat(self, chat_ref: int | str) -> Chat:
        """The chat the bot wants to post in, or Telegram's refusal."""
        if isinstance(chat_ref, int) and chat_ref in self.users and chat_ref not in self.chats:
            raise forbidden("bot can't initiate conversation with a user")
        chat = self.chat(chat_ref)
        status = chat.status_of(self.bot.id)
        if chat.type == PRIVATE:
            if self.users[chat.id].blocked_bot:
                raise forbidden("bot was blocked by the user")
        elif chat.type == CHANNEL:
            if status not in PRESENT:
                raise forbidden("bot is not a member of the channel chat")
            if status not in (CREATOR, ADMINISTRATOR):
                raise bad_request("need administrator rights in the channel chat")
        elif status == KICKED:
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        elif status not in PRESENT:
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    # ---- the bot acting ------------------------------------------------------------------------------------

    def _append(self, chat: Chat, **fields: object) -> Message:
        chat.last_message_id += 1
        message = Message(message_id=chat.last_message_id, chat=chat, date=int(time.time()), **fields)
        chat.messages[message.message_id] = message
        return message

    def _check_flood(self, chat: Chat) -> None:
        options = self.options
        if not (options.flood_control and chat.is_group):
            return
        now = time.monotonic()
        recent = [sent for sent in chat.bot_send_times if now - sent < options.group_window]
        if len(recent) >= options.group_limit:
            retry_after = max(1, math.ceil(recent[-options.group_limit] + options.group_window - now))
            raise ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after)

    def _reply_target(self, chat: Chat, reply: object) -> Message | None:
        if reply is None:
            return None
        if not isinstance(reply, dict) or not isinstance(reply.get("message_id"), int):
            raise bad_request('field "message_id" of reply_parameters must be an Integer')
        target = chat.messages.get(reply["message_id"])
        if target is None or target.deleted:
            if reply.get("allow_sending_without_reply"):
                return None
            raise bad_request("message to be replied not found")
        return target

    def post(self, chat: Chat, *, reply_markup: JsonDict | None, reply: object, **content: object) -> Message:
        """A message from the bot into a chat that passed writable_chat."""
        self._check_flood(chat)
        message = self._append(
            chat,
            sender=None if chat.type == CHANNEL else self.bot,
            by_bot=True,
            reply_markup=reply_markup,
            reply_to=self._reply_target(chat, reply),
            **content,
        )
        chat.bot_send_times.append(time.monotonic())
        if message.poll is not None:
            self._register_poll(message.poll, message)
        self.journal.append("message", chat.id, message=message.to_view())
        return message

    def _own_message(self, chat_ref: int | str, message_id: int, missing: str) -> Message:
        message = self.chat(chat_ref).messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request(missing)
        if not message.by_bot:
            raise bad_request("message can't be edited")
        return message

    def edit(self, chat_ref: int | str, message_id: int, changes: JsonDict) -> Message:
        """editMessageText/Caption/ReplyMarkup; no reply_markup removes the keyboard, as in Telegram."""
        message = self._own_message(chat_ref, message_id, "message to edit not found")
        if "text" in changes and message.text is None:
            raise bad_request("there is no text in the message to edit")
        if "caption" in changes and message.text is not None:
            raise bad_request("there is no caption in the message to edit")
        markup = changes.get("reply_markup")
        if isinstance(markup, dict) and "inline_keyboard" not in markup:
            raise bad_request("inline keyboard expected")
        if all(getattr(message, key) == value for key, value in changes.items()):
            raise bad_request(NOT_MODIFIED)
        for key, value in changes.items():
            setattr(message, key, value)
        message.edit_date = int(time.time())
        self.journal.append("edited", message.chat.id, message=message.to_view())
        return message

    def delete(self, chat_ref: int | str, message_id: int) -> None:
        chat = self.chat(chat_ref)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to delete not found")
        if not (message.by_bot or chat.type == PRIVATE or chat.is_admin(self.bot.id)):
            raise bad_request("message can't be deleted")
        message.deleted = True
        if message.poll is not None and message.poll.id in self._timers:
            self._timers.pop(message.poll.id).cancel()
        self.journal.append("deleted", chat.id, message_id=message_id)

    def answer_callback(self, query_id: str, text: str | None, show_alert: bool, url: str | None) -> None:
        query = self.callbacks.get(query_id)
        if (
            query is None
            or query.answer is not None
            or time.monotonic() - query.created > self.options.callback_answer_window
        ):
            raise bad_request("query is too old and response timeout expired or query ID is invalid")
        query.answer = {"text": text, "show_alert": show_alert, "url": url}
        query.answered.notify()
        self.journal.append(
            "callback_answer",
            query.chat_id,
            callback_query_id=query.id,
            user_id=query.user_id,
            message_id=query.message_id,
            **query.answer,
        )

    def chat_action(self, chat: Chat, action: str) -> None:
        self.journal.append("chat_action", chat.id, action=action)

    # ---- polls ---------------------------------------------------------------------------------------------

    def new_poll_id(self) -> str:
        return self._serial_id(5_000_000_000_000_000_000)

    def _register_poll(self, poll: Poll, message: Message) -> None:
        poll.chat_id, poll.message_id = message.chat.id, message.message_id
        self.polls[poll.id] = poll
        if poll.is_closed:
            return
        delay = poll.open_period
        if delay is None and poll.close_date is not None:
            delay = poll.close_date - time.time()
        if delay is not None:
            self._timers[poll.id] = asyncio.get_running_loop().call_later(
                max(delay, 0.0), self._close_poll, poll
            )

    def _close_poll(self, poll: Poll) -> None:
        timer = self._timers.pop(poll.id, None)
        if timer is not None:
            timer.cancel()
        if poll.is_closed:
            return
        poll.is_closed = True
        self.updates.push("poll", poll.to_api())
        self.journal.append("poll", poll.chat_id, message_id=poll.message_id, poll=poll.to_api(), voter=None)

    def stop_poll(self, chat_ref: int | str, message_id: int, reply_markup: JsonDict | None) -> Poll:
        message = self._own_message(chat_ref, message_id, "message with poll to stop not found")
        if message.poll is None:
            raise bad_request("message with poll to stop not found")
        if message.poll.is_closed:
            raise bad_request("poll has already been closed")
        if reply_markup is not None:
            message.reply_markup = reply_markup
        self._close_poll(message.poll)
        return message.poll

    # ---- members, commands, files --------------------------------------------------------------------------

    def member(self, chat_ref: int | str, user_id: int) -> JsonDict:
        chat = self.chat(chat_ref)
        return member_json(chat, self.person(user_id), chat.status_of(user_id))

    def administrators(self, chat_ref: int | str) -> list[JsonDict]:
        chat = self.chat(chat_ref)
        if chat.type == PRIVATE:
            raise bad_request("there are no administrators in the private chat")
        return [
            member_json(chat, self.person(user_id), status)
            for user_id, status in chat.members.items()
            if status in (CREATOR, ADMINISTRATOR)
        ]

    @staticmethod
    def commands_key(scope: object, language_code: str | None) -> str:
        scope_type = scope.get("type", "default") if isinstance(scope, dict) else "default"
        target = (
            "" if not isinstance(scope, dict) else f"{scope.get('chat_id', '')}:{scope.get('user_id', '')}"
        )
        return f"{scope_type}:{target}:{language_code or ''}"

    def store_file(self, file_name: str, content: bytes, mime_type: str) -> StoredFile:
        if not content:
            raise bad_request("file must be non-empty")
        file_id = f"EMU{self._serial_id(0)}"
        stored = StoredFile(file_id, f"U{file_id}", file_name, mime_type, content)
        self.files[file_id] = stored
        return stored

    def stored_file(self, file_id: str) -> StoredFile:
        stored = self.files.get(file_id)
        if stored is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return stored

    # ---- people acting (user-side API) ---------------------------------------------------------------------

    def create_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = None,
        user_id: int | None = None,
    ) -> User:
        if not first_name.strip():
            raise bad_request('field "first_name" must be non-empty')
        if user_id is None:
            while self._next_user_id in self.users:
                self._next_user_id += 1
            user_id = self._next_user_id
        elif user_id <= 0 or user_id in self.users or user_id == self.bot.id:
            raise bad_request(f"user id {user_id} is taken or not positive")
        if username and any(
            (user.username or "").lower() == username.lower() for user in self.users.values()
        ):
            raise bad_request(f"username @{username} is taken")
        user = User(user_id, first_name.strip(), username or None, last_name, language_code=language_code)
        self.users[user_id] = user
        return user

    def private_chat(self, user: User) -> Chat:
        """The user's chat with the bot, created on first contact as in Telegram."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = Chat(
                id=user.id,
                type=PRIVATE,
                first_name=user.first_name,
                last_name=user.last_name,
                username=user.username,
                members={user.id: MEMBER, self.bot.id: MEMBER},
            )
            self.chats[user.id] = chat
        return chat

    def create_chat(
        self,
        chat_type: str,
        title: str,
        *,
        username: str | None = None,
        members: Sequence[int] = (),
        admins: Sequence[int] = (),
        bot_status: str = ADMINISTRATOR,
    ) -> Chat:
        if chat_type not in (GROUP, SUPERGROUP, CHANNEL):
            raise bad_request('field "type" must be one of group, supergroup, channel')
        if not title.strip():
            raise bad_request('field "title" must be non-empty')
        if bot_status not in (ADMINISTRATOR, MEMBER, LEFT):
            raise bad_request('field "bot" must be one of administrator, member, left')
        people = list(dict.fromkeys([*admins, *members]))
        if not people:
            raise bad_request("a group or channel needs at least one member besides the bot")
        for user_id in people:
            self.human(user_id)
        if username and any(
            (chat.username or "").lower() == username.lower() for chat in self.chats.values()
        ):
            raise bad_request(f"username @{username} is taken")
        serial = self._next_chat_serial
        self._next_chat_serial += 1
        chat_id = -(400_000_000 + serial) if chat_type == GROUP else -(1_002_000_000_000 + serial)
        creator = admins[0] if admins else people[0]
        statuses = {user_id: ADMINISTRATOR if user_id in admins else MEMBER for user_id in people}
        statuses[creator] = CREATOR
        chat = Chat(
            id=chat_id, type=chat_type, title=title.strip(), username=username or None, members=statuses
        )
        self.chats[chat_id] = chat
        self.set_member(chat, self.bot.id, bot_status, actor_id=creator)
        return chat

    def _creator(self, chat: Chat) -> User:
        for user_id, status in chat.members.items():
            if status == CREATOR:
                return self.person(user_id)
        return next(self.person(user_id) for user_id in chat.members)

    def set_member(self, chat: Chat, user_id: int, status: str, *, actor_id: int | None = None) -> None:
        """Add, promote, demote or remove someone (the bot too); the bot hears about its own changes."""
        if chat.type == PRIVATE:
            raise bad_request("membership of a private chat cannot change")
        if status not in MEMBER_STATUSES or status == CREATOR:
            raise bad_request('field "status" must be one of administrator, member, left, kicked')
        user = self.person(user_id)
        old = chat.status_of(user_id)
        if old == status:
            return
        if old == CREATOR:
            raise bad_request("the creator's status cannot change")
        if status == LEFT:
            chat.members.pop(user_id, None)
        else:
            chat.members[user_id] = status
        actor = self.person(actor_id) if actor_id is not None else self._creator(chat)
        change = _member_change(chat, actor, user, old, status)
        self.updates.push("my_chat_member" if user_id == self.bot.id else "chat_member", change)
        self.journal.append("member", chat.id, user_id=user_id, status=status)

    def set_blocked(self, user_id: int, blocked: bool) -> None:
        user = self.human(user_id)
        if user.blocked_bot == blocked:
            return
        chat = self.private_chat(user)
        user.blocked_bot = blocked
        old, new = (MEMBER, KICKED) if blocked else (KICKED, MEMBER)
        self.updates.push("my_chat_member", _member_change(chat, user, self.bot, old, new))

    def _chat_of(self, user: User, chat_id: int | None) -> Chat:
        """Where a person acts: their private chat with the bot by default, or a group/channel they are in."""
        if chat_id is None or chat_id == user.id:
            return self.private_chat(user)
        chat = self.known_chat(chat_id)
        if chat.type == PRIVATE:
            raise bad_request(f"chat {chat_id} is another user's private chat with the bot")
        if not chat.is_present(user.id):
            raise bad_request(f"user {user.id} is not a member of chat {chat_id}")
        return chat

    def user_message(
        self,
        user_id: int,
        text: str | None,
        *,
        chat_id: int | None = None,
        reply_to_message_id: int | None = None,
        document: StoredFile | None = None,
    ) -> Message:
        user = self.human(user_id)
        chat = self._chat_of(user, chat_id)
        if chat.type == CHANNEL and not chat.is_admin(user.id):
            raise bad_request(f"user {user.id} is not an administrator of channel {chat.id} and cannot post")
        if document is None and not (text or "").strip():
            raise bad_request('field "text" must be non-empty')
        if text is not None and len(text) > (MAX_CAPTION if document else MAX_TEXT):
            raise bad_request("message is too long")
        if chat.type == PRIVATE and user.blocked_bot:
            self.set_blocked(user.id, False)
        reply_to = None
        if reply_to_message_id is not None:
            reply_to = chat.messages.get(reply_to_message_id)
            if reply_to is None or reply_to.deleted:
                raise bad_request(f"message {reply_to_message_id} not found in chat {chat.id}")
        entities = command_entities(text) if text else []
        content: JsonDict = (
            {"document": document.document(), "caption": text, "caption_entities": entities}
            if document is not None
            else {"text": text, "entities": entities}
        )
        message = self._append(
            chat, sender=None if chat.type == CHANNEL else user, by_bot=False, reply_to=reply_to, **content
        )
        if chat.is_present(self.bot.id):
            self.updates.push("channel_post" if chat.type == CHANNEL else "message", message.to_api())
        self.journal.append("message", chat.id, message=message.to_view())
        return message

    def press(
        self, user_id: int, chat_id: int | None, message_id: int, *, data: str | None, text: str | None
    ) -> CallbackQuery:
        """Tap an inline button, found by its callback data or its label."""
        user = self.human(user_id)
        chat = self._chat_of(user, chat_id)
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise not_found(f"message {message_id} not found in chat {chat.id}")
        buttons = _buttons(message)
        # Callback data identifies a button even when two share a label.
        key, wanted = ("callback_data", data) if data is not None else ("text", text)
        chosen = next((button for button in buttons if button.get(key) == wanted), None)
        if chosen is None:
            labels = ", ".join(repr(b.get("text")) for b in buttons) or "none"
            raise bad_request(f"message {message_id} has no button {data or text!r}; its buttons: {labels}")
        if "callback_data" not in chosen:
            raise bad_request(f"button {chosen.get('text')!r} does not send callback data")
        query = CallbackQuery(
            self._serial_id(8_000_000_000_000_000), user.id, chat.id, message_id, str(chosen["callback_data"])
        )
        self.callbacks[query.id] = query
        self.updates.push(
            "callback_query",
            {
                "id": query.id,
                "from": user.to_api(),
                "message": message.to_api(),
                "chat_instance": f"{abs(chat.id) * 7919 % 10**18}",
                "data": query.data,
            },
        )
        return query

    def poll_of(self, poll_id: str | None, chat_id: int | None, message_id: int | None) -> Poll:
        if poll_id is not None:
            poll = self.polls.get(poll_id)
            if poll is None:
                raise not_found(f"poll {poll_id} does not exist")
            return poll
        if chat_id is None or message_id is None:
            raise bad_request('give "poll_id", or "chat_id" and "message_id"')
        message = self.known_chat(chat_id).messages.get(message_id)
        if message is None or message.poll is None:
            raise not_found(f"message {message_id} in chat {chat_id} has no poll")
        return message.poll

    def vote(self, user_id: int, poll: Poll, option_ids: Iterable[int]) -> Poll:
        """Choose options (empty = retract); the bot hears the new counts and, unless anonymous, who chose."""
        user = self.human(user_id)
        chat = self.chats[poll.chat_id]
        if chat.messages[poll.message_id].deleted:
            raise bad_request("the poll's message was deleted")
        if not chat.is_present(user.id):
            raise bad_request(f"user {user.id} is not a member of chat {chat.id}")
        if poll.is_closed:
            raise bad_request("poll is closed")
        requested = list(option_ids)
        chosen = tuple(sorted(set(requested)))
        if len(chosen) != len(requested):
            raise bad_request("an option is chosen twice")
        last = len(poll.options) - 1
        if any(not 0 <= index <= last for index in chosen):
            raise bad_request(f"option ids must be between 0 and {last}")
        if len(chosen) > 1 and not poll.allows_multiple_answers:
            raise bad_request("this poll takes one answer only")
        previous = poll.votes.get(user.id, ())
        if previous and not poll.allows_revoting:
            raise bad_request("this poll does not allow changing or retracting a vote")
        if not chosen and not previous:
            raise bad_request("nothing to retract: the user has not voted")
        if chosen:
            poll.votes[user.id] = chosen
        else:
            del poll.votes[user.id]
        self.updates.push("poll", poll.to_api())
        if not poll.is_anonymous and chat.type != CHANNEL:
            answer: JsonDict = {
                "poll_id": poll.id,
                "user": user.to_api(),
                "option_ids": list(chosen),
                "option_persistent_ids": [poll.persistent_id(index) for index in chosen],
            }
            self.updates.push("poll_answer", answer)
        self.journal.append(
            "poll",
            chat.id,
            message_id=poll.message_id,
            poll=poll.to_api(),
            voter=user.id,
            chosen=list(chosen),
        )
        return poll

    def chat_summary(self, chat: Chat) -> JsonDict:
        return {
            **chat.to_api(),
            "members": [{"user_id": user_id, "status": status} for user_id, status in chat.members.items()],
            "bot_status": chat.status_of(self.bot.id),
            "message_count": chat.last_message_id,
        }
