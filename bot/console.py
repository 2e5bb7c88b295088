"""Chat with the bot in a terminal through the local emulator (`make demo`).

The bot's messages print as they arrive: text, inline buttons numbered [1] [2] …, polls with numbered
options, results once you vote and when a poll closes; an edited message (a live status line) prints again
marked as edited. A photo or a document prints as a line with its size; `:save` writes it to a file to
open. With piped input (no terminal) each line is sent, then the console waits until the bot
has been quiet for a moment before the next line, and exits at the end of the input.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from emulator.client import EmulatorClient, EmulatorError
from emulator.views import Button, ChatEvent, ChatMessage, EmuUser, PollView

HELP = """\
keys:
  text or /command   send it (as a reply when the bot asked for one)
  N                  vote for option N of an open poll you have not answered, else press button N
  b N                press button N of the latest message with buttons
  v N[,M...]         vote (several numbers for a multiple-answer poll); "v -" retracts a vote
  :as NAME [ID]      act as another user (created on first use), in their private chat with the bot;
                     shows what the bot sent them since they last looked
  :group TITLE       enter a group with the bot (created with you as its admin if new)
  :channel TITLE     enter a channel you administer, the bot as admin (your posts are channel posts)
  :private           back to your private chat
  :save [FOLDER]     save the latest photo or document the bot sent here (a chart, an export) to a file
  :who               who and where you are
  :help              this help
  :quit              leave"""

_NUMBER = re.compile(r"^\d+$")
_VOTE = re.compile(r"^v\s+(-|\d+(?:\s*[,\s]\s*\d+)*)$")
_PRESS = re.compile(r"^b\s+(\d+)$")
_WATCH_TIMEOUT = 25.0
_MISSED = 200  # events kept per private chat you are not looking at


def _read_lines(stdin: TextIO, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    """Read stdin on a daemon thread, so a pending read never keeps the process alive."""

    def pump() -> None:
        try:
            for line in iter(stdin.readline, ""):
                loop.call_soon_threadsafe(queue.put_nowait, line)
            loop.call_soon_threadsafe(queue.put_nowait, None)
        except RuntimeError:
            return  # the loop has closed: nobody is listening any more

    threading.Thread(target=pump, name="console-stdin", daemon=True).start()


def _indent(text: str, width: int) -> str:
    return text.replace("\n", "\n" + " " * width)


def _numbered_buttons(buttons: Sequence[Button]) -> str:
    return "  ".join(f"[{index}] {button.text}" for index, button in enumerate(buttons, start=1))


def _poll_lines(poll: PollView) -> list[str]:
    if poll.is_quiz:
        kind = "quiz, several answers" if poll.allows_multiple_answers else "quiz, one answer"
    else:
        kind = "poll, several answers" if poll.allows_multiple_answers else "poll"
    lines = [f"📊 ({kind}) {poll.question}"]
    lines += [f"  {index}) {option}" for index, option in enumerate(poll.options, start=1)]
    if not poll.is_closed:
        lines.append("  vote: v 1,3" if poll.allows_multiple_answers else "  vote: v N (or just N)")
    return lines


def _results(poll: PollView) -> str:
    parts = []
    for index, (option, count) in enumerate(zip(poll.options, poll.voter_counts, strict=True), start=1):
        mark = " ✓" if index - 1 in poll.correct_option_ids else ""
        parts.append(f"{index}) {option} ×{count}{mark}")
    return "; ".join(parts)


class Console:
    def __init__(
        self,
        client: EmulatorClient,
        stdout: TextIO,
        *,
        interactive: bool,
        quiet: float,
        first_reply_timeout: float,
        max_wait: float,
        save_folder: Path,
    ) -> None:
        self.client = client
        self.save_folder = save_folder
        self.out = stdout
        self.interactive = interactive
        self.quiet = quiet
        self.first_reply_timeout = first_reply_timeout
        self.max_wait = max_wait
        self.user = EmuUser(0, "")
        self.chat_id = 0
        self.chat_titles: dict[int, str] = {}
        self._shown: dict[tuple[int, int], ChatMessage] = {}
        self._interactive_message: dict[int, tuple[int, int]] = {}
        # What the last press or vote went to, as shown then: piped input waits for the next message, or
        # for this one edited (a menu's next step), not for a refreshed vote count.
        self._spent: tuple[object, ...] | None = None
        self._latest_file: dict[int, ChatMessage] = {}
        self._reply_wanted: dict[int, int] = {}
        self._my_votes: dict[tuple[str, int], tuple[int, ...]] = {}
        # What the bot sent to other people's private chats while you were someone else: shown on `:as`.
        self._missed: dict[int, deque[ChatEvent]] = {}
        self._after = 0
        self._activity = 0
        self._last_activity = 0.0

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # ---- who and where -------------------------------------------------------------------------------------

    async def act_as(self, name: str, user_id: int | None = None) -> None:
        wanted = name.lower().lstrip("@")
        known = [
            u
            for u in await self.client.users()
            if wanted in (u.first_name.lower(), (u.username or "").lower())
        ]
        self.user = known[0] if known else await self.client.create_user(name, user_id=user_id)
        self.chat_id = self.user.id
        self.say(f"(you are {self.user.first_name}, id {self.user.id}, in your private chat with the bot)")
        missed = list(self._missed.pop(self.user.id, ()))
        if missed:
            self.say(f"(what {self.user.first_name} received since they last looked:)")
            self.render(missed)

    async def enter_chat(self, kind: str, title: str) -> None:
        chats = [
            chat
            for chat in await self.client.chats()
            if chat.title == title and (chat.type == "channel") == (kind == "channel")
        ]
        if chats:
            chat = chats[0]
            info = await self.client.chat_info(chat)
            if not any(member["user_id"] == self.user.id for member in info["members"]):
                status = "administrator" if kind == "channel" else "member"
                await self.client.set_member(chat, self.user, status)
        elif kind == "channel":
            chat = await self.client.create_channel(title, [self.user])
        else:
            chat = await self.client.create_group(title, [], admins=[self.user])
        self.chat_id = chat.id
        self.chat_titles[chat.id] = title
        self.say(f"(you are in {kind} “{title}”, id {chat.id})")

    def _where(self, chat_id: int) -> str:
        if chat_id == self.chat_id:
            return ""
        return f"[{self.chat_titles.get(chat_id, 'private')}] "

    # ---- input ---------------------------------------------------------------------------------------------

    async def handle(self, line: str) -> bool | None:
        """Act on one input line; True when the bot may answer, None to quit."""
        if line.startswith(":"):
            return await self._meta(line)
        if _NUMBER.match(line):
            return await self._number(int(line))
        if match := _VOTE.match(line):
            numbers = [] if match[1] == "-" else [int(n) for n in re.split(r"[,\s]+", match[1])]
            return await self._vote(numbers)
        if match := _PRESS.match(line):
            return await self._press(int(match[1]))
        reply_to = self._reply_wanted.pop(self.chat_id, None)
        await self.client.send_text(self.user, line, self.chat_id, reply_to=reply_to)
        return True

    async def _meta(self, line: str) -> bool | None:
        command, _, rest = line.partition(" ")
        rest = rest.strip()
        if command == ":quit":
            return None
        if command == ":help":
            self.say(HELP)
        elif command == ":who":
            where = self.chat_titles.get(self.chat_id, "private chat with the bot")
            self.say(f"(you are {self.user.first_name}, id {self.user.id}, in {where})")
        elif command == ":as" and rest:
            name, _, number = rest.rpartition(" ") if rest.split()[-1].isdigit() else (rest, "", "")
            await self.act_as(name, int(number) if number else None)
        elif command in (":group", ":channel") and rest:
            await self.enter_chat(command[1:], rest)
        elif command == ":save":
            await self._save(Path(rest) if rest else self.save_folder)
        elif command == ":private":
            self.chat_id = self.user.id
            self.say("(back in your private chat with the bot)")
        else:
            self.say(f"(unknown key {line!r}; :help lists the keys)")
        return False

    async def _save(self, folder: Path) -> None:
        message = self._latest_file.get(self.chat_id)
        if message is None:
            self.say("(no photo or document from the bot here)")
            return
        if message.document:
            file_id, name = message.document["file_id"], str(message.document.get("file_name") or "document")
        else:
            file_id, name = message.photo[-1]["file_id"], f"photo-{message.message_id}.png"
        folder.mkdir(parents=True, exist_ok=True)
        # Only the file's own name is kept: a name sent by a bot must not climb out of the folder.
        path = folder / Path(name).name
        path.write_bytes(await self.client.download(file_id))
        self.say(f"(saved to {path})")

    def _latest(self) -> ChatMessage | None:
        key = self._interactive_message.get(self.chat_id)
        return self._shown.get(key) if key else None

    def _open_poll_unanswered(self, message: ChatMessage | None) -> bool:
        poll = message.poll if message else None
        return bool(poll and not poll.is_closed and not self._my_votes.get((poll.id, self.user.id)))

    async def _target(self, usable: Callable[[ChatMessage], bool]) -> ChatMessage | None:
        """The bot's latest button message or poll. Piped input cannot see that the bot is still writing a
        question, so there a line waits (up to `max_wait`) for a message it can act on other than the one it
        already acted on; a person at the keyboard sees for themselves."""
        message = self._latest()
        if self.interactive:
            return message
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.max_wait
        while (message is None or _shown_as(message) == self._spent or not usable(message)) and (
            loop.time() < deadline
        ):
            await asyncio.sleep(0.05)
            message = self._latest()
        return message

    def _actionable(self, message: ChatMessage) -> bool:
        return bool(message.buttons) or self._open_poll_unanswered(message)

    async def _number(self, number: int) -> bool:
        message = await self._target(self._actionable)
        if self._open_poll_unanswered(message):
            return await self._vote([number])
        return await self._press(number)

    async def _press(self, number: int) -> bool:
        message = await self._target(lambda m: bool(m.buttons))
        if message is None or not message.buttons:
            self.say("(no message with buttons here)")
            return False
        if not 1 <= number <= len(message.buttons):
            self.say(f"(choose a button between 1 and {len(message.buttons)})")
            return False
        await self.client.press(self.user, message, message.buttons[number - 1])
        self._spent = _shown_as(message)
        return True

    async def _vote(self, numbers: list[int]) -> bool:
        message = await self._target(self._open_poll_unanswered)
        if message is None or message.poll is None or message.poll.is_closed:
            self.say("(no open poll here)")
            return False
        chosen = sorted({number - 1 for number in numbers})
        await self.client.vote(self.user, message, chosen)
        self._spent = _shown_as(message)
        return True

    # ---- output --------------------------------------------------------------------------------------------

    def _relevant(self, event: ChatEvent) -> bool:
        return event.chat_id in (self.chat_id, self.user.id)

    def _remember(self, message: ChatMessage) -> None:
        key = (message.chat_id, message.message_id)
        self._shown[key] = message
        if message.from_bot and (message.buttons or message.poll):
            self._interactive_message[message.chat_id] = key
        if message.from_bot and (message.photo or message.document):
            self._latest_file[message.chat_id] = message
        if message.from_bot:
            if message.force_reply:
                self._reply_wanted[message.chat_id] = message.message_id
            else:
                self._reply_wanted.pop(message.chat_id, None)

    def _sender(self, message: ChatMessage) -> str | None:
        """The label to print, or None for the current user's own messages."""
        if message.from_bot:
            return "bot"
        if message.sender_id == self.user.id:
            return None
        sender = message.raw.get("from") or message.raw.get("sender_chat") or {}
        return str(sender.get("first_name") or sender.get("title") or f"user {message.sender_id}")

    def _render_message(self, message: ChatMessage, label: str) -> None:
        prefix = f"{self._where(message.chat_id)}{label}> "
        lines: list[str] = []
        if message.text:
            lines.append(message.text)
        if message.document:
            lines.append(
                f"📎 {message.document.get('file_name')} ({message.document.get('file_size')} bytes)"
            )
        if message.photo:
            largest = message.photo[-1]
            lines.append(f"🖼 photo {largest.get('width')}×{largest.get('height')}")
        if message.caption:
            lines.append(message.caption)
        if message.poll:
            lines += _poll_lines(message.poll)
        if message.buttons:
            lines.append(_numbered_buttons(message.buttons))
        if message.force_reply:
            lines.append("(the bot expects a reply: just type it)")
        self.say(prefix + _indent("\n".join(lines), len(prefix)))

    def _render_edit(self, message: ChatMessage) -> None:
        before = self._shown.get((message.chat_id, message.message_id))
        if before is not None and before.body == message.body and before.buttons == message.buttons:
            return
        label = f"bot (edited #{message.message_id})"
        if before is not None and before.body == message.body:
            prefix = f"{self._where(message.chat_id)}{label}> "
            self.say(prefix + (_numbered_buttons(message.buttons) or "(buttons removed)"))
        else:
            self._render_message(message, label)

    def _render_poll(self, event: ChatEvent) -> None:
        poll = event.poll
        if poll is None:
            return
        where = self._where(event.chat_id)
        if poll.is_closed and event.raw.get("voter") is None:
            self.say(f"{where}poll #{event.message_id} closed: {_results(poll)}")
        elif event.raw.get("voter") == self.user.id:
            chosen = tuple(event.raw.get("chosen", ()))
            self._my_votes[(poll.id, self.user.id)] = chosen
            if not chosen:
                self.say(f"{where}(vote retracted)")
            elif poll.is_quiz:
                verdict = "correct ✓" if set(chosen) == set(poll.correct_option_ids) else "wrong ✗"
                right = ",".join(str(index + 1) for index in poll.correct_option_ids)
                mine = ",".join(str(index + 1) for index in chosen)
                self.say(f"{where}your answer: {mine} — {verdict} (answer: {right})")
                if poll.explanation:
                    self.say(f"{where}💡 {_indent(poll.explanation, len(where) + 2)}")
            else:
                self.say(f"{where}results: {_results(poll)}")
        key = (event.chat_id, event.message_id or 0)
        if key in self._shown:
            self._remember(ChatMessage.from_json({**self._shown[key].raw, "poll": poll.raw}))

    def _answer_for_me(self, event: ChatEvent) -> bool:
        return event.raw.get("user_id") == self.user.id and bool(event.raw.get("text"))

    def render(self, events: list[ChatEvent]) -> None:
        # A live status message may be edited many times between two reads: show only its latest text.
        last_edit = {(e.chat_id, e.message_id): e.seq for e in events if e.kind == "edited"}
        for event in events:
            if not self._relevant(event):
                if event.chat_id > 0:  # someone else's private chat with the bot
                    self._missed.setdefault(event.chat_id, deque(maxlen=_MISSED)).append(event)
                continue
            if event.kind == "message" and event.message is not None:
                label = self._sender(event.message)
                if label is not None:
                    self._render_message(event.message, label)
                self._remember(event.message)
            elif event.kind == "edited" and event.message is not None:
                if last_edit[(event.chat_id, event.message_id)] == event.seq:
                    self._render_edit(event.message)
                    self._remember(event.message)
            elif event.kind == "deleted":
                self.say(f"{self._where(event.chat_id)}(the bot deleted message #{event.message_id})")
                self._shown.pop((event.chat_id, event.message_id or 0), None)
            elif event.kind == "poll":
                self._render_poll(event)
            elif event.kind == "callback_answer" and self._answer_for_me(event):
                style = "alert" if event.raw.get("show_alert") else "notice"
                self.say(f"{self._where(event.chat_id)}bot ({style})> {event.raw['text']}")

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            events = await self.client.events(after=self._after, timeout=_WATCH_TIMEOUT)
            if not events:
                continue
            self._after = events[-1].seq
            if any(self._relevant(event) for event in events):
                self._activity += 1
                self._last_activity = loop.time()
            self.render(events)

    async def wait_until_quiet(self) -> None:
        """After an action: wait for the bot's first reaction, then until it has been quiet for a moment."""
        loop = asyncio.get_running_loop()
        start, baseline = loop.time(), self._activity
        while True:
            await asyncio.sleep(0.05)
            now = loop.time()
            if now - start >= self.max_wait:
                return
            if self._activity == baseline:
                if now - start >= self.first_reply_timeout:
                    return
            elif now - self._last_activity >= self.quiet:
                return

    async def run(self, stdin: TextIO, user: str) -> int:
        self._after = int((await self.client.bot_info())["last_seq"])
        bot = await self.client.bot()
        self.say(f"examforge console — chatting with @{bot.username}. Type /start; :help lists the keys.")
        await self.act_as(user)
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        _read_lines(stdin, loop, lines)
        watcher = asyncio.create_task(self.watch(), name="console-watch")
        try:
            while (line := await lines.get()) is not None:
                if watcher.done():
                    break
                text = line.strip()
                if not text:
                    continue
                if not self.interactive:
                    self.say(f"you> {text}")
                try:
                    outcome = await self.handle(text)
                except (EmulatorError, LookupError) as error:
                    self.say(f"(! {getattr(error, 'description', error)})")
                    continue
                if outcome is None:
                    break
                if outcome and not self.interactive:
                    await self.wait_until_quiet()
        finally:
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)
        if watcher.done() and not watcher.cancelled() and watcher.exception() is not None:
            self.say(f"(lost the emulator: {watcher.exception()})")
            return 1
        return 0


