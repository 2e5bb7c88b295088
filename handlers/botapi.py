"""Sends and edits on the hot path whose reply the bot reads no further than an id, made without PTB's
objects on either side.

Why: profiled over the load bench, PTB building a `Message` from the reply to every send and edit (each
button of its keyboard an object, each attribute set through a frozen-object check) and turning keyboards
into dicts was about a fifth of the bot's CPU, for replies read only for their message id or not at all.
The call still goes through the bot's own `_post`, so defaults, the rate limiter, timeouts and Telegram's
errors (BadRequest, Forbidden, RetryAfter …) are exactly those of PTB's methods."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup
from telegram.error import BadRequest

# Inline buttons as the Bot API takes them: {"text", "callback_data"}, in rows under "inline_keyboard".
Button = dict[str, str]
Markup = dict[str, list[list[Button]]]
# What a send or edit takes: the Bot API's form, or PTB's for the calls off the hot path.
Keyboard = Markup | InlineKeyboardMarkup


def button(label: str, data: str) -> Button:
    return {"text": label, "callback_data": data}


def markup(rows: Iterable[Iterable[Button]]) -> Markup:
    return {"inline_keyboard": [list(row) for row in rows]}


def keyboard(rows: Iterable[Iterable[tuple[str, str]]]) -> Markup:
    """Inline buttons from (label, callback data) pairs, row by row."""
    return markup([button(label, data) for label, data in row] for row in rows)


async def _call(bot: Bot, method: str, params: dict[str, Any]) -> Any:
    # `_post` is the step of every PTB method after its arguments and before its reply becomes an object.
    return await bot._post(method, {key: value for key, value in params.items() if value is not None})


def _reply(reply_to: int | None, must_exist: bool) -> dict[str, Any] | None:
    if not reply_to:
        return None
    return (
        {"message_id": reply_to}
        if must_exist
        else {"message_id": reply_to, "allow_sending_without_reply": True}
    )


async def send_text(
    bot: Bot,
    chat_id: int,
    body: str,
    *,
    markup: Keyboard | None = None,
    reply_to: int | None = None,
    reply_must_exist: bool = False,
) -> int:
    """Send a message; its id. `reply_must_exist`: refuse to send when the message replied to is gone."""
    reply = _reply(reply_to, reply_must_exist)
    sent = await _call(
        bot,
        "sendMessage",
        {"chat_id": chat_id, "text": body, "reply_markup": markup, "reply_parameters": reply},
    )
    return sent["message_id"]


async def edit_text(
    bot: Bot,
    chat_id: int,
    message_id: int,
    body: str,
    *,
    markup: Keyboard | None = None,
    unchanged_ok: bool = False,
) -> None:
    """Replace a message's text and buttons (none unless given). `unchanged_ok`: an edit to what is shown
    already is no error (Telegram refuses it as "message is not modified")."""
    try:
        await _call(
            bot,
            "editMessageText",
            {"chat_id": chat_id, "message_id": message_id, "text": body, "reply_markup": markup},
        )
    except BadRequest as exc:
        if not unchanged_ok or "not modified" not in exc.message.lower():
            raise


async def edit_pressed(query: CallbackQuery, body: str, markup: Keyboard | None = None) -> None:
    """Replace the text and buttons of the message whose button was pressed."""
    await edit_text(query.get_bot(), query.message.chat.id, query.message.message_id, body, markup=markup)


async def send_poll(
    bot: Bot, chat_id: int, params: dict[str, Any], reply_to: int | None = None
) -> tuple[int, str]:
    """Send a poll (replying to a message that must still be there); its message id and poll id, which is
    all a poll answer names."""
    sent = await _call(
        bot, "sendPoll", {"chat_id": chat_id, **params, "reply_parameters": _reply(reply_to, True)}
    )
    return sent["message_id"], sent["poll"]["id"]
