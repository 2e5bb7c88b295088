"""A list of papers a party must hand in → 灵活 case: the broker checks what the parties have brought,
and the question is what they still lack. "买方周某与卖方吴某因买卖申请房屋转移登记，经纪人员郑某帮双方核对
材料，双方带来了不动产登记申请书、申请人的身份证明和房屋买卖合同。按照规定，…一般应当提交的材料还包括（　）"
— the papers the case names decide the key, so a learner who knows the list but does not read the case
cannot answer. The question closes in the textbook's own words, hedge included ("一般应当提交"), so the
critic can ground the key in the list.

Only papers are told: a paper left at home is an oversight a broker meets every week, while a contract
that leaves out a required clause, or a notice board short of an item, is a list recalled in a case's
dress. Identity papers and the application form are always among what was brought (no one applies
without them). A judge that nothing is lacking is asked only of a list with no catch-all item ("其他材料"),
since with one "齐全" could never be settled. Distractors are papers other sentences have someone hand in
that share no wording with any item of this list, so none of them is required here too.
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

# A list of papers someone must hand in, as the source introduces it:
# "因买卖申请房屋转移登记的，买卖双方一般应当提交下列材料".
_INTRO = re.compile(
    r"^(?:(?P<lead>[^，。]{4,30}?)的，)?(?P<head>[^，。：]{2,40}?)"
    r"(?:一般|通常|主要)?(?:应当|需要|要|须|应)?(?P<verb>提交|提供|携带)(?:下列|以下)材料$"
)
_MODAL = re.compile(r"^(?:及其分支机构)?(?:一般|通常|主要)?(?:应当|需要|要|须|应)")
# A paper a party hands in, as textbooks name one ("授权委托书", "户口簿", "完税凭证").
_KINDS_OF_PAPER = r"(?:证明|证书|委托书|申请书|确认书|协议书|凭证|户口簿|结婚证|公证书|判决书)"
# Only a paper the sentence has someone hand in counts ("出示执业证明" in passing does not).
_PAPER = re.compile(
    r"(?:提交|提供|出具|携带|持有|交付|签署|填写)(?:[^，。；：]{0,8}?的)?([\u4e00-\u9fff]{2,10}?"
    + _KINDS_OF_PAPER
    + ")(?![\u4e00-\u9fff])"
)
_ADD_ON = re.compile(r"还需|还应|另需|也需|同时提交|并提交|一并提交")
_PAPER_KIND = re.compile(_KINDS_OF_PAPER + "$")
_PAPER_BREAK = re.compile(r"的|和|或|及|并|等|、")
_PAPER_MAX = 12
_ITS = re.compile(r"及其[\u4e00-\u9fff]{2,6}?(?=一般|通常|主要|应当|需要|要|须|应)")
_POINTER = re.compile(r"该|此|这|其")
_CATCH_ALL = re.compile(r"其他|其它|等$")
# A sentence's opening condition: "代理人申请登记的，", "申请继承登记时，".
_CONDITION = re.compile(r"^([^，,。]{4,20}?)(?:的|时)[，,]")
_NAMED = re.compile(r"[\u4e00-\u9fff]某")  # a party named in the case, so a new one gets another name
_STEM_LIST_MAX = 120
_ITEM_MIN = 4
# Papers no one applies without: never the one a case leaves out.
_ALWAYS_BROUGHT = re.compile(r"身份|申请书")


@dataclass(frozen=True)
class Checklist:
    """A list of papers as a case can tell it: who must hand them in, and the papers the case may leave
    out."""

    fact: Fact
    items: tuple[str, ...]
    required: str  # the list as the question names it, without the condition the story already tells:
    # 买卖双方一般应当提交的材料
    head: str  # who must hand them in, with the hedge the source has ("买卖双方一般应当")
    lead: str  # the condition before them ("因买卖申请房屋转移登记"), or empty
    closed: bool  # the source's list has no catch-all item ("其他材料"), so it can be complete


def checklist(fact: Fact) -> Checklist | None:
    """The fact as a list of papers someone must hand in, or None (a classification, a list of situations
    or contents, a fragment)."""
    if fact.kind != "enumeration":
        return None
    intro = fact.source.split("：", 1)[0].split("。")[-1]
    found = _INTRO.match(intro)
    if found is None or "，" in found.group("head"):
        return None
    listed = tuple(O.clean_item(item) for item in fact.items)
    items = tuple(item for item in listed if not _CATCH_ALL.search(item))
    if len(items) < 3 or len(set(map(O.key, items))) < len(items):
        return None
    said = _ITS.sub("", intro[found.start("head") : found.end("verb")])  # a 其 would point into the case
    return Checklist(
        fact=fact,
        items=items,
        required=f"{said}的材料",
        head=found.group("head"),
        lead=found.group("lead") or "",
        closed=len(items) == len(listed),
    )


def _joined(items: list[str]) -> str:
    """Items as a case lists them: with 、 unless an item holds one itself, then with ；."""
    mark = "；" if any("、" in item or "，" in item for item in items) else "、"
    return mark.join(items)


def _story(lst: Checklist, rng: random.Random) -> str | None:
    """The case's opening, up to the papers: who applies, and the broker checking what they brought. None
    when the source names no one to tell it of, or words between the party and the act it cannot place."""
    head = lst.head
    if head.startswith("买卖双方"):
        first = scenes.plain_name(rng)
        actor = f"买方{first}与卖方{scenes.plain_name(rng, {first})}"
        rest = head.removeprefix("买卖双方")
    else:
        roles = [role for role in scenes.roles_in(head) if head.startswith(role)]
        if not roles:
            return None
        party = scenes.cast(roles[:1], rng)[roles[0]]
        actor, rest = party.intro, head.removeprefix(roles[0])
    if _MODAL.sub("", rest):
        return None  # a place or a clause between the party and the act: not a paper brought along
    told = "双方" if "与" in actor else "其"
    broker = scenes.plain_name(rng, set(_NAMED.findall(actor)))
    return f"{actor}{lst.lead}，经纪人员{broker}帮{told}核对材料，{told}带来了"


def _others(lst: Checklist, brief: Brief) -> dict[str, str]:
    """What the case could wrongly be missing, each with the clause of the textbook that asks for it:
    papers other sentences have someone hand in, the chapter's own first, and none sharing a two-character
    word with an item here, so none is required here too or a rewording of what is."""
    own = brief.facts.of_chapter(brief.task.slice.chapter)
    everything = list(brief.facts)
    found: dict[str, str] = {}
    for fact in dict.fromkeys([*own, *everything]):
        if fact.id == lst.fact.id:
            continue
        for paper, clause in _papers(fact.source):
            fits = _ITEM_MIN <= len(paper) <= O.OPTION_MAX and not any(_alike(paper, m) for m in lst.items)
            if fits and O.key(paper) not in map(O.key, found):
                found[paper] = clause
    return found


def _papers(text: str) -> list[tuple[str, str]]:
    """The papers a sentence has someone hand in, back to the nearest particle ("应当查看权利人出具的授权
    委托书" → 授权委托书, "还需提交婚姻状况证明" → 婚姻状况证明), each with its sentence."""
    found = []
    for sentence in re.split(r"[。；]", text):
        if _ADD_ON.search(sentence):
            continue  # "卖方已婚的，通常还需提交婚姻状况证明": a paper that may complete the very list asked
        found += [(paper, _asked_when(sentence, paper)) for paper in _handed_in(sentence)]
    return found


def _asked_when(sentence: str, paper: str) -> str:
    """Why the textbook asks for the paper, as a distractor's note says it: the condition opening a
    sentence that has it handed in ("代理人申请登记的，应当提交…" → "代理人申请登记时才需要提交的材料"),
    else the clause naming it."""
    condition = _CONDITION.match(sentence)
    if condition and re.search(r"(?:提交|提供)[^，。]*" + re.escape(paper), sentence):
        return f"{condition.group(1)}时才需要提交的材料"
    clause = next((c for c in re.split(r"[，,]", sentence) if paper in c), sentence)
    return f"教材在“{clause.strip()}”中提到的材料"


def _handed_in(sentence: str) -> list[str]:
    found = []
    for match in _PAPER.finditer(sentence):
        paper = _PAPER_BREAK.split(match.group(1))[-1]
        if 4 <= len(paper) <= _PAPER_MAX:
            found.append(paper)
    return found


def _alike(a: str, b: str) -> bool:
    """Whether two items share a two-character word beyond the kind of paper they both are."""
    a, b = _PAPER_KIND.sub("", a), _PAPER_KIND.sub("", b)
    words = {a[i : i + 2] for i in range(len(a) - 1)}
    return any(b[i : i + 2] in words for i in range(len(b) - 1))


class Missing:
    name = "missing"
    kinds: tuple[FactKind, ...] = ("enumeration",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible":
            return None
        lst = checklist(fact)
        if lst is None:
            return None
        rng = brief.rng
        qtype = brief.task.qtype
        # an item with 其 or 该 ("服务费用及其支付方式") reads to the critic as pointing back into the case,
        # so it could not be grounded as the key
        askable = [
            item
            for item in lst.items
            if _ITEM_MIN <= len(item) <= O.OPTION_MAX
            and not _POINTER.search(item)
            and not _ALWAYS_BROUGHT.search(item)
        ]
        lacking = {"single": 1, "multi": 2, "judge": rng.choice((0, 1))}[qtype]
        if qtype == "judge":
            if not lst.closed:
                return None
            # the critic checks a judge on the whole list, not on one item
            askable = [item for item in lst.items if not _ALWAYS_BROUGHT.search(item)]
        if len(askable) < lacking or len(lst.items) - lacking < 2:
            return None
        missing = rng.sample(askable, lacking)
        done = [item for item in lst.items if item not in missing]
        opening = _story(lst, rng)
        if opening is None or len(_joined(done)) > _STEM_LIST_MAX:
            return None
        case = f"{opening}{_joined(done)}。"
        basis = f"按照规定，{lst.required}包括{_joined(list(lst.items))}。"
        if qtype == "judge":
            return _judge(lst, case, missing, basis, rng)
        # never a paper the case tells brought (reading the stem would strike it): every wrong option is
        # a paper another rule asks for, named with the condition this case's facts do not meet
        others = _others(lst, brief)
        wrong_count = (4 if qtype == "single" else 5) - lacking
        if len(others) < wrong_count:
            return None
        lacks = "本案当事人尚未带来"
        choices = [O.Option(item, True, f"“{item}”属于{lst.required}，{lacks}") for item in missing]
        # papers another rule asks for under a condition of its own first: their notes say when they are due
        conditioned = sorted(item for item, rule in others.items() if rule.endswith("时才需要提交的材料"))
        rest = sorted(item for item in others if item not in conditioned)
        picked = rng.sample(conditioned, min(wrong_count, len(conditioned)))
        for item in picked + rng.sample(rest, wrong_count - len(picked)):
            rule = others[item]
            choices.append(O.Option(item, False, f"“{item}”是{rule}，不在{lst.required}之列"))
        stem = f"{case}按照规定，{lst.required}还包括（　）。"
        return O.choice(
            [fact.id],
            qtype,
            stem,
            O.arrange(choices, rng),
            [fact.source],
            lead=basis,
            difficulty=0.5,
        )


def _judge(lst: Checklist, case: str, missing: list[str], basis: str, rng: random.Random) -> Written:
    """The broker's conclusion that nothing is lacking, in the textbook's own hedge: right when the case
    names every item."""
    broker = _NAMED.findall(case.split("经纪人员", 1)[1])[0]
    stem = f"{case}{broker}据此认为，{lst.required}已经齐全。（　）"
    if missing:
        why = f"{basis}本案当事人尚未带来{missing[0]}，{broker}的说法错误。"
    else:
        why = f"{basis}本案当事人已经带来了全部材料，{broker}的说法正确。"
    return O.judge([lst.fact.id], stem, not missing, why, [lst.fact.source], difficulty=0.45)


RECIPE = Missing()
