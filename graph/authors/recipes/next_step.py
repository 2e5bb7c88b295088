"""The steps of a procedure → 灵活 case: the parties have done the first steps, and the question is what
comes next. "买方周某与卖方吴某办理存量房买卖，先是买卖双方签订房屋买卖合同并办理网签，
随后买方将购房资金存入资金监管账户。…按照存量房买卖的一般办理顺序，接下来的环节是（　）" — which steps the
case tells done decides the key, and every option is a step still to come (a step the case already tells
done would be ruled out on sight).

Only a list the source gives in order is told ("一般办理顺序是：（1）…（2）…", "程序依次为…"), and only when
its name says what is being done ("存量房买卖", "不动产登记"); a step the case would have to meet a
condition for ("需要贷款的，…") is never the key, since the case would have to say whether it holds.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_ORDERED = re.compile(r"顺序|程序|流程|步骤")
_IN_ORDER = re.compile(r"依次|[（(]1[)）]|①|顺序|流程|程序")
_NAME_END = re.compile(r"的?(?:一般)?(?:办理)?(?:顺序|程序|流程|步骤)(?:依次|一般)?(?:为|是)?$")
_CONDITIONAL = re.compile(r"^[^，]{2,12}的，")
_TOPIC_MIN = 4
_STEPS_MIN = 4
_BARE_MAX = 4  # "申请", "受理": a stage named, not an act told
_PARTIES = ("买方", "卖方", "买卖双方")
_STEPS_MAX = 9


@dataclass(frozen=True)
class Procedure:
    fact: Fact
    name: str  # 存量房买卖的一般办理顺序
    topic: str  # 存量房买卖
    steps: tuple[str, ...]


def procedure(fact: Fact) -> Procedure | None:
    """The fact as a procedure told in order, or None (not ordered, or its name says nothing a case does)."""
    if fact.kind != "enumeration" or not _ORDERED.search(fact.subject):
        return None
    intro = fact.source.split("：", 1)[0]
    if not _IN_ORDER.search(fact.source):
        return None
    name = re.sub(r"(?:依次|一般)?(?:为|是)?$", "", fact.subject)
    topic = _NAME_END.sub("", fact.subject)
    if len(topic) < _TOPIC_MIN or not O.is_name(topic) or re.search(r"时|和|按", topic) or "，" in intro[-4:]:
        return None
    steps = tuple(O.clean_item(step) for step in fact.items)
    if len(steps) < _STEPS_MIN or len(set(map(O.key, steps))) < len(steps):
        return None
    return Procedure(fact, name, topic, steps)


def _done(step: str) -> str:
    """A step as the case reports it done: without the condition it had ("需要贷款的，买方申请贷款…")."""
    return _CONDITIONAL.sub("", step)


def _who(steps: tuple[str, ...], rng: random.Random) -> str:
    first = scenes.plain_name(rng)
    if any(party in step for step in steps for party in _PARTIES):
        return f"买方{first}与卖方{scenes.plain_name(rng, {first})}"
    return scenes.person(rng)


def _events(done: list[str]) -> str:
    """What the parties did, told as events: bare step names ("申请、受理") as stages finished, clauses in
    the order they happened."""
    if all(len(step) <= _BARE_MAX and "，" not in step for step in done):
        return f"{'、'.join(done)}环节已经办完"
    if len(done) == 1:
        return done[0]
    links = ["先是", *(("接着", "然后")[i % 2] for i in range(len(done) - 2)), "随后"]
    return "，".join(link + step for link, step in zip(links, done, strict=True))


def _case(found: Procedure, at: int, rng: random.Random) -> tuple[str, str]:
    """The case up to the question, with the first `at` steps told as done, and who the parties are. No
    date: when things happened decides nothing here."""
    who = _who(found.steps, rng)
    told = "双方" if "与" in who else who
    events = _events([_done(step) for step in found.steps[:at]])
    return f"{who}办理{found.topic}，{events}。之后{told}来到经纪门店，询问后续手续。", who


def _order(found: Procedure) -> str:
    return f"按照{found.name}，依次为：{'；'.join(_done(step) for step in found.steps)}。"


def _judge(found: Procedure, at: int, rng: random.Random) -> Written | None:
    """The broker names the next step: the right one, or a later one (a step skipped). Only steps said in
    one clause are named, so the statement reads as one claim."""
    if "，" in found.steps[at]:
        return None
    skipped = [step for step in found.steps[at + 1 :] if "，" not in step]
    truth = not skipped or rng.random() < 0.5
    said = found.steps[at] if truth else skipped[0]
    case, who = _case(found, at, rng)
    broker = scenes.plain_name(rng, set(re.findall(r"[\u4e00-\u9fff]某", who)))
    told = "双方" if "与" in who else who
    stem = f"{case}经纪人员{broker}告诉{told}，按照{found.name}，接下来的环节是{said}。（　）"
    key = found.steps[at]
    if truth:
        why = f"接下来的环节正是“{key}”，{broker}的说法正确。"
    else:
        why = f"接下来的环节是“{key}”，“{said}”应当在其后办理，{broker}的说法错误。"
    lead = f"{_order(found)}本案已经完成前{at}项，"
    return O.judge([found.fact.id], stem, truth, lead + why, [found.fact.source], difficulty=0.5)


def _later(steps: tuple[str, ...], at: int) -> list[str]:
    """The steps after the key short enough to be options."""
    return [step for step in steps[at + 1 :] if len(step) <= O.OPTION_MAX]


class NextStep:
    name = "next_step"
    kinds: tuple[FactKind, ...] = ("enumeration",)
    qtypes: tuple[QuestionType, ...] = ("single", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype not in self.qtypes:
            return None
        found = procedure(fact)
        if found is None or len(found.steps) > _STEPS_MAX:
            return None
        rng = brief.rng
        steps = found.steps
        # the key: a step with no condition of its own, after at least one done step and before two more;
        # a single also needs three later steps, since a step the case tells done would be ruled out on sight
        needed = 3 if brief.task.qtype == "single" else 2
        keys = [
            at
            for at in range(1, len(steps) - 2)
            if not _CONDITIONAL.match(steps[at])
            and len(steps[at]) <= O.OPTION_MAX
            and len(_later(steps, at)) >= needed
        ]
        if not keys:
            return None
        at = rng.choice(keys)
        later = _later(steps, at)
        if brief.task.qtype == "judge":
            return _judge(found, at, rng)
        case, _ = _case(found, at, rng)
        stem = f"{case}按照{found.name}，接下来的环节是（　）。"
        key = steps[at]
        choices = [O.Option(key, True, f"“{key}”紧接在已经完成的“{_done(steps[at - 1])}”之后")]
        for step in later[:3]:
            choices.append(O.Option(step, False, f"“{_done(step)}”应当在“{key}”之后办理"))
        return O.choice(
            [fact.id],
            "single",
            stem,
            O.arrange(choices, rng),
            [fact.source],
            lead=f"{_order(found)}本案已经完成前{at}项，接下来的环节是“{key}”。",
            difficulty=0.5,
        )


RECIPE = NextStep()
