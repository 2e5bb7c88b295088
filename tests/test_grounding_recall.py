"""Grounding's recall on the way past papers word things: a statement that turns round the textbook's modal
while wording the act a little differently, a scene told before the statement, a frame that names the
option last. Each case here was unknown before the rule it names."""

from __future__ import annotations

from types import SimpleNamespace

from graph.context import KnowledgeIndex
from graph.grounding import ground_question
from retrieval.facts import FactBase
from retrieval.models import Slice
from tests.test_grounding import choice, judge

WALLS = Slice(
    id="walls",
    path=("第一篇 房屋", "第一章 建筑结构", "第二节 砖混结构"),
    mastery="掌握",
    text="砖混结构住宅的承重墙关系到整栋楼的结构安全，业主不能为了扩大客厅等装修需要自行拆除。",
)
WITNESSES = Slice(
    id="witnesses",
    path=("第一篇 权利", "第二章 继承", "第三节 遗嘱的形式"),
    mastery="掌握",
    text="代书遗嘱、打印遗嘱、录音录像遗嘱都应当有两个以上见证人在场见证。",
)
SLICES = [WALLS, WITNESSES]
LIBRARY = SimpleNamespace(knowledge=KnowledgeIndex(SLICES), facts=FactBase(()))


def verdicts(question, slice_: Slice) -> list[str]:
    return [f.verdict for f in ground_question(question, slice_, LIBRARY).statements]


def test_a_permission_on_the_act_the_textbook_forbids_is_contradicted_though_worded_differently():
    """The permission "可以根据装修需要自行拆除" against "不能为了扩大客厅等装修需要自行拆除": its own words
    stand inside the act, the doer is the same, so the permission contradicts."""
    scene = "客户赵某打算买下砖混结构的住宅后拆除承重墙以扩大客厅。"
    statement = f"{scene}经纪人员告诉赵某，砖混结构的承重墙可以根据装修需要自行拆除"
    found = ground_question(judge(statement, "B", WALLS), WALLS, LIBRARY)
    assert [f.verdict for f in found.statements] == ["contradicted"]
    assert found.statements[0].reason == "不能→可以"
    assert not found.issues(strict=True)  # keyed 错误: the key agrees with the textbook


def test_a_scene_told_before_the_statement_with_one_article_figure_is_no_other_case():
    """ "一套" of the scene, repeated where the statement is read with its stem, is one figure, not the
    several figures of another case."""
    scene = "客户赵某看中一套砖混结构的多层住宅，打算买下后拆除承重墙以扩大客厅。"
    statement = f"{scene}经纪人员告诉赵某，砖混结构的承重墙可以根据装修需要自行拆除"
    assert verdicts(judge(statement, "B", WALLS), WALLS) == ["contradicted"]


def test_the_option_a_frame_names_last_is_another_thing_not_the_act_turned_round():
    question = choice(
        "下列遗嘱中，无需两个以上见证人在场见证的是（　）。", ["自书遗嘱", "代书遗嘱"], "A", WITNESSES
    )
    assert verdicts(question, WITNESSES)[0] != "contradicted"


SHARED = Slice(
    id="shared",
    path=("第一篇 房屋", "第二章 房屋面积", "第三节 共有建筑面积"),
    mastery="掌握",
    text="不得分摊的建筑面积主要有：（1）作为独立使用的地下室、车棚、车库；（2）作为人防工程的地下室。",
)


def test_a_prohibition_put_before_the_act_in_another_word_order_is_the_same_prohibition():
    """ "不得作为共有建筑面积分摊的有" asks what the lead "不得分摊的建筑面积主要有" lists: the 不得 stands a
    few words earlier, on the same act."""
    library = SimpleNamespace(knowledge=KnowledgeIndex([SHARED]), facts=FactBase(()))
    question = choice(
        "下列建筑面积中，不得作为共有建筑面积分摊的有（　）。",
        ["作为人防工程的地下室", "电梯井"],
        "A",
        SHARED,
    )
    found = ground_question(question, SHARED, library).statements
    assert found[0].verdict == "supported"
    assert found[1].verdict != "supported"
