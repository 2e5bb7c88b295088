"""The user-side HTTP API (/_emu/…): people and chats, typing, tapping, voting, and watching the bot.

Requests and answers are JSON in the Bot API's envelope (`{"ok": true, "result": …}`); mistakes are 400/404
with a description naming the field or object at fault.
"""

from __future__ import annotations

import base64
import binascii
import json

from aiohttp import web

from emulator.api import BotApi
from emulator.errors import bad_request
from emulator.objects import ADMINISTRATOR, JsonDict, User
from emulator.params import Params
from emulator.state import World

PREFIX = "/_emu"
MAX_EVENT_WAIT = 60.0


def ok(result: object) -> web.Response:
    """The Bot API's success envelope, used by both APIs; Chinese text stays readable on the wire."""
    return web.json_response(
        {"ok": True, "result": result}, dumps=lambda data: json.dumps(data, ensure_ascii=False)
    )


async def _body(request: web.Request) -> Params:
    if not request.can_read_body:
        return Params({})
    try:
        body = await request.json()
    except ValueError:
        raise bad_request("the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise bad_request("the request body must be a JSON object")
    return Params(body)


def _int_list(p: Params, name: str) -> list[int]:
    value = p.structured(name)
    if value is None:
        return []
    if not isinstance(value, list) or not all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    ):
        raise bad_request(f'field "{name}" must be an Array of Integer')
    return value


def _user_json(user: User) -> JsonDict:
    return {**user.to_api(), "blocked_bot": user.blocked_bot}


