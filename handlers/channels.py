"""/post: an instructor sends a timed round to a team channel, from their private chat with the bot.

Telegram has no call that lists the channels a bot administers, so the instructor forwards one of the
channel's posts or types its @username or id. Before any settings are asked, getChatMember confirms that
the bot is an administrator allowed to post there, and the instructor must be a configured instructor or
one of the channel's administrators.
"""

from __future__ import annotations

from telegram import Chat, Message, MessageOriginChannel, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from engines.i18n import text
from handlers import roundsetup
from handlers.context import remember, state
from handlers.instructors import is_instructor

AWAITING_KEY = "post_channel"
# What a typed channel reference looks like: a public @username, or a numeric id.
CHANNEL_REFERENCE = r"^\s*(@[A-Za-z]\w{3,}|-?\d{5,})\s*$"


async def post_round(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not state(context).dialogues.admit(update.effective_user.id):
        return  # a burst of /post: the excess is dropped quietly
    locale = await remember(update, context)
    if update.effective_chat.type != ChatType.PRIVATE:
        await update.effective_message.reply_text(text(locale, "post_private_only"))
        return
    context.chat_data[AWAITING_KEY] = True
    await update.effective_message.reply_text(text(locale, "post_prompt"))


def _reference(message: Message) -> int | str | None:
    """The channel a forwarded post came from, or the @username / id typed; None for a forward of
    anything but a channel post."""
    origin = message.forward_origin
    if origin is not None:
        return origin.chat.id if isinstance(origin, MessageOriginChannel) else None
    typed = (message.text or "").strip()
    return typed if typed.startswith("@") else int(typed)


async def _problem(context: ContextTypes.DEFAULT_TYPE, locale: str, user_id: int, chat: Chat) -> str | None:
    """Why the round cannot go to this chat, worded for the instructor; None when it can."""
    title = chat.title or str(chat.id)
    if chat.type != ChatType.CHANNEL:
        return text(locale, "post_not_channel", title=title)
    try:
        member = await context.bot.get_chat_member(chat.id, context.bot.id)
    except TelegramError:
        return text(locale, "post_bot_not_admin", title=title)
    if member.status not in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER) or (
        getattr(member, "can_post_messages", None) is False
    ):
        return text(locale, "post_bot_not_admin", title=title)
    if not await is_instructor(context, user_id, chat.id):
        return text(locale, "post_not_allowed", title=title)
    return None


async def channel_given(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A forwarded channel post or a typed channel reference, in a private chat. After a refusal the
    instructor may simply send another one."""
    locale = await remember(update, context)
    message = update.effective_message
    if not context.chat_data.get(AWAITING_KEY):
        await message.reply_text(text(locale, "post_first"))
        return
    reference = _reference(message)
    if reference is None:
        await message.reply_text(text(locale, "post_forward_not_channel"))
        return
    try:
        chat = await context.bot.get_chat(reference)
    except TelegramError:
        await message.reply_text(text(locale, "post_not_found", reference=reference))
        return
    problem = await _problem(context, locale, update.effective_user.id, chat)
    if problem is not None:
        await message.reply_text(problem)
        return
    context.chat_data.pop(AWAITING_KEY, None)
    await state(context).store.chats.upsert(chat.id, "channel", chat.title or "")
    if not await state(context).rounds.make_room(chat.id, locale):
        await message.reply_text(text(locale, "round_busy_channel", channel=chat.title))
        return
    await roundsetup.open_dialogue(update, context, locale, "channel", chat.id, chat.title or str(chat.id))
