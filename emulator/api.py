"""The Bot API methods the emulator answers, each checking its parameters the way Telegram does."""

from __future__ import annotations

import itertools
import re
import struct
import time
from collections import Counter
from collections.abc import Awaitable, Callable

from emulator.errors import ApiError, bad_request
from emulator.formatting import parse_text
from emulator.objects import CHANNEL, JsonDict, Poll, StoredFile
from emulator.params import Params, Upload
from emulator.state import MAX_CAPTION, MAX_TEXT, World, check_markup
from emulator.webhook import WebhookDelivery

MAX_QUESTION = 300
MAX_OPTION = 100
MAX_OPTIONS = 12
MAX_EXPLANATION = 200
MAX_EXPLANATION_LINE_FEEDS = 2
MAX_OPEN_PERIOD = 2_628_000
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)


def _formatted(
    p: Params, name: str, *, limit: int, empty: str | None, too_long: str, mode: str, entities: str
) -> tuple[str | None, list[JsonDict]]:
    """A text parameter after parse_mode (or explicit entities); `empty` is the refusal if it is required."""
    raw = p.text(name)
    if raw is None or not raw.strip():
        if empty is not None:
            raise bad_request(empty)
        return None, []
    if p.has(entities):
        given = p.structured(entities)
        text, parsed = raw, list(given) if isinstance(given, list) else []
    else:
        text, parsed = parse_text(raw, p.text(mode))
    if not text.strip() and empty is not None:
        raise bad_request(empty)
    if len(text) > limit:
        raise bad_request(too_long)
    return text, parsed


def _message_text(p: Params) -> tuple[str | None, list[JsonDict]]:
    return _formatted(
        p,
        "text",
        limit=MAX_TEXT,
        empty="message text is empty",
        too_long="message is too long",
        mode="parse_mode",
        entities="entities",
    )


def _markup(p: Params) -> JsonDict | None:
    return check_markup(p.structured("reply_markup"))


def _caption(p: Params) -> tuple[str | None, list[JsonDict]]:
    return _formatted(
        p,
        "caption",
        limit=MAX_CAPTION,
        empty=None,
        too_long="message caption is too long",
        mode="parse_mode",
        entities="caption_entities",
    )


def _reply(p: Params) -> object:
    """reply_parameters, or the older reply_to_message_id that raw HTTP clients still send."""
    if p.has("reply_parameters"):
        return p.structured("reply_parameters")
    message_id = p.integer("reply_to_message_id")
    if message_id is None:
        return None
    return {"message_id": message_id, "allow_sending_without_reply": p.flag("allow_sending_without_reply")}


def _message_id(p: Params) -> int:
    if p.has("inline_message_id"):
        raise bad_request("inline messages are not supported by the emulator")
    return p.integer("message_id", required=True) or 0