class UserApi:
    def __init__(self, world: World, bot_api: BotApi) -> None:
        self.world = world
        self.bot_api = bot_api

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get(f"{PREFIX}/bot", self.bot_info),
            web.post(f"{PREFIX}/reset", self.reset),
            web.get(f"{PREFIX}/users", self.list_users),
            web.post(f"{PREFIX}/users", self.create_user),
            web.post(PREFIX + "/users/{user_id}/block", self.block),
            web.get(f"{PREFIX}/chats", self.list_chats),
            web.post(f"{PREFIX}/chats", self.create_chat),
            web.get(PREFIX + "/chats/{chat_id}", self.chat_info),
            web.post(PREFIX + "/chats/{chat_id}/members", self.set_member),
            web.get(PREFIX + "/chats/{chat_id}/messages", self.transcript),
            web.get(PREFIX + "/chats/{chat_id}/sends", self.send_times),
            web.post(f"{PREFIX}/messages", self.send_message),
            web.post(f"{PREFIX}/documents", self.send_document),
            web.post(f"{PREFIX}/callbacks", self.press),
            web.post(f"{PREFIX}/votes", self.vote),
            web.get(f"{PREFIX}/events", self.events),
            web.get(PREFIX + "/files/{file_id}", self.download),
        ]

    @staticmethod
    def _path_int(request: web.Request, name: str) -> int:
        try:
            return int(request.match_info[name])
        except ValueError:
            raise bad_request(f"{name} in the path must be an integer") from None

    async def bot_info(self, request: web.Request) -> web.Response:
        return ok(
            {
                "bot": self.world.me(),
                "webhook": self.bot_api.webhook.info(),
                "commands": self.world.commands,
                "calls": dict(self.bot_api.calls),
                "last_seq": self.world.journal.last_seq,
            }
        )

    async def reset(self, request: web.Request) -> web.Response:
        self.world.reset()
        return ok(True)

    async def list_users(self, request: web.Request) -> web.Response:
        return ok([_user_json(user) for user in self.world.users.values()])

    async def create_user(self, request: web.Request) -> web.Response:
        p = await _body(request)
        user = self.world.create_user(
            p.text("first_name", required=True) or "",
            username=p.text("username"),
            last_name=p.text("last_name"),
            language_code=p.text("language_code"),
            user_id=p.integer("id"),
        )
        return ok(_user_json(user))

    async def block(self, request: web.Request) -> web.Response:
        p = await _body(request)
        self.world.set_blocked(self._path_int(request, "user_id"), p.flag("blocked", default=True))
        return ok(True)

    async def list_chats(self, request: web.Request) -> web.Response:
        return ok([self.world.chat_summary(chat) for chat in self.world.chats.values()])

    async def create_chat(self, request: web.Request) -> web.Response:
        p = await _body(request)
        chat = self.world.create_chat(
            p.text("type", required=True) or "",
            p.text("title", required=True) or "",
            username=p.text("username"),
            members=_int_list(p, "members"),
            admins=_int_list(p, "admins"),
            bot_status=p.text("bot") or ADMINISTRATOR,
        )
        return ok(self.world.chat_summary(chat))

    async def chat_info(self, request: web.Request) -> web.Response:
        chat = self.world.known_chat(self._path_int(request, "chat_id"))
        return ok(self.world.chat_summary(chat))

    async def set_member(self, request: web.Request) -> web.Response:
        p = await _body(request)
        chat = self.world.known_chat(self._path_int(request, "chat_id"))
        self.world.set_member(
            chat,
            p.integer("user_id", required=True) or 0,
            p.text("status", required=True) or "",
            actor_id=p.integer("by"),
        )
        return ok(self.world.chat_summary(chat))

    async def transcript(self, request: web.Request) -> web.Response:
        chat = self.world.known_chat(self._path_int(request, "chat_id"))
        after_id = Params(request.query).integer("after_id") or 0
        return ok(
            [message.to_view() for message_id, message in chat.messages.items() if message_id > after_id]
        )

    async def send_times(self, request: web.Request) -> web.Response:
        chat = self.world.known_chat(self._path_int(request, "chat_id"))
        return ok(chat.bot_send_times)

    async def send_message(self, request: web.Request) -> web.Response:
        p = await _body(request)
        message = self.world.user_message(
            p.integer("user_id", required=True) or 0,
            p.text("text", required=True),
            chat_id=p.integer("chat_id"),
            reply_to_message_id=p.integer("reply_to_message_id"),
        )
        return ok(message.to_view())

    async def send_document(self, request: web.Request) -> web.Response:
        p = await _body(request)
        try:
            content = base64.b64decode(p.text("content_base64", required=True) or "", validate=True)
        except binascii.Error:
            raise bad_request('field "content_base64" is not valid base64') from None
        stored = self.world.store_file(
            p.text("file_name", required=True) or "",
            content,
            p.text("mime_type") or "application/octet-stream",
        )
        message = self.world.user_message(
            p.integer("user_id", required=True) or 0,
            p.text("caption"),
            chat_id=p.integer("chat_id"),
            reply_to_message_id=p.integer("reply_to_message_id"),
            document=stored,
        )
        return ok(message.to_view())

    async def press(self, request: web.Request) -> web.Response:
        p = await _body(request)
        if not (p.has("data") or p.has("text")):
            raise bad_request('give the button\'s "data" or its "text"')
        query = self.world.press(
            p.integer("user_id", required=True) or 0,
            p.integer("chat_id"),
            p.integer("message_id", required=True) or 0,
            data=p.text("data"),
            text=p.text("text"),
        )
        wait = min(p.number("wait") or 0.0, MAX_EVENT_WAIT)
        answer = await query.answered.wait_until(lambda: query.answer, wait)
        return ok({"callback_query_id": query.id, "data": query.data, "answer": answer})

    async def vote(self, request: web.Request) -> web.Response:
        p = await _body(request)
        poll = self.world.poll_of(p.text("poll_id"), p.integer("chat_id"), p.integer("message_id"))
        if p.structured("option_ids") is None:
            raise bad_request('parameter "option_ids" is required (an empty array retracts the vote)')
        self.world.vote(p.integer("user_id", required=True) or 0, poll, _int_list(p, "option_ids"))
        return ok(poll.to_api())

    async def events(self, request: web.Request) -> web.Response:
        p = Params(request.query)
        after = p.integer("after") or 0
        timeout = min(p.number("timeout") or 0.0, MAX_EVENT_WAIT)
        events = await self.world.journal.wait(after, p.integer("chat_id"), timeout)
        return ok({"events": events, "last_seq": self.world.journal.last_seq})

    async def download(self, request: web.Request) -> web.Response:
        stored = self.world.stored_file(request.match_info["file_id"])
        return web.Response(body=stored.content, content_type=stored.mime_type)
