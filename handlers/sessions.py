"""Starting a learner's private session from Telegram: the /quiz dialogue's choice, 再来一轮, and /review.
The session itself runs in the sessions engine (engines/sessions.py); what is decided here needs the
learner's progress (progress/): which questions are due, which past questions come next."""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import replace

from telegram.ext import Application, ContextTypes

from engines.i18n import plural, text
from engines.sessions import Shown
from engines.state import BotState
from graph.authors.base import AuthorError
from handlers.context import state
from progress.origins import case_key
from progress.pastpapers import NoPastQuestionsError, papers_of, store_past
from progress.preferences import learner_zone
from progress.review import due_questions, outlook
from progress.summary import outlook_text
from storage.quiz_settings import QuizSettings
from vocabulary.records import GenerationRequest

log = logging.getLogger(__name__)


async def start_session(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int, chosen: QuizSettings, summary: Shown
) -> None:
    """`summary`: the dialogue's message with the chosen settings, where the first status is written."""
    found = state(context)
    if chosen.qtype == "case":
        await start_case(found, chat_id, user_id, chosen)
        return
    if chosen.source == "past_papers":
        await start_past_papers(found, chat_id, user_id, chosen)
        return
    await found.sessions.start(chat_id, user_id, chosen, summary)


async def start_case(found: BotState, chat_id: int, user_id: int, chosen: QuizSettings) -> None:
    """案例题: a case written on one of the chosen chapters that can carry one, its sub-questions stored as
    the chat's questions (so they are graded, counted, reviewed and reported like any other) and fixed for
    the session, whose first poll comes after the situation."""
    locale = await found.sessions.locale(user_id)
    generation = found.generation
    chapters = await asyncio.to_thread(generation.case_chapters, [tuple(c) for c in chosen.chapters] or None)
    if not chapters:
        await found.sessions.sender.text(chat_id, text(locale, "case_unavailable"))
        return
    # Another case each time, on any of the chapters.
    rng = random.Random(f"{user_id}/{found.store.db.now()}")
    chapter, seed = rng.choice(chapters), rng.randrange(1 << 30)
    try:
        case = await asyncio.to_thread(generation.write_case, chapter, chosen.mode, seed)
    except AuthorError as exc:
        log.info("no case for chat %s: %s", chat_id, exc)
        await found.sessions.sender.text(chat_id, text(locale, "case_declined", chapter=chapter[-1]))
        return
    versions = []
    for number, question in enumerate(case.questions, start=1):
        request = GenerationRequest(
            chat_id=chat_id,
            question_id=case_key(seed, number),
            qtype=question.qtype,
            mode=chosen.mode,
            chapters=[list(chapter)],
        )
        stored = question.model_copy(update={"case": case.situation})
        versions.append((await found.store.questions.record(request, stored)).id)
    fixed = replace(chosen, count=len(versions), versions=tuple(versions))
    await found.sessions.start(chat_id, user_id, fixed, None)


async def start_past_papers(found: BotState, chat_id: int, user_id: int, chosen: QuizSettings) -> None:
    """真题练习: the bank's questions for the chosen chapters and type, stored as the chat's questions (so
    they are graded, counted and reviewed like any other) and fixed for the session when it starts."""
    locale = await found.sessions.locale(user_id)
    papers = await asyncio.to_thread(papers_of, found.settings.data.question_bank, found.sources)
    chapters = {tuple(c) for c in chosen.chapters} or None
    try:
        items = await papers.pick(
            found.store,
            chat_id,
            chapters,
            chosen.qtype,
            chosen.count,
            calculation_only=chosen.calculation_only,
            difficulty=chosen.difficulty,
            # Equally fresh questions come in another order each time.
            seed=f"{user_id}/{found.store.db.now()}",
        )
    except NoPastQuestionsError as exc:
        log.info("no past questions for chat %s: %s", chat_id, exc)
        await found.sessions.sender.text(chat_id, text(locale, "past_papers_none"))
        return
    versions = [
        (await store_past(found.store, chat_id, past)).id for item in items for past in item.questions
    ]
    fixed = replace(chosen, count=len(versions), versions=tuple(versions))
    await found.sessions.start(chat_id, user_id, fixed, None)


async def start_review(app: Application, chat_id: int, user_id: int, locale: str) -> None:
    """错题重练: the learner's due questions as a session of their own (each as its latest version, so a
    published revision replaces what was missed), or when the next one comes due."""
    found: BotState = state(app)
    due = await due_questions(found.store, user_id)
    if not due:
        zone = learner_zone(await found.store.preferences.get(user_id))
        await found.sessions.sender.text(
            chat_id, outlook_text(await outlook(found.store, user_id), locale, zone)
        )
        return
    versions = tuple(d.version.id for d in due)
    revised = sum(d.revised for d in due)
    intro = plural(locale, "review_started", len(versions))
    if revised:
        intro = f"{intro}\n{plural(locale, 'review_revised', revised)}"
    await found.sessions.sender.text(chat_id, intro)
    chosen = QuizSettings(count=len(versions), source="review", versions=versions)
    await found.sessions.start(chat_id, user_id, chosen, None)


async def repeat_session(app: Application, session_id: int, user_id: int, locale: str) -> bool:
    """再来一轮: a new session with a finished one's settings, no dialogue. A review or past-paper session is
    repeated by choosing again (what is due now, the bank's next questions), not with the same questions.
    False if the session is not the user's."""
    found: BotState = state(app)
    done = await found.store.sessions.get(session_id)
    if done is None or done.user_id != user_id:
        return False
    if done.settings.source == "review":
        await start_review(app, done.chat_id, user_id, locale)
        return True
    chosen = replace(done.settings, versions=())
    if chosen.qtype == "case":
        await start_case(found, done.chat_id, user_id, chosen)
        return True
    if chosen.source == "past_papers":
        await start_past_papers(found, done.chat_id, user_id, chosen)
        return True
    body = text(locale, "repeat_started", number=1, count=chosen.count)
    sent = await found.sessions.sender.text(done.chat_id, body)
    await found.sessions.start(done.chat_id, user_id, chosen, Shown(sent, body))
    return True