def _image_size(content: bytes) -> tuple[int, int]:
    """Width and height of a PNG, GIF or JPEG upload, so PhotoSize reports real dimensions."""
    if content.startswith(b"\x89PNG\r\n\x1a\n") and len(content) >= 24:
        width, height = struct.unpack(">II", content[16:24])
        return int(width), int(height)
    if content[:6] in (b"GIF87a", b"GIF89a") and len(content) >= 10:
        width, height = struct.unpack("<HH", content[6:10])
        return int(width), int(height)
    index = 2
    while content.startswith(b"\xff\xd8") and index + 9 < len(content):
        marker, size = content[index + 1], int.from_bytes(content[index + 2 : index + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", content[index + 5 : index + 9])
            return int(width), int(height)
        index += 2 + size
    return 0, 0


class BotApi:
    def __init__(self, world: World, webhook: WebhookDelivery) -> None:
        self.world = world
        self.webhook = webhook
        self.calls: Counter[str] = Counter()
        table: dict[str, Callable[[Params], Awaitable[object]]] = {
            "getMe": self.get_me,
            "getUpdates": self.get_updates,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "sendMessage": self.send_message,
            "editMessageText": self.edit_message_text,
            "editMessageCaption": self.edit_message_caption,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message,
            "deleteMessages": self.delete_messages,
            "answerCallbackQuery": self.answer_callback_query,
            "sendPoll": self.send_poll,
            "stopPoll": self.stop_poll,
            "sendDocument": self.send_document,
            "sendPhoto": self.send_photo,
            "getFile": self.get_file,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "getChatAdministrators": self.get_chat_administrators,
            "getChatMemberCount": self.get_chat_member_count,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "sendChatAction": self.send_chat_action,
        }
        # Telegram matches method names case-insensitively.
        self._methods = {name.lower(): (name, handler) for name, handler in table.items()}

    async def call(self, method: str, p: Params) -> object:
        found = self._methods.get(method.lower())
        if found is None:
            raise ApiError(404, "Not Found")
        name, handler = found
        self.calls[name] += 1
        return await handler(p)

    # ---- bot and updates ----------------------------------------------------------------------------------

    async def get_me(self, p: Params) -> object:
        return self.world.me()

    async def get_updates(self, p: Params) -> object:
        if self.webhook.active:
            raise ApiError(409, WEBHOOK_CONFLICT)
        self.world.updates.set_allowed(self._allowed_updates(p))
        return await self.world.updates.get(
            p.integer("offset") or 0, p.integer("limit") or 100, p.number("timeout") or 0.0
        )

    @staticmethod
    def _allowed_updates(p: Params) -> list[str] | None:
        allowed = p.structured("allowed_updates")
        if allowed is not None and not (
            isinstance(allowed, list) and all(isinstance(k, str) for k in allowed)
        ):
            raise bad_request('field "allowed_updates" must be an Array of String')
        return allowed

    async def set_webhook(self, p: Params) -> object:
        url = p.text("url") or ""
        if not url:
            return await self.delete_webhook(p)
        await self.webhook.configure(url, p.text("secret_token"), p.integer("max_connections"))
        self.world.updates.set_allowed(self._allowed_updates(p))
        if p.flag("drop_pending_updates"):
            self.world.updates.drop_pending()
        return True

    async def delete_webhook(self, p: Params) -> object:
        await self.webhook.clear()
        if p.flag("drop_pending_updates"):
            self.world.updates.drop_pending()
        return True

    async def get_webhook_info(self, p: Params) -> object:
        return self.webhook.info()

    # ---- messages -----------------------------------------------------------------------------------------

    async def send_message(self, p: Params) -> object:
        chat = self.world.writable_chat(p.chat_id())
        text, entities = _message_text(p)
        message = self.world.post(
            chat,
            text=text,
            entities=entities,
            reply_markup=_markup(p),
            reply=_reply(p),
        )
        return message.to_api()

    async def edit_message_text(self, p: Params) -> object:
        message_id = _message_id(p)
        text, entities = _message_text(p)
        changes: JsonDict = {
            "text": text,
            "entities": entities,
            "reply_markup": _markup(p),
        }
        return self.world.edit(p.chat_id(), message_id, changes).to_api()

    async def edit_message_caption(self, p: Params) -> object:
        message_id = _message_id(p)
        caption, entities = _caption(p)
        changes: JsonDict = {
            "caption": caption,
            "caption_entities": entities,
            "reply_markup": _markup(p),
        }
        return self.world.edit(p.chat_id(), message_id, changes).to_api()

    async def edit_message_reply_markup(self, p: Params) -> object:
        message_id = _message_id(p)
        changes: JsonDict = {"reply_markup": _markup(p)}
        return self.world.edit(p.chat_id(), message_id, changes).to_api()

    async def delete_message(self, p: Params) -> object:
        self.world.delete(p.chat_id(), _message_id(p))
        return True

    async def delete_messages(self, p: Params) -> object:
        """Telegram deletes what it can and skips the rest silently."""
        chat_ref = p.chat_id()
        message_ids = p.structured("message_ids", required=True)
        if (
            not isinstance(message_ids, list)
            or not 1 <= len(message_ids) <= 100
            or not all(isinstance(message_id, int) for message_id in message_ids)
        ):
            raise bad_request('field "message_ids" must be an Array of 1-100 Integer')
        for message_id in message_ids:
            try:
                self.world.delete(chat_ref, message_id)
            except ApiError:
                continue
        return True

    async def answer_callback_query(self, p: Params) -> object:
        query_id = p.text("callback_query_id", required=True) or ""
        self.world.answer_callback(query_id, p.text("text"), p.flag("show_alert"), p.text("url"))
        return True

    async def send_chat_action(self, p: Params) -> object:
        chat = self.world.writable_chat(p.chat_id())
        action = p.text("action", required=True)
        if action not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self.world.chat_action(chat, action)
        return True

    # ---- polls --------------------------------------------------------------------------------------------

    @staticmethod
    def _options(p: Params) -> list[str]:
        raw = p.structured("options")
        if not isinstance(raw, list) or not raw:
            raise bad_request("poll must have at least one answer option")
        if len(raw) > MAX_OPTIONS:
            raise bad_request(f"poll can't have more than {MAX_OPTIONS} options")
        options = []
        for option in raw:
            text = str(option.get("text", "") if isinstance(option, dict) else option).strip()
            if not text:
                raise bad_request("poll options must be non-empty")
            if len(text) > MAX_OPTION:
                raise bad_request(f"poll options length must not exceed {MAX_OPTION}")
            options.append(text)
        return options

    @staticmethod
    def _correct_option_ids(p: Params, option_count: int) -> list[int]:
        """Bot API 9.6's correct_option_ids, or the single correct_option_id older callers send."""
        raw = p.structured("correct_option_ids")
        if raw is None and p.has("correct_option_id"):
            raw = [p.integer("correct_option_id")]
        valid = (
            isinstance(raw, list)
            and raw
            and all(isinstance(index, int) and 0 <= index < option_count for index in raw)
            and all(earlier < later for earlier, later in itertools.pairwise(raw))
        )
        if not valid:
            raise bad_request("wrong correct option ID specified")
        return list(raw)

    def _closing(self, p: Params) -> tuple[float | None, int | None]:
        open_period, close_date = p.number("open_period"), p.integer("close_date")
        if open_period is not None and close_date is not None:
            raise bad_request("open_period and close_date can't be used together")
        seconds = open_period if close_date is None else close_date - time.time()
        lowest = self.world.options.min_open_period
        if seconds is not None and not lowest <= seconds <= MAX_OPEN_PERIOD:
            raise bad_request(f"poll must stay open between {lowest:g} and {MAX_OPEN_PERIOD} seconds")
        return open_period, close_date

    async def send_poll(self, p: Params) -> object:
        chat = self.world.writable_chat(p.chat_id())
        question, question_entities = _formatted(
            p,
            "question",
            limit=MAX_QUESTION,
            empty="poll question must be non-empty",
            too_long=f"poll question length must not exceed {MAX_QUESTION}",
            mode="question_parse_mode",
            entities="question_entities",
        )
        options = self._options(p)
        poll_type = p.text("type") or "regular"
        if poll_type not in ("regular", "quiz"):
            raise bad_request("wrong poll type specified")
        is_anonymous = p.flag("is_anonymous", default=True)
        if chat.type == CHANNEL and not is_anonymous:
            raise bad_request("non-anonymous polls can't be sent to channel chats")
        explanation, explanation_entities = _formatted(
            p,
            "explanation",
            limit=MAX_EXPLANATION,
            empty=None,
            too_long=f"explanation length must not exceed {MAX_EXPLANATION}",
            mode="explanation_parse_mode",
            entities="explanation_entities",
        )
        if explanation and explanation.count("\n") > MAX_EXPLANATION_LINE_FEEDS:
            raise bad_request(f"explanation can't contain more than {MAX_EXPLANATION_LINE_FEEDS} line feeds")
        open_period, close_date = self._closing(p)
        is_quiz = poll_type == "quiz"
        poll = Poll(
            id=self.world.new_poll_id(),
            question=question or "",
            question_entities=question_entities,
            options=options,
            type=poll_type,
            is_anonymous=is_anonymous,
            allows_multiple_answers=p.flag("allows_multiple_answers"),
            allows_revoting=p.flag("allows_revoting", default=not is_quiz),
            members_only=p.flag("members_only"),
            correct_option_ids=self._correct_option_ids(p, len(options)) if is_quiz else [],
            explanation=explanation if is_quiz else None,
            explanation_entities=explanation_entities if is_quiz else [],
            open_period=open_period,
            close_date=close_date,
            is_closed=p.flag("is_closed"),
        )
        message = self.world.post(chat, poll=poll, reply_markup=_markup(p), reply=_reply(p))
        return message.to_api()

    async def stop_poll(self, p: Params) -> object:
        markup = _markup(p)
        return self.world.stop_poll(p.chat_id(), _message_id(p), markup).to_api()

    # ---- files --------------------------------------------------------------------------------------------

    def _file(self, p: Params, name: str) -> StoredFile:
        given = p.upload(name)
        if given is None:
            raise bad_request(f'parameter "{name}" is required')
        if isinstance(given, Upload):
            return self.world.store_file(given.filename, given.content, given.content_type)
        if given.startswith(("http://", "https://")):
            raise bad_request("failed to get HTTP URL content: the emulator never fetches URLs")
        return self.world.stored_file(given)

    def _post_file(self, p: Params, field: str) -> object:
        """sendDocument and sendPhoto: the upload (or a known file id) with its caption."""
        chat = self.world.writable_chat(p.chat_id())
        stored = self._file(p, field)
        caption, entities = _caption(p)
        content: JsonDict = (
            {"photo": [stored.photo_size(*_image_size(stored.content))]}
            if field == "photo"
            else {"document": stored.document()}
        )
        message = self.world.post(
            chat,
            caption=caption,
            caption_entities=entities,
            reply_markup=_markup(p),
            reply=_reply(p),
            **content,
        )
        return message.to_api()

    async def send_document(self, p: Params) -> object:
        return self._post_file(p, "document")

    async def send_photo(self, p: Params) -> object:
        return self._post_file(p, "photo")

    async def get_file(self, p: Params) -> object:
        return self.world.stored_file(p.text("file_id", required=True) or "").file_info()

    # ---- chats and commands -------------------------------------------------------------------------------

    async def get_chat(self, p: Params) -> object:
        return self.world.chat(p.chat_id()).full_info()

    async def get_chat_member(self, p: Params) -> object:
        return self.world.member(p.chat_id(), p.integer("user_id", required=True) or 0)

    async def get_chat_administrators(self, p: Params) -> object:
        return self.world.administrators(p.chat_id())

    async def get_chat_member_count(self, p: Params) -> object:
        chat = self.world.chat(p.chat_id())
        return sum(1 for user_id in chat.members if chat.is_present(user_id))

    def _commands_key(self, p: Params) -> str:
        return self.world.commands_key(p.structured("scope"), p.text("language_code"))

    async def set_my_commands(self, p: Params) -> object:
        commands = p.structured("commands", required=True)
        if not isinstance(commands, list):
            raise bad_request('field "commands" must be an Array')
        if len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            if not isinstance(command, dict) or not _COMMAND_NAME.match(str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise bad_request("command description must be 1-256 characters")
        self.world.commands[self._commands_key(p)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def get_my_commands(self, p: Params) -> object:
        return self.world.commands.get(self._commands_key(p), [])

    async def delete_my_commands(self, p: Params) -> object:
        self.world.commands.pop(self._commands_key(p), None)
        return True
