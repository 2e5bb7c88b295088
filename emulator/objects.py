"""Users, chats, messages, polls and files of the emulated Telegram, and their Bot API JSON.

The JSON is what python-telegram-bot 22.8 requires: every poll carries `allows_revoting` and `members_only`,
every option a `persistent_id`, every chat member the rights its status demands. Quizzes carry only
`correct_option_ids`: Bot API 9.6 dropped `correct_option_id`, and PTB warns when it sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PRIVATE = "private"
GROUP = "group"
SUPERGROUP = "supergroup"
CHANNEL = "channel"
CHAT_TYPES = (PRIVATE, GROUP, SUPERGROUP, CHANNEL)

CREATOR = "creator"
ADMINISTRATOR = "administrator"
MEMBER = "member"
LEFT = "left"
KICKED = "kicked"
PRESENT = (CREATOR, ADMINISTRATOR, MEMBER)
MEMBER_STATUSES = (CREATOR, ADMINISTRATOR, MEMBER, LEFT, KICKED)

JsonDict = dict[str, object]


@dataclass
class User:
    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    is_bot: bool = False
    language_code: str | None = None
    blocked_bot: bool = False

    def to_api(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    file_name: str
    mime_type: str
    content: bytes

    @property
    def path(self) -> str:
        return f"files/{self.file_id}/{self.file_name}"

    def document(self) -> JsonDict:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_name": self.file_name,
            "mime_type": self.mime_type,
            "file_size": len(self.content),
        }

    def photo_size(self, width: int, height: int) -> JsonDict:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "width": width,
            "height": height,
            "file_size": len(self.content),
        }

    def file_info(self) -> JsonDict:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.content),
            "file_path": self.path,
        }


@dataclass
class Chat:
    id: int
    type: str
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    members: dict[int, str] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    last_message_id: int = 0
    bot_send_times: list[float] = field(default_factory=list)

    def to_api(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name", "last_name"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data

    def full_info(self) -> JsonDict:
        """getChat's ChatFullInfo: the fields PTB requires, with neutral values."""
        gifts = (
            "unlimited_gifts",
            "limited_gifts",
            "unique_gifts",
            "premium_subscription",
            "gifts_from_channels",
        )
        return {
            **self.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": dict.fromkeys(gifts, False),
        }

    def status_of(self, user_id: int) -> str:
        return self.members.get(user_id, LEFT)

    def is_present(self, user_id: int) -> bool:
        return self.status_of(user_id) in PRESENT

    def is_admin(self, user_id: int) -> bool:
        return self.status_of(user_id) in (CREATOR, ADMINISTRATOR)

    @property
    def is_group(self) -> bool:
        return self.type in (GROUP, SUPERGROUP)


def member_json(chat: Chat, user: User, status: str) -> JsonDict:
    """A ChatMember of the given status, with every right an administrator needs to post quizzes."""
    data: JsonDict = {"status": status, "user": user.to_api()}
    if status == CREATOR:
        data["is_anonymous"] = False
    elif status == ADMINISTRATOR:
        rights = (
            "can_manage_chat",
            "can_delete_messages",
            "can_manage_video_chats",
            "can_restrict_members",
            "can_change_info",
            "can_invite_users",
            "can_post_stories",
            "can_edit_stories",
            "can_delete_stories",
        )
        data.update({"can_be_edited": False, "is_anonymous": False, "can_promote_members": False})
        data.update(dict.fromkeys(rights, True))
        if chat.type == CHANNEL:
            data.update(can_post_messages=True, can_edit_messages=True)
        else:
            data["can_pin_messages"] = True
    elif status == KICKED:
        data["until_date"] = 0
    return data


@dataclass
class Poll:
    id: str
    question: str
    options: list[str]
    type: str
    is_anonymous: bool
    allows_multiple_answers: bool
    allows_revoting: bool
    members_only: bool = False
    question_entities: list[JsonDict] = field(default_factory=list)
    correct_option_ids: list[int] = field(default_factory=list)
    explanation: str | None = None
    explanation_entities: list[JsonDict] = field(default_factory=list)
    open_period: float | None = None
    close_date: int | None = None
    is_closed: bool = False
    votes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    chat_id: int = 0
    message_id: int = 0

    def persistent_id(self, index: int) -> str:
        return f"{self.id}-{index + 1}"

    def counts(self) -> list[int]:
        counts = [0] * len(self.options)
        for chosen in self.votes.values():
            for index in chosen:
                counts[index] += 1
        return counts

    def to_api(self) -> JsonDict:
        counts = self.counts()
        data: JsonDict = {
            "id": self.id,
            "question": self.question,
            "options": [
                {"text": text, "voter_count": counts[index], "persistent_id": self.persistent_id(index)}
                for index, text in enumerate(self.options)
            ],
            "total_voter_count": sum(1 for chosen in self.votes.values() if chosen),
            "is_closed": self.is_closed,
            "is_anonymous": self.is_anonymous,
            "type": self.type,
            "allows_multiple_answers": self.allows_multiple_answers,
            "allows_revoting": self.allows_revoting,
            "members_only": self.members_only,
        }
        if self.question_entities:
            data["question_entities"] = self.question_entities
        if self.type == "quiz":
            data["correct_option_ids"] = list(self.correct_option_ids)
        if self.explanation:
            data["explanation"] = self.explanation
            if self.explanation_entities:
                data["explanation_entities"] = self.explanation_entities
        if self.open_period is not None:
            data["open_period"] = int(self.open_period) if self.open_period.is_integer() else self.open_period
        if self.close_date is not None:
            data["close_date"] = self.close_date
        return data


@dataclass
class Message:
    message_id: int
    chat: Chat
    date: int
    sender: User | None
    by_bot: bool
    text: str | None = None
    entities: list[JsonDict] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[JsonDict] = field(default_factory=list)
    poll: Poll | None = None
    document: JsonDict | None = None
    photo: list[JsonDict] | None = None
    reply_markup: JsonDict | None = None
    reply_to: Message | None = None
    edit_date: int | None = None
    deleted: bool = False

    @property
    def inline_keyboard(self) -> JsonDict | None:
        """The markup the Bot API reports back: only inline keyboards belong to a message."""
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            return self.reply_markup
        return None

    def to_api(self, *, with_reply: bool = True) -> JsonDict:
        data: JsonDict = {"message_id": self.message_id, "date": self.date, "chat": self.chat.to_api()}
        if self.sender is not None:
            data["from"] = self.sender.to_api()
        if self.chat.type == CHANNEL:
            data["sender_chat"] = self.chat.to_api()
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.caption:
            data["caption"] = self.caption
            if self.caption_entities:
                data["caption_entities"] = self.caption_entities
        if self.poll is not None:
            data["poll"] = self.poll.to_api()
        if self.document is not None:
            data["document"] = self.document
        if self.photo is not None:
            data["photo"] = self.photo
        if self.inline_keyboard is not None:
            data["reply_markup"] = self.inline_keyboard
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        return data

    def to_view(self) -> JsonDict:
        """What a person's client shows: the Bot API JSON, any reply markup (ForceReply, keyboards), and
        `by_bot`, since a channel post looks the same whether the bot or an administrator wrote it."""
        data = self.to_api()
        data["by_bot"] = self.by_bot
        if self.reply_markup is not None:
            data["reply_markup"] = self.reply_markup
        if self.deleted:
            data["deleted"] = True
        return data
