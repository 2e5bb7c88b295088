"""A list every item of which is required → 灵活 case: what a party has already done or written, and what
it still lacks. "买方周某与卖方吴某因买卖申请房屋转移登记，已经提交了不动产登记申请书、申请人的身份
证明和房屋买卖合同。按照规定，买卖双方一般应当提交的材料还包括（　）" — the items the case names decide
the key, so a learner who knows the list but does not read the case cannot answer. The question closes in the
textbook's own words ("按照规定，…应当提交的材料还包括（　）") so the critic can ground the key in the list.

Only lists the source states as required of someone are told: materials to submit, what a contract or an
agreement must state, what must be displayed or disclosed ("…应当提交下列材料", "…合同应当包含下列内容",
"…协议一般载明以下内容"). Classifications, lists of situations and prohibitions are not, and a list whose
source names no one who must act or no document is declined. Distractors are items of other required
lists that share no wording with any item of this one, so none of them is required here too.
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

# What is done with a required list's items, as the source writes it, and how the case says it was done.
_VERBS: dict[str, str] = {
    "提交": "提交",
    "包含": "写明",
    "包括": "写明",
    "载明": "载明",
    "写明": "写明",
    "公示": "公示",
    "书面告知": "书面告知",
}
_DOCUMENT = re.compile(r"([\u4e00-\u9fff]{2,12}?(?:合同|协议|说明书|告知书|确认书))")
_INTRO = re.compile(
    r"^(?:(?P<lead>[^，。]{4,30}?)的，)?(?P<head>[^，。：]{2,40}?)"
    r"(?P<modal>(?:一般|通常|主要)?(?:应当|需要|要|须|应)?)(?P<verb>" + "|".join(_VERBS) + r")"
    r"(?:下列|以下)(?P<noun>材料|内容|事项|条款|信息)$"
)
# A list named by what is done with it, with no one named: "书面告知的事项包括", "公示内容包括". In a broker's
# textbook it is the brokerage that discloses and displays.
_UNOWNED = re.compile(r"^(?P<verb>公示|书面告知)的?(?P<noun>内容|事项)(?:一般|主要)?(?:包括|有)$")
_OWNER = "房地产经纪机构"
_DOCUMENT_KIND = re.compile(r"(?:合同|协议|说明书|告知书|确认书)$")
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
_NAMED = re.compile(r"[\u4e00-\u9fff]某")  # a party named in the case, so a new one gets another name
_STEM_LIST_MAX = 120
_ITEM_MIN = 4
_CASE_YEARS = (2025, 2026)


@dataclass(frozen=True)
class Checklist:
    """A required list as a case can tell it: who acts (or which document), the act as the case words it,
    and the items the case may leave out."""

    fact: Fact
    verb: str  # 提交, 写明, 公示 …
    noun: str  # 材料, 内容 …
    document: str  # 房地产经纪服务合同, or empty when a party acts
    items: tuple[str, ...]
    required: str  # the list as the explanation names it: 买卖双方一般应当提交的材料
    head: str  # who must act, with where ("房地产经纪机构及其分支机构应当在其经营场所醒目位置")
    lead: str  # the condition before them ("因买卖申请房屋转移登记"), or empty
    modal: str = "应当"  # how firmly the textbook requires the list ("一般", "应当"), kept in a case

    @property
    def papers(self) -> bool:
        """Whether the items are papers to hand in, so a distractor must be a paper too."""
        return self.noun == "材料"


def checklist(fact: Fact) -> Checklist | None:
    """The fact as a required list, or None when its source does not state the items as required of a
    named document or party (a classification, a list of situations, a fragment)."""
    if fact.kind != "enumeration":
        return None
    intro = fact.source.split("：", 1)[0].split("。")[-1]
    unowned = _UNOWNED.match(intro)
    owned = f"{_OWNER}应当{unowned.group('verb')}下列{unowned.group('noun')}" if unowned else intro
    found = _INTRO.match(owned)
    if found is None or "，" in found.group("head"):
        return None
    items = tuple(O.clean_item(item) for item in fact.items)
    items = tuple(item for item in items if not _CATCH_ALL.search(item))
    if len(items) < 3 or len(set(map(O.key, items))) < len(items):
        return None
    document = _DOCUMENT.search(found.group("head"))
    noun = found.group("noun")
    said = intro if unowned else intro[: found.end("verb")]
    said = _ITS.sub("", said).replace("在其", "在")  # a 其 would read as pointing back into the case
    required = re.sub(r"(?:一般|主要)?(?:包括|有)$", "", said) if unowned else f"{said}的{noun}"
    return Checklist(
        fact=fact,
        verb=_VERBS[found.group("verb")],
        noun=noun,
        document=document.group(1) if document and found.group("lead") is None else "",
        items=items,
        required=required,
        head=found.group("head"),
        lead=found.group("lead") or "",
        modal=found.group("modal") or "应当",
    )


def _joined(items: list[str]) -> str:
    """Items as a case lists them: with 、 unless an item holds one itself, then with ；."""
    mark = "；" if any("、" in item or "，" in item for item in items) else "、"
    return mark.join(items)


def _story(lst: Checklist, rng: random.Random) -> str | None:
    """Who did what before the question: the case's opening, up to the items. None when the source names
    no one to tell it of."""
    date = scenes.date_in(rng, rng.choice(_CASE_YEARS))
    if lst.document:
        first = scenes.plain_name(rng)
        second = scenes.plain_name(rng, {first})
        if "经纪" in lst.document:
            parties = f"{scenes.agency(rng)}与委托人{first}"
        else:
            parties = f"买方{first}与卖方{second}"
        kind = _DOCUMENT_KIND.search(lst.document)
        inside = kind.group() if kind else "合同"
        return f"{date}，{parties}签订{lst.document}，{inside}中已经{lst.verb}了"
    head, lead = lst.head, lst.lead
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
    place = _MODAL.sub("", rest)
    if place == rest and rest:
        return None  # words between the actor and the act that are not a place: a clause not understood
    context = f"{lead}，" if lead else ""
    if lst.verb == "书面告知":  # a disclosure is made to someone: the client who signs
        place = f"向委托人{scenes.plain_name(rng, set(_NAMED.findall(actor)))}{place}"
    return f"{date}，{actor}{context}已经{place.replace('在其', '在')}{lst.verb}了"


def _others(lst: Checklist, brief: Brief) -> list[str]:
    """What the case could wrongly be missing: papers named anywhere in the textbook for a list of papers,
    else items of other required lists that are not papers; the chapter's own first, and none sharing a
    two-character word with an item here, so none is required here too or a rewording of what is."""
    own = brief.facts.of_chapter(brief.task.slice.chapter)
    everything = list(brief.facts)
    found: list[str] = []
    for fact in dict.fromkeys([*own, *everything]):
        if fact.id == lst.fact.id:
            continue
        if lst.papers:
            found += _papers(fact.source)
            continue
        other = checklist(fact)
        if other is not None and not other.papers:
            found += [item for item in other.items if not _PAPER_KIND.search(item)]
    return O.distinct(
        item
        for item in found
        if _ITEM_MIN <= len(item) <= O.OPTION_MAX and not any(_alike(item, mine) for mine in lst.items)
    )


def _papers(text: str) -> list[str]:
    """The papers a sentence has someone hand in, back to the nearest particle ("应当查看权利人出具的授权
    委托书" → 授权委托书, "还需提交婚姻状况证明" → 婚姻状况证明)."""
    found = []
    for sentence in re.split(r"[。；]", text):
        if _ADD_ON.search(sentence):
            continue  # "卖方已婚的，通常还需提交婚姻状况证明": a paper that may complete the very list asked
        found += _handed_in(sentence)
    return found


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
            item for item in lst.items if _ITEM_MIN <= len(item) <= O.OPTION_MAX and not _POINTER.search(item)
        ]
        lacking = {"single": 1, "multi": 2, "judge": rng.choice((0, 1))}[qtype]
        if qtype == "judge":
            askable = list(lst.items)  # the critic checks a judge on the whole list, not on one item
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
        wrong_count = 3
        others = _others(lst, brief)
        if len(others) < wrong_count:
            return None
        lacks = f"本案尚未{lst.verb}"
        choices = [O.Option(item, True, f"“{item}”属于{lst.required}，{lacks}") for item in missing]
        for item in rng.sample(others, wrong_count):
            choices.append(O.Option(item, False, f"“{item}”不属于{lst.required}"))
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
    """The broker's conclusion that nothing is lacking: right when the case names every item."""
    broker = scenes.plain_name(rng, set(_NAMED.findall(case)))
    inside = _DOCUMENT_KIND.search(lst.document)
    what = f"{inside.group() if inside else ''}{lst.modal}{lst.verb}的{lst.noun}"
    stem = f"{case}经纪人员{broker}据此认为，{what}已经齐全。（　）"
    if missing:
        why = f"{basis}本案尚未{lst.verb}{missing[0]}，{broker}的说法错误。"
    else:
        why = f"{basis}本案已经{lst.verb}了全部{lst.noun}，{broker}的说法正确。"
    return O.judge([lst.fact.id], stem, not missing, why, [lst.fact.source], difficulty=0.45)


RECIPE = Missing()
