"""The steps of a procedure → 灵活 case: the parties have done the first steps, and the question is what
comes next. "买方周某与卖方吴某办理存量房买卖，周某不需要贷款。先是买卖双方签订房屋买卖合同并办理网签，随后
买方将购房资金存入资金监管账户。按照存量房买卖的一般办理顺序，接下来的环节是（　）" — which steps the case
tells done decides the key, and every option is a step still to come (a step the case already tells done
would be ruled out on sight).

A step only some cases take ("需要贷款的，买方申请贷款…") makes the case's detail decide: the case says
whether its party has the need, the question is asked where that step stands, and without the need the
step is passed over and offered as the tempting wrong answer. The case tells only what was done: no visit
to the brokerage to ask, no date.

Only a list the source gives in order is told ("一般办理顺序是：（1）…（2）…", "程序依次为…"), only when its
name says what is being done ("存量房买卖"), and only when its steps are acts ("买方将购房资金存入…"): bare
stage names ("申请、受理、审核") are what an office does with an application, not something to ask a party.
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


@dataclass(frozen=True)
class Case:
    """Who does the procedure and the steps that apply to them: a step with a condition ("需要贷款的，…")
    is on their way only when the case says the condition holds; when it says it does not, the step is
    skipped, and offering it is a mistake only the case's detail reveals."""

    who: str  # 买方周某与卖方吴某
    told: str  # 双方
    need: str  # 周某需要贷款 / 周某不需要贷款, or empty
    route: tuple[str, ...]
    decides: int  # the key whose answer the need decides: where the conditional step stands, or -1
    skipped: str  # the step the case's detail rules out, or empty
    skipped_at: int = 0  # its place in the textbook's list

    def ruled_out(self, at: int) -> bool:
        """Whether the ruled-out step would have come at or after the key, so that offering it as the next
        step is a mistake only the case's need reveals."""
        return bool(self.skipped) and len(_done(self.skipped)) <= O.OPTION_MAX and self.skipped_at >= at


def _condition(steps: tuple[str, ...]) -> tuple[int, str, str] | None:
    """The one step opening with a need ("需要贷款的，买方申请贷款…"): its place, the need and whose it is."""
    found = [(i, _CONDITIONAL.match(step)) for i, step in enumerate(steps)]
    found = [(i, m) for i, m in found if m]
    if len(found) != 1:
        return None
    at, match = found[0]
    need = match.group().removesuffix("的，")
    party = next((p for p in _PARTIES if steps[at][match.end() :].startswith(p)), "")
    if not need.startswith("需要") or party not in ("买方", "卖方"):
        return None
    return at, need, party


def _cast(found: Procedure, rng: random.Random) -> Case:
    """The parties, and whether the need of a conditional step holds for them (decided at random)."""
    first = scenes.plain_name(rng)
    if any(party in step for step in found.steps for party in _PARTIES):
        second = scenes.plain_name(rng, {first})
        who, told, names = f"买方{first}与卖方{second}", "双方", {"买方": first, "卖方": second}
    else:
        who = told = scenes.person(rng)
        names = {}
    steps = found.steps
    condition = _condition(steps)
    if condition is None or not names:
        return Case(who, told, "", tuple(s for s in steps if not _CONDITIONAL.match(s)), -1, "")
    at, need, party = condition
    if rng.random() < 0.5:
        return Case(who, told, f"{names[party]}{need}", tuple(_done(s) for s in steps), at, "")
    route = steps[:at] + steps[at + 1 :]
    return Case(who, told, f"{names[party]}不{need}", route, at, steps[at], at)


def _events(done: list[str]) -> str:
    """What the parties did, told as events in the order they happened."""
    if len(done) == 1:
        return done[0]
    links = ["先是", *(("接着", "然后")[i % 2] for i in range(len(done) - 2)), "随后"]
    return "，".join(link + step for link, step in zip(links, done, strict=True))


def _story(case: Case, found: Procedure, at: int) -> str:
    """The case up to the question: who, the need that decides a conditional step, and the first `at`
    steps of their route told as done. No date, and no visit to ask: the steps done are the case."""
    need = f"，{case.need}" if case.need else ""
    return f"{case.who}办理{found.topic}{need}。{_events(list(case.route[:at]))}。"


def _order(found: Procedure, case: Case) -> str:
    order = f"按照{found.name}，依次为：{'；'.join(found.steps)}。"
    if case.skipped:
        order += f"本案{case.need}，“{_done(case.skipped)}”一步不必办理。"
    return order