async def run_console(
    base_url: str,
    user: str = "learner",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    *,
    interactive: bool | None = None,
    quiet: float = 1.0,
    first_reply_timeout: float = 20.0,
    max_wait: float = 120.0,
    save_folder: Path = Path("var") / "received",
) -> int:
    """Chat as `user` with the bot behind the emulator at `base_url` (root, …/bot or …/_emu); exit code.
    `:save` writes files to `save_folder` unless given another."""
    source = stdin or sys.stdin
    sink = stdout or sys.stdout
    is_tty = source.isatty() if interactive is None else interactive
    async with EmulatorClient(base_url) as client:
        console = Console(
            client,
            sink,
            interactive=is_tty,
            quiet=quiet,
            first_reply_timeout=first_reply_timeout,
            max_wait=max_wait,
            save_folder=save_folder,
        )
        try:
            return await console.run(source, user)
        except (OSError, EmulatorError) as error:
            sink.write(f"cannot talk to the emulator at {base_url}: {error}\n")
            return 1


def _shown_as(message: ChatMessage) -> tuple[object, ...]:
    return (message.chat_id, message.message_id, message.body, tuple(message.buttons))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.console", description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8081", help="the emulator (default: %(default)s)")
    parser.add_argument("--user", default="learner", help="who you are (default: %(default)s)")
    parser.add_argument(
        "--quiet", type=float, default=1.0, help="piped input: seconds of bot silence per line"
    )
    args = parser.parse_args(argv)
    try:
        return asyncio.run(run_console(args.url, args.user, quiet=args.quiet))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
