"""/stats numbers: accuracy overall and per chapter, chapters never practised, the last 30 days and streaks
in the learner's own time zone — checked through the text the learner reads."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from progress.stats import DAYS, learner_stats
from progress.summary import stats_text
from retrieval.sources import Sources
from storage import Store
from tests.test_progress_support import BASICS, CONTRACTS, DAY, TAXES, answer_new, learner
from tests.test_storage_support import MONDAY_10AM_SHANGHAI, Clock

SHANGHAI = "Asia/Shanghai"


def shanghai(year: int, month: int, day: int, hour: int, minute: int = 0) -> float:
    return datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(SHANGHAI)).timestamp()


async def test_per_chapter_accuracy_weakest_first_and_unpractised_chapters(
    store: Store, clock: Clock, sample_sources: Sources
) -> None:
    await learner(store)
    for chapter, results in ((TAXES, [1, 0, 0, 0]), (BASICS, [1, 1]), (CONTRACTS, [1, 0, 1])):
        for correct in results:
            await answer_new(store, clock, chapter, bool(correct))
    tree = [c.key for c in sample_sources.tree.chapters if c.slices]

    stats = await learner_stats(store, 11, tree, SHANGHAI)

    assert [(c.chapter, c.correct, c.answered) for c in stats.chapters] == [
        (TAXES, 1, 4),
        (CONTRACTS, 2, 3),
        (BASICS, 2, 2),
    ]
    assert len(stats.unpractised) == len(tree) - 3 and TAXES not in stats.unpractised
    assert stats.unpractised[0] == ("第一篇 行业与经纪基础", "第一章 房地产经纪行业概述")
    lines = stats_text(stats, "zh").splitlines()
    assert lines[1] == "已答 9 题，答对 5 题，正确率 56%"
    chapters = lines.index("各章正确率（由弱到强）：")
    assert lines[chapters + 1 : chapters + 4] == [
        "· 第七章 买方税费：1/4（25%）",
        "· 第五章 存量房买卖合同：2/3（67%）",
        "· 第二章 房地产基础知识：2/2（100%）",
    ]
    unpractised = lines[-1]
    assert unpractised.startswith("尚未练习的章节：第一章 房地产经纪行业概述、第三章 房源开发与核验")
    assert "第七章" not in unpractised and "第十六章 规划指标" in unpractised


async def test_days_and_streaks_follow_the_learners_time_zone(store: Store, clock: Clock) -> None:
    await learner(store)
    # Shanghai days 2, 3, 4, 6, 7 March; 07:30 on the 3rd is still the 2nd in UTC.
    for moment in (
        shanghai(2026, 3, 2, 10),
        shanghai(2026, 3, 3, 7, 30),
        shanghai(2026, 3, 4, 12),
        shanghai(2026, 3, 6, 20),
        shanghai(2026, 3, 7, 9),
    ):
        await answer_new(store, clock, TAXES, True, at=moment)
    clock.now = shanghai(2026, 3, 7, 22)

    stats = await learner_stats(store, 11, [TAXES], SHANGHAI)
    assert (stats.current_streak, stats.best_streak) == (2, 3)
    assert [d.day for d in stats.days if d.answered] == [date(2026, 3, d) for d in (2, 3, 4, 6, 7)]
    assert "连续练习：当前 2 天，最长 3 天" in stats_text(stats, "zh")

    in_utc = await learner_stats(store, 11, [TAXES], "UTC")
    assert [(d.day.day, d.answered) for d in in_utc.days if d.answered] == [(2, 2), (4, 1), (6, 1), (7, 1)]
    assert in_utc.best_streak == 2

    clock.now = shanghai(2026, 3, 8, 9)  # today not practised yet: the streak is still alive
    assert (await learner_stats(store, 11, [TAXES], SHANGHAI)).current_streak == 2
    clock.now = shanghai(2026, 3, 9, 9)  # a whole day missed
    stats = await learner_stats(store, 11, [TAXES], SHANGHAI)
    assert (stats.current_streak, stats.best_streak) == (0, 3)


async def test_last_30_days_end_today_and_older_answers_count_only_in_totals(
    store: Store, clock: Clock
) -> None:
    await learner(store)
    await answer_new(store, clock, TAXES, False, at=MONDAY_10AM_SHANGHAI - 40 * DAY)
    await answer_new(store, clock, TAXES, True, at=MONDAY_10AM_SHANGHAI - 2 * DAY)
    await answer_new(store, clock, BASICS, True, at=MONDAY_10AM_SHANGHAI)

    stats = await learner_stats(store, 11, [TAXES, BASICS], SHANGHAI)

    assert len(stats.days) == DAYS
    assert (stats.days[0].day, stats.days[-1].day) == (date(2026, 2, 1), date(2026, 3, 2))
    assert [(d.day.day, d.answered, d.correct) for d in stats.days if d.answered] == [(28, 1, 1), (2, 1, 1)]
    text = stats_text(stats, "zh")
    assert "已答 3 题，答对 2 题，正确率 67%" in text
    assert "近 30 天：答题 2 道，练习 2 天，正确率 100%" in text


async def test_english_text_counts_in_the_singular_and_plural(store: Store, clock: Clock) -> None:
    await learner(store)
    await answer_new(store, clock, TAXES, True)
    one = stats_text(await learner_stats(store, 11, [TAXES], SHANGHAI), "en")
    assert "Answered 1 question, 1 right: 100%" in one
    await answer_new(store, clock, TAXES, False)
    two = stats_text(await learner_stats(store, 11, [TAXES], SHANGHAI), "en")
    assert "Answered 2 questions, 1 right: 50%" in two
    assert "· 第七章 买方税费: 1/2 (50%)" in two


async def test_no_answers_yet_gives_the_text_fallback(store: Store) -> None:
    await learner(store)
    stats = await learner_stats(store, 11, [TAXES, BASICS], SHANGHAI)
    assert not stats.has_data
    assert stats.unpractised == (TAXES, BASICS)
    assert stats_text(stats, "zh") == "还没有答题记录。发送 /quiz 开始练习，统计会显示在这里。"
    assert stats_text(stats, "en").startswith("No answers yet.")