def _judge(found: Procedure, case: Case, at: int, rng: random.Random) -> Written | None:
    """The broker names the next step: the right one, or a later one (a step skipped), or the step the
    case's need rules out. Only steps said in one clause are named, so the statement reads as one claim."""
    route = case.route
    if "，" in route[at]:
        return None
    wrong = [step for step in route[at + 1 :] if "，" not in step]
    if case.ruled_out(at):
        wrong = [_done(case.skipped), *wrong]
    truth = not wrong or rng.random() < 0.5
    said = route[at] if truth else wrong[0]
    broker = scenes.plain_name(rng, set(re.findall(r"[\u4e00-\u9fff]某", case.who)))
    told = f"经纪人员{broker}告诉{case.told}，按照{found.name}，接下来的环节是{said}。（　）"
    stem = _story(case, found, at) + told
    key = route[at]
    if truth:
        why = f"接下来的环节正是“{key}”，{broker}的说法正确。"
    elif said == _done(case.skipped):
        why = f"本案{case.need}，接下来的环节是“{key}”，{broker}的说法错误。"
    else:
        why = f"接下来的环节是“{key}”，“{said}”应当在其后办理，{broker}的说法错误。"
    lead = f"{_order(found, case)}本案已经完成前{at}项，"
    return O.judge([found.fact.id], stem, truth, lead + why, [found.fact.source], difficulty=0.5)


def _later(steps: tuple[str, ...], at: int) -> list[str]:
    """The steps after the key short enough to be options."""
    return [step for step in steps[at + 1 :] if len(step) <= O.OPTION_MAX]


class NextStep:
    name = "next_step"
    kinds: tuple[FactKind, ...] = ("enumeration",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype not in self.qtypes:
            return None
        found = procedure(fact)
        if found is None or len(found.steps) > _STEPS_MAX:
            return None
        if all(len(step) <= _BARE_MAX for step in found.steps):
            return None  # stages named ("申请、受理"), not acts a party does: no case to tell
        rng = brief.rng
        case = _cast(found, rng)
        route = case.route
        if brief.task.qtype == "multi":
            return _still(found, case, rng)
        # the key: a step after at least one done step and before two more; a single also needs three
        # later steps (or the step the case rules out), since a step told done would be ruled out on sight
        needed = 3 if brief.task.qtype == "single" else 2
        keys = [
            at
            for at in range(1, len(route) - 1)
            if len(route[at]) <= O.OPTION_MAX and len(_later(route, at)) + case.ruled_out(at) >= needed
        ]
        if not keys:
            return None
        at = case.decides if case.decides in keys else rng.choice(keys)  # where the need decides, if it can
        if brief.task.qtype == "judge":
            return _judge(found, case, at, rng)
        key = route[at]
        choices = [O.Option(key, True, f"“{key}”紧接在已经完成的“{route[at - 1]}”之后")]
        if case.ruled_out(at):
            choices.append(
                O.Option(_done(case.skipped), False, f"本案{case.need}，不办理“{_done(case.skipped)}”这一步")
            )
        for step in _later(route, at)[: 4 - len(choices)]:
            choices.append(O.Option(step, False, f"“{step}”应当在“{key}”之后办理"))
        stem = f"{_story(case, found, at)}按照{found.name}，接下来的环节是（　）。"
        return O.choice(
            [fact.id],
            "single",
            stem,
            O.arrange(choices, rng),
            [fact.source],
            lead=f"{_order(found, case)}本案已经完成前{at}项，接下来的环节是“{key}”。",
            difficulty=0.5,
        )


def _still(found: Procedure, case: Case, rng: random.Random) -> Written | None:
    """Which steps the parties still have to take: those of their route after what the case tells done,
    offered beside the step the case's need rules out. A step the case tells done is never offered (the
    stem alone would strike it), so without a need that rules a step out there is no question to ask."""
    if not case.skipped:
        return None
    route = case.route
    starts = [
        at for at in range(1, case.skipped_at + 1) if case.ruled_out(at) and len(_later(route, at - 1)) >= 4
    ]
    if not starts:
        return None
    at = max(starts)
    keyed = rng.sample(_later(route, at - 1), 4)
    skipped = _done(case.skipped)
    choices = [O.Option(step, True, f"“{step}”：本案尚未办理，还需要办理") for step in keyed]
    choices.append(O.Option(skipped, False, f"“{skipped}”：本案{case.need}，不办理这一步"))
    stem = f"{_story(case, found, at)}按照{found.name}，{case.told}还需要办理的环节有（　）。"
    return O.choice(
        [found.fact.id],
        "multi",
        stem,
        O.arrange(choices, rng),
        [found.fact.source],
        lead=f"{_order(found, case)}本案已经完成前{at}项。",
        difficulty=0.5,
    )


RECIPE = NextStep()
