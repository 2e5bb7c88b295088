"""The emulator seen through a real python-telegram-bot 22.8 `Bot` on one side and a person on the other."""

from __future__ import annotations

import asyncio
import datetime as dtm
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
import telegram
from aiohttp import web
from telegram import (
    ChatMemberAdministrator,
    ChatMemberMember,
    ChatMemberOwner,
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    ReplyParameters,
    Update,
)
from telegram.error import BadRequest, Conflict, EndPointNotFound, Forbidden, InvalidToken, RetryAfter

from emulator import EmulatorClient, EmulatorError, EmulatorOptions, EmulatorServer
from emulator.views import EmuUser

FAST = EmulatorOptions(min_open_period=0.2, webhook_retry_delay=0.05, webhook_retry_max=0.2)


@pytest.fixture
async def emulator() -> AsyncIterator[EmulatorServer]:
    async with EmulatorServer(FAST) as server:
        yield server


@pytest.fixture
async def bot(emulator: EmulatorServer) -> AsyncIterator[telegram.Bot]:
    async with telegram.Bot(
        emulator.token, base_url=emulator.base_url, base_file_url=emulator.base_file_url
    ) as ptb_bot:
        yield ptb_bot


@pytest.fixture
async def emu(emulator: EmulatorServer) -> AsyncIterator[EmulatorClient]:
    async with EmulatorClient(emulator.root_url, timeout=3.0) as client:
        yield client


@pytest.fixture
async def alice(emu: EmulatorClient, bot: telegram.Bot) -> EmuUser:
    """A learner who has already started the bot, her /start consumed."""
    user = await emu.create_user("Alice", "alice")
    await emu.send_text(user, "/start")
    await updates(bot)
    return user


async def updates(bot: telegram.Bot, timeout: float = 2.0) -> list[Update]:
    """Everything pending, confirmed at once like PTB's updater does."""
    found = await bot.get_updates(timeout=timeout)
    if found:
        await bot.get_updates(offset=found[-1].update_id + 1, timeout=0)
    return list(found)


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=label.lower()) for label in labels]]
    )


async def test_get_me_describes_the_offline_bot(bot: telegram.Bot) -> None:
    me = await bot.get_me()
    assert me.is_bot
    assert me.username == "examforge_bot"


async def test_wrong_token_and_unknown_method_are_refused(
    emulator: EmulatorServer, bot: telegram.Bot
) -> None:
    with pytest.raises(InvalidToken, match=r"(?i)rejected"):
        async with telegram.Bot("123:WRONG", base_url=emulator.base_url):
            pass
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendTelepathy")
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emulator.base_url}{emulator.token}/sendTelepathy") as response,
    ):
        assert response.status == 404
        assert await response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}


async def test_a_typed_command_reaches_the_bot_once(emu: EmulatorClient, bot: telegram.Bot) -> None:
    bob = await emu.create_user("Bob")
    await emu.send_text(bob, "/quiz 3")
    first = await bot.get_updates(timeout=1)
    assert [u.message.text for u in first] == ["/quiz 3"]
    assert first[0].message.entities[0].type == "bot_command"
    assert first[0].message.entities[0].length == len("/quiz")
    assert first[0].effective_user.id == bob.id
    assert first[0].effective_chat.type == "private"
    assert await bot.get_updates(offset=first[0].update_id + 1, timeout=0) == ()


async def test_the_bot_cannot_start_a_private_chat_or_write_after_a_block(
    emu: EmulatorClient, bot: telegram.Bot
) -> None:
    carol = await emu.create_user("Carol")
    with pytest.raises(Forbidden, match=r"(?i)can't initiate conversation"):
        await bot.send_message(carol.id, "hello")
    await emu.send_text(carol, "hi")
    await bot.send_message(carol.id, "hello")
    await emu.block(carol)
    with pytest.raises(Forbidden, match=r"(?i)blocked by the user"):
        await bot.send_message(carol.id, "still there?")
    kinds = [u.my_chat_member.new_chat_member.status for u in await updates(bot) if u.my_chat_member]
    assert kinds == ["kicked"]


async def test_pressing_a_button_delivers_a_callback_query_and_its_answer(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await bot.send_message(alice.id, "Which chapter?", reply_markup=keyboard("Taxes", "Loans"))
    menu = await emu.next_message(alice)
    assert [b.text for b in menu.buttons] == ["Taxes", "Loans"]

    press = asyncio.create_task(emu.press(alice, menu, "Loans", wait=3))
    (update,) = await updates(bot)
    query = update.callback_query
    assert query.data == "loans"
    assert query.from_user.id == alice.id
    assert query.message.message_id == menu.message_id
    await query.answer("Loans it is")
    answer = await press
    assert answer.answered and answer.text == "Loans it is"
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await query.answer("twice")


async def test_a_button_that_is_not_there_cannot_be_pressed(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await bot.send_message(alice.id, "Pick", reply_markup=keyboard("A"))
    menu = await emu.next_message(alice)
    with pytest.raises(LookupError, match="'A'"):
        await emu.press(alice, menu, "Z")
    await bot.edit_message_reply_markup(alice.id, menu.message_id, reply_markup=None)
    with pytest.raises(EmulatorError, match="has no button"):
        await emu.press(alice, menu, "A")


async def test_editing_a_message_and_the_telegram_refusals(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    status = await bot.send_message(alice.id, "router: choosing…")
    edited = await bot.edit_message_text("critic: passed", alice.id, status.message_id)
    assert edited.text == "critic: passed" and edited.edit_date is not None
    seen = await emu.wait_for_edit(await emu.next_message(alice))
    assert seen.text == "critic: passed" and seen.edited

    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text("critic: passed", alice.id, status.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", alice.id, 999)
    mine = await emu.send_text(alice, "my own words")
    with pytest.raises(BadRequest, match=r"(?i)message can't be edited"):
        await bot.edit_message_text("x", alice.id, mine.message_id)
    await bot.delete_message(alice.id, status.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("again", alice.id, status.message_id)


async def test_html_is_stored_as_text_with_entities(bot: telegram.Bot, alice: EmuUser) -> None:
    sent = await bot.send_message(alice.id, "<b>契税</b> = 1%", parse_mode="HTML")
    assert sent.text == "契税 = 1%"
    assert sent.entities[0].type == "bold" and sent.entities[0].length == 2
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(alice.id, "<b>unclosed", parse_mode="HTML")


async def test_force_reply_and_the_users_reply(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await bot.send_message(alice.id, "Why is it wrong?", reply_markup=ForceReply())
    prompt = await emu.next_message(alice)
    assert prompt.force_reply
    await emu.reply(alice, prompt, "the rate is 1.5%")
    (update,) = await updates(bot)
    assert update.message.reply_to_message.message_id == prompt.message_id
    answer = await bot.send_message(
        alice.id, "thanks", reply_parameters=ReplyParameters(message_id=update.message.message_id)
    )
    assert answer.reply_to_message.text == "the rate is 1.5%"


async def test_quiz_with_several_correct_answers_reports_who_chose_what(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    sent = await bot.send_poll(
        alice.id,
        "Which taxes does the buyer pay?",
        ["契税", "增值税", "印花税"],
        type="quiz",
        correct_option_ids=[0, 2],
        allows_multiple_answers=True,
        is_anonymous=False,
        explanation="The seller pays VAT.",
    )
    assert sent.poll.correct_option_ids == (0, 2)
    assert sent.poll.allows_revoting is False
    quiz = await emu.wait_for_poll(alice)
    await emu.vote(alice, quiz, [0, 2])

    received = await updates(bot)
    answer = next(u.poll_answer for u in received if u.poll_answer)
    state = next(u.poll for u in received if u.poll)
    assert answer.poll_id == sent.poll.id and answer.user.id == alice.id
    assert answer.option_ids == (0, 2)
    assert quiz.poll is not None
    assert telegram.Poll.de_json(quiz.poll.raw, bot).correct_option_ids == (0, 2)
    persistent = [option.persistent_id for option in sent.poll.options]
    assert answer.option_persistent_ids == (persistent[0], persistent[2])
    assert [option.voter_count for option in state.options] == [1, 0, 1]
    with pytest.raises(EmulatorError, match="does not allow changing"):
        await emu.vote(alice, quiz, [1])


async def test_a_single_answer_poll_takes_one_option(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await bot.send_poll(alice.id, "One?", ["a", "b"], type="quiz", correct_option_ids=[1], is_anonymous=False)
    quiz = await emu.wait_for_poll(alice)
    with pytest.raises(EmulatorError, match="one answer only"):
        await emu.vote(alice, quiz, [0, 1])
    with pytest.raises(EmulatorError, match="between 0 and 1"):
        await emu.vote(alice, quiz, [2])


async def test_anonymous_poll_votes_never_name_the_voter(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await bot.send_poll(alice.id, "Anonymous?", ["yes", "no"])
    poll = await emu.wait_for_poll(alice)
    await emu.vote(alice, poll, [1])
    await emu.vote(alice, poll, [])
    received = await updates(bot)
    assert [u.poll.total_voter_count for u in received if u.poll] == [1, 0]
    assert not any(u.poll_answer for u in received)


async def test_open_period_closes_the_poll_and_later_votes_are_refused(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    sent = await bot.send_poll(
        alice.id,
        "Quick?",
        ["a", "b"],
        type="quiz",
        correct_option_ids=[0],
        is_anonymous=False,
        open_period=dtm.timedelta(seconds=0.3),
    )
    poll_message = await emu.wait_for_poll(alice)
    closed = await emu.wait_for_poll_closed(poll_message, timeout=3)
    assert closed.is_closed
    (update,) = await updates(bot)
    assert update.poll.id == sent.poll.id and update.poll.is_closed
    with pytest.raises(EmulatorError, match="poll is closed"):
        await emu.vote(alice, poll_message, [0])


async def test_close_date_closes_the_poll(emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser) -> None:
    # close_date has whole seconds: 1-2 s from now, above the test minimum of 0.2 s.
    closing = dtm.datetime.now(dtm.UTC).replace(microsecond=0) + dtm.timedelta(seconds=2)
    sent = await bot.send_poll(alice.id, "Until the bell", ["a", "b"], close_date=closing)
    assert sent.poll.close_date == closing
    closed = await emu.wait_for_poll_closed(await emu.wait_for_poll(alice), timeout=3)
    assert closed.is_closed


async def test_stop_poll_closes_once(bot: telegram.Bot, alice: EmuUser) -> None:
    sent = await bot.send_poll(alice.id, "Stop me", ["a", "b"])
    stopped = await bot.stop_poll(alice.id, sent.message_id)
    assert stopped.is_closed
    with pytest.raises(BadRequest, match=r"(?i)already been closed"):
        await bot.stop_poll(alice.id, sent.message_id)


@pytest.mark.parametrize(
    ("question", "options", "extra", "refusal"),
    [
        ("Q" * 301, ["a", "b"], {}, "poll question length must not exceed 300"),
        ("Q", ["a" * 101, "b"], {}, "poll options length must not exceed 100"),
        ("Q", [str(n) for n in range(13)], {}, "poll can't have more than 12 options"),
        ("Q", ["a", "b"], {"explanation": "e" * 201}, "explanation length must not exceed 200"),
        ("Q", ["a", "b"], {"explanation": "1\n2\n3\n4"}, "more than 2 line feeds"),
        ("Q", ["a", "b"], {"correct_option_ids": [2]}, "wrong correct option ID"),
        ("Q", ["a", "b"], {"correct_option_ids": [1, 0]}, "wrong correct option ID"),
        ("Q", ["a", "b"], {"correct_option_ids": [0], "open_period": 0.1}, "between 0.2 and 2628000"),
    ],
)
async def test_quiz_limits_match_telegram(
    bot: telegram.Bot,
    alice: EmuUser,
    question: str,
    options: list[str],
    extra: dict[str, object],
    refusal: str,
) -> None:
    with pytest.raises(BadRequest, match=f"(?i){refusal}"):
        await bot.send_poll(alice.id, question, options, type="quiz", **{"correct_option_ids": [0], **extra})


async def test_the_older_correct_option_id_is_accepted(emulator: EmulatorServer, alice: EmuUser) -> None:
    body = {
        "chat_id": alice.id,
        "question": "Old style",
        "options": ["a", "b"],
        "type": "quiz",
        "correct_option_id": 1,
    }
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emulator.base_url}{emulator.token}/sendPoll", json=body) as response,
    ):
        result = (await response.json())["result"]
    assert result["poll"]["correct_option_ids"] == [1]
    assert telegram.Message.de_json(result, None).poll.correct_option_ids == (1,)


async def test_form_fields_keep_strings_as_strings(emulator: EmulatorServer, alice: EmuUser) -> None:
    """PTB sends raw strings next to JSON-encoded values; a text that looks like a number stays text."""
    form = {"chat_id": str(alice.id), "text": "123", "reply_markup": json.dumps({"force_reply": True})}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emulator.base_url}{emulator.token}/sendMessage", data=form) as response,
    ):
        result = (await response.json())["result"]
    assert result["text"] == "123"


async def test_channels_take_posts_only_from_an_admin_bot(emu: EmulatorClient, bot: telegram.Bot) -> None:
    editor = await emu.create_user("Editor")
    channel = await emu.create_channel("Daily quiz", [editor], bot="member")
    with pytest.raises(BadRequest, match=r"(?i)need administrator rights in the channel chat"):
        await bot.send_message(channel.id, "hello")
    await emu.set_bot_status(channel, "left")
    with pytest.raises(Forbidden, match=r"(?i)bot is not a member of the channel chat"):
        await bot.send_message(channel.id, "hello")
    await emu.set_bot_status(channel, "administrator")
    posted = await bot.send_poll(channel.id, "Channel quiz", ["a", "b"], type="quiz", correct_option_ids=[0])
    assert posted.sender_chat.id == channel.id and posted.poll.is_anonymous
    with pytest.raises(BadRequest, match=r"(?i)non-anonymous polls can't be sent to channel chats"):
        await bot.send_poll(channel.id, "Named", ["a", "b"], is_anonymous=False)
    statuses = [u.my_chat_member.new_chat_member.status for u in await updates(bot) if u.my_chat_member]
    assert statuses == ["member", "left", "administrator"]


async def test_group_administrators_and_members(emu: EmulatorClient, bot: telegram.Bot) -> None:
    teacher = await emu.create_user("Teacher")
    learner = await emu.create_user("Learner")
    group = await emu.create_group("Broker class", [learner], admins=[teacher])
    admins = await bot.get_chat_administrators(group.id)
    kinds = {member.user.id: type(member) for member in admins}
    assert kinds == {teacher.id: ChatMemberOwner, (await bot.get_me()).id: ChatMemberAdministrator}
    assert isinstance(await bot.get_chat_member(group.id, learner.id), ChatMemberMember)
    chat = await bot.get_chat(group.id)
    assert chat.title == "Broker class" and chat.type == "supergroup"

    await emu.send_text(learner, "/groupquiz@examforge_bot", group)
    outsider = await emu.create_user("Outsider")
    with pytest.raises(EmulatorError, match="not a member"):
        await emu.send_text(outsider, "let me in", group)
    received = await updates(bot)
    assert [u.message.text for u in received if u.message] == ["/groupquiz@examforge_bot"]


async def test_send_document_keeps_name_size_and_caption(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    content = "题干,答案\n契税税率,C\n".encode()
    sent = await bot.send_document(alice.id, content, filename="bank.csv", caption="your export")
    assert (sent.document.file_name, sent.document.file_size, sent.caption) == (
        "bank.csv",
        len(content),
        "your export",
    )
    seen = await emu.next_message(alice)
    assert seen.document is not None and seen.document["file_name"] == "bank.csv"
    downloaded = await (await bot.get_file(sent.document.file_id)).download_as_bytearray()
    assert bytes(downloaded) == content


async def test_send_photo_reports_png_dimensions(bot: telegram.Bot, alice: EmuUser) -> None:
    png = (
        b"\x89PNG\r\n\x1a\n"
        + b"\x00\x00\x00\rIHDR"
        + (640).to_bytes(4, "big")
        + (480).to_bytes(4, "big")
        + b"\0" * 8
    )
    sent = await bot.send_photo(alice.id, png, caption="chart")
    assert (sent.photo[-1].width, sent.photo[-1].height) == (640, 480)


async def test_a_users_document_can_be_fetched_by_the_bot(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await emu.send_document(alice, "kb.jsonl", b'{"x": 1}\n', caption="/import")
    (update,) = await updates(bot)
    assert update.message.caption == "/import"
    document = update.message.document
    assert document.file_name == "kb.jsonl"
    assert bytes(await (await document.get_file()).download_as_bytearray()) == b'{"x": 1}\n'


async def test_webhook_delivery_with_secret_header_and_retry(emu: EmulatorClient, bot: telegram.Bot) -> None:
    received: list[tuple[str | None, dict[str, object]]] = []
    answers = iter([500, 200])

    async def hook(request: web.Request) -> web.Response:
        received.append((request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json()))
        return web.Response(status=next(answers, 200))

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    try:
        await bot.set_webhook(f"http://127.0.0.1:{port}/hook", secret_token="s3cret-Token")
        with pytest.raises(Conflict):
            await bot.get_updates()
        dave = await emu.create_user("Dave")
        await emu.send_text(dave, "via webhook")
        for _ in range(100):
            if len(received) >= 2:
                break
            await asyncio.sleep(0.02)
        assert [secret for secret, _ in received] == ["s3cret-Token", "s3cret-Token"]
        assert received[0][1] == received[1][1]
        assert Update.de_json(received[1][1], bot).message.text == "via webhook"
        info = await bot.get_webhook_info()
        assert info.url.endswith("/hook") and "500" in (info.last_error_message or "")
        assert info.pending_update_count == 0
        await bot.delete_webhook()
        assert await bot.get_updates() == ()
    finally:
        await runner.cleanup()


async def test_delete_webhook_can_drop_pending_updates(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await emu.send_text(alice, "left unread")
    await bot.delete_webhook(drop_pending_updates=True)
    await emu.send_text(alice, "fresh")
    assert [u.message.text for u in await updates(bot)] == ["fresh"]


async def test_webhooks_stay_on_this_machine(bot: telegram.Bot) -> None:
    with pytest.raises(BadRequest, match=r"(?i)bad webhook"):
        await bot.set_webhook("https://example.org/hook")


# PTB itself warns about RetryAfter.retry_after's future type when it builds the exception.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_control_is_opt_in() -> None:
    options = EmulatorOptions(flood_control=True, group_limit=3, group_window=60.0)
    async with (
        EmulatorServer(options) as server,
        EmulatorClient(server.root_url) as emu,
        telegram.Bot(server.token, base_url=server.base_url) as bot,
    ):
        teacher = await emu.create_user("Teacher")
        group = await emu.create_group("Class", [], admins=[teacher])
        for number in range(3):
            await bot.send_message(group.id, f"question {number}")
        with pytest.raises(RetryAfter, match=r"Retry in (60|59) seconds"):
            await bot.send_message(group.id, "one too many")
        times = await emu.bot_send_times(group)
        assert len(times) == 3 and times == sorted(times)


async def test_commands_round_trip(bot: telegram.Bot) -> None:
    await bot.set_my_commands([("quiz", "开始练习"), ("stats", "我的成绩")])
    assert [(c.command, c.description) for c in await bot.get_my_commands()] == [
        ("quiz", "开始练习"),
        ("stats", "我的成绩"),
    ]
    await bot.delete_my_commands()
    assert await bot.get_my_commands() == ()
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([("Bad Command", "x")])


async def test_transcript_messages_parse_as_ptb_messages(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await bot.send_message(alice.id, "menu", reply_markup=keyboard("One"))
    await bot.send_poll(alice.id, "Q", ["a", "b"], type="quiz", correct_option_ids=[1], explanation="b")
    await bot.send_chat_action(alice.id, "typing")
    transcript = await emu.transcript(alice)
    assert [m.body for m in transcript] == ["/start", "menu", "Q"]
    parsed = [telegram.Message.de_json(m.raw, bot) for m in transcript]
    assert parsed[1].reply_markup.inline_keyboard[0][0].callback_data == "one"
    assert parsed[2].poll.options[1].persistent_id
    assert await emu.messages_since(alice, 2) == transcript[2:]


async def test_reset_forgets_people_and_chats(emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser) -> None:
    await emu.send_text(alice, "pending")
    await emu.reset()
    assert await emu.users() == []
    assert await bot.get_updates() == ()
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-1002000000001, "anyone?")


async def test_allowed_updates_filters_what_the_bot_hears(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    await bot.get_updates(allowed_updates=["message"], timeout=0)
    await bot.send_message(alice.id, "menu", reply_markup=keyboard("A"))
    await emu.press(alice, await emu.next_message(alice), "A")
    await emu.send_text(alice, "typed")
    assert [u.message.text for u in await updates(bot)] == ["typed"]


async def test_a_second_poller_ends_the_first_with_a_conflict(
    emulator: EmulatorServer, bot: telegram.Bot
) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.1)
    async with telegram.Bot(emulator.token, base_url=emulator.base_url) as twin:
        second = asyncio.create_task(twin.get_updates(timeout=0.2))
        with pytest.raises(Conflict, match=r"(?i)terminated by other getUpdates request"):
            await first
        assert await second == ()


async def test_buttons_sharing_a_label_are_told_apart_by_their_data(
    emu: EmulatorClient, bot: telegram.Bot, alice: EmuUser
) -> None:
    twins = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("👍", callback_data="up:1")],
            [InlineKeyboardButton("👍", callback_data="up:2")],
        ]
    )
    await bot.send_message(alice.id, "two questions", reply_markup=twins)
    message = await emu.next_message(alice)
    await emu.press(alice, message, message.buttons[1])
    (update,) = await updates(bot)
    assert update.callback_query.data == "up:2"


async def test_channel_administrators_post_as_the_channel(emu: EmulatorClient, bot: telegram.Bot) -> None:
    editor = await emu.create_user("Editor")
    channel = await emu.create_channel("Daily quiz", [editor])
    post = await emu.send_text(editor, "today: loans", channel)
    assert not post.from_bot
    posts = [u.channel_post for u in await updates(bot) if u.channel_post]
    assert [(p.text, p.sender_chat.id) for p in posts] == [("today: loans", channel.id)]
    await bot.send_message(channel.id, "quiz follows")
    assert (await emu.next_message(channel)).from_bot
