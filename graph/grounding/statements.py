"""What a question asserts, one statement per option (or the judge statement), and what its key claims
about each.

A choice stem is a frame the option completes. Three frames are told apart:

- "下列说法正确/错误的是（　）": each option is a statement of its own; the stem only names the topic.
- "…属于（　）", "下列属于X的有（　）", "X的期限为（　）": the option fills the blank and the completed
  stem is the statement.
- a frame that asks for what is false — 错误/不正确/不恰当…的是, 不属于/不包括/不是…的是 — reverses what the
  key claims: the keyed options are the false ones. "不属于X的是" is read as "属于X" so that membership is
  checked the way the textbook lists it.

A case's scene — who ("周某", "赵女士"), when (a full date), "在…办理的这笔业务中" — is no textbook's content:
it is taken out of the clauses to ground and kept as context (its dates still decide which period applies).
A closing "这符合规定" claims that the case complies; "这不符合规定" that it does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from graph.grounding.periods import held_for
from graph.grounding.text import clauses, content_chars
from vocabulary.records import Question

# A frame whose options are statements of their own, and whether it asks for the false ones.
_SAYING = re.compile(
    r"(?P<neg>错误|不正确|不准确|不恰当|不妥当|不妥|不合理|不符合[^，。,]{0,12}?)的(?:是|有|为)\s*$"
    r"|(?P<pos>正确|准确|恰当|妥当|合理|符合[^，。,]{0,12}?)的(?:是|有|为)\s*$"
)
# A fill-in frame that asks for what does not belong: read positively, its key claims are false.
_NOT_MEMBER = re.compile(r"不(属于|包括|包含|是)")
_LEAD = re.compile(r"^(?:下列|以下)(?:[^，,。；;（(]{0,8}?(?:中|当中))?[，,、]?")
_SENTENCE = re.compile(r"[。！？!?]")
_REFERS_BACK = re.compile(r"该|此|这|上述|本案|其")
# Someone in a case reported saying something: "经纪人员告诉周某，", "小陈称，".
_REPORTED = re.compile(
    r"(?<=[，,。；;])[^，,。；;]{0,12}?(?:告诉|介绍|称|表示|认为|解释|提示|提醒|建议|说明|答复)[^，,。；;]{0,6}?[，,：:]"
)
_BLANK = re.compile(r"[（(]\s*[）)]")
# A clause that only says where a rule comes from or how things are classed ("依照民法典", "按级别划分");
# "依照法律规定应当登记的" is a condition and "按照面积收取" an act, not citations.
_PROVENANCE = re.compile(
    r"^(?:依照|按照|根据|依据|参照)[^，,]{0,24}?"
    r"(?:》|法|法典|条例|办法|规定|规范|意见|通知|公告|标准|政策|细则|要求|原则|年限|期限)(?:的规定|规定|的要求|要求)?$"
    r"|^按(?:照)?[^，,]{1,12}(?:划分|分类)$"
)
_SCENE = re.compile(
    r"在[^，,。]{0,8}办理的这笔业务中|(?:19|20)\d{2}年\d{1,2}月(?:\d{1,2}日)?(?![\d起至止及]|以前|之前|以后|之后|前|后)"
    r"|[\u4e00-\u9fff](?:某(?![一些种项个类])|先生|女士)(?=[^\u4e00-\u9fff]|[^某先女])|(?<=人员)小[\u4e00-\u9fff]"
    r"|[甲乙丙丁戊](?=(?:房地产)?经纪机构|公司|银行|小区)"
)
_COMPLIANCE = re.compile(
    r"(?:这|该|此|上述|[\u4e00-\u9fff]{1,3}的)?(?:一)?(?:做法|行为|情形)?"
    r"(?:(不)?符合(?:规定|要求|法律规定)|(违反|违背)(?:了)?(?:规定|要求))"
)
_VERDICT_AT_END = re.compile(rf"(?:^|(?<=[，,]))(?:{_COMPLIANCE.pattern})$")
# A choice stem about conduct: its options are acts, proper or not.
_CONDUCT = re.compile(r"做法|行为|举动|处理方式")
# "配偶属于第二顺序继承人": a judge statement placing a thing in a class reads like a fill-in option.
_MEMBER = re.compile(r"^([^，,。]{2,12}?)(?:属于|是)[^，,。]{2,}$")


@dataclass(frozen=True)
class Statement:
    """`label` is the option letter ("" for a judge statement); `claims` is what the key says of `text`:
    true when the key asserts it. `asserted` are the clauses that must be grounded; `context` is the rest
    of the stem, used to find the right sentences but not required to be in them. `kind` is the frame:
    "judge", "saying" (the option is a statement of its own) or "fill" (the option completes the stem);
    `case` marks a statement about a case (a scene, or a verdict on compliance): its figures are the
    case's, to be held against the textbook's bounds rather than equal them. `conduct` marks a statement
    of what someone does, judged proper or not ("…，这一做法符合规定", "下列做法中，…"): an act the textbook
    forbids is improper however the statement words it. `others` are the other options, `single` whether
    one of them only is the answer: a stem that asks which of a list's items a case is names that list for
    every option alike."""

    label: str
    text: str
    option: str
    claims: bool
    asserted: tuple[str, ...]
    context: str = ""
    kind: str = "judge"
    case: bool = False
    conduct: bool = False
    others: tuple[str, ...] = ()
    single: bool = False


def scene_in(text: str) -> bool:
    """The text sets a case's scene: people, a full date, "在…办理的这笔业务中"."""
    return _SCENE.search(text) is not None


def frame_of(stem: str) -> tuple[str, bool]:
    """("saying" | "fill", asks_for_false) for a choice stem."""
    head = _BLANK.split(stem)[0].rstrip("，,：: ")
    saying = _SAYING.search(head)
    if saying:
        return "saying", bool(saying.group("neg"))
    return "fill", bool(_NOT_MEMBER.search(re.split(r"[，,。；;]", head)[-1]))


def _topic(stem: str) -> str:
    """The topic a statement frame names: the stem without its frame words."""
    head = _SAYING.sub("", _BLANK.split(stem)[0].rstrip("，,：: "))
    return _LEAD.sub("", head).strip("，,：: ")


def _grounded(parts: list[str], cited: bool = True) -> tuple[list[str], bool, bool, bool]:
    """The clauses to ground, without their scene; whether a closing verdict said "不符合"; whether the
    statement is about a case; and whether it closes with a verdict on a conduct. A stem's clause that
    only cites (`cited`) is left out; one holding the option (marked 〔〕) never is."""
    kept, denies, case, judged = [], False, False, False
    for part in parts:
        verdict = _VERDICT_AT_END.search(part)
        if verdict:  # "…，这一做法违反规定": the verdict on the case, not part of what the textbook says
            denies = denies != bool(verdict.group(1) or verdict.group(2))
            case = judged = True
            part = part[: verdict.start()]
            if not part:
                continue
        if cited:  # a citation merged into the clause it introduces ("按级别划分，…") is dropped too
            pieces = part.split("，")
            while pieces and "〔" not in pieces[0] and "〕" not in pieces[0] and _PROVENANCE.match(pieces[0]):
                pieces.pop(0)
            part = "，".join(pieces)
            if not part:
                continue
        unmarked = part.replace("〔", "").replace("〕", "")
        part = _SCENE.sub("", unmarked).strip("，, ")
        case = case or part != unmarked.strip("，, ")
        if len(content_chars(part)) >= 2:
            kept.append(part)
    return kept, denies, case, judged


def _scene_and_claim(text: str) -> tuple[str, str]:
    """A case's scene and the claim made about it: what someone is reported to say ("…。经纪人员告诉周某，
    综合用地的出让最高年限为50年"), or a last sentence that refers back to the scene ("…。该住宅的房龄为26
    年"). ("", text) when the statement is one claim."""
    reported = list(_REPORTED.finditer(text))
    if reported:
        return text[: reported[-1].end()], text[reported[-1].end() :]
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    if len(sentences) > 1 and _REFERS_BACK.match(sentences[-1]):
        return "。".join(sentences[:-1]), sentences[-1]
    return "", text


def _judge(question: Question) -> Statement:
    text = _BLANK.sub("", question.stem).strip().rstrip("。.")
    scene, claim = _scene_and_claim(text)
    kept, denies, case, judged = _grounded(clauses(claim))
    if scene and not kept:  # the claim is only a verdict on what the scene does: the scene is the claim
        scene, (kept, denies, case, judged) = "", _grounded(clauses(text))
    member = _MEMBER.match(kept[-1]) if kept else None
    option = member.group(1) if member else ""
    claims = (question.answer == ["A"]) != denies
    return Statement("", text, option, claims, tuple(kept), scene, case=case or bool(scene), conduct=judged)


def _fill(stem: str, option: str, reverse: bool) -> tuple[str, tuple[str, ...], str, bool]:
    """The stem completed by the option. The sentence holding the option — its conditions included, the
    sentences it refers back to added — is what must be grounded; sentences before it are context."""
    stem = _LEAD.sub("", stem.strip())
    if reverse:
        stem = _NOT_MEMBER.sub(lambda m: m.group(1), stem, count=1)
    filled = (
        _BLANK.sub(lambda _: f"〔{option}〕", stem, count=1) if _BLANK.search(stem) else f"{stem}〔{option}〕"
    )
    filled = filled.rstrip("。.？?")
    sentences = [s for s in _SENTENCE.split(filled) if s]
    at = next((i for i, s in enumerate(sentences) if "〔" in s), len(sentences) - 1)
    while at and _REFERS_BACK.search(sentences[at]):
        at -= 1  # "该宗土地的使用权（　）" is about the land of the sentence before
    kept, denies, _, _ = _grounded(clauses("。".join(sentences[at:])))
    text = filled.replace("〔", "").replace("〕", "")
    return text, ("，".join(kept),) if kept else (), "。".join(sentences[:at]), denies


def statements(question: Question) -> list[Statement]:
    """The statements a question asserts, in option order."""
    question = question.model_copy(
        update={"stem": held_for(question.stem), "options": [held_for(o) for o in question.options]}
    )
    if question.qtype == "judge":
        return [_judge(question)]
    kind, asks_false = frame_of(question.stem)
    conduct = bool(_CONDUCT.search(question.stem))
    found = []
    for index, option in enumerate(question.options):
        letter = chr(65 + index)
        claims = (letter in question.answer) != asks_false
        option = option.strip().rstrip("。.")
        if kind == "saying":
            kept, denies, _, _ = _grounded(clauses(option), cited=False)
            topic = _topic(question.stem)
            statement = Statement(
                letter, option, option, claims != denies, tuple(kept), topic, "saying", conduct=conduct
            )
        else:
            text, asserted, context, denies = _fill(question.stem, option, asks_false)
            plain = _SCENE.sub("", option).strip("，, ")  # "邓某将购买5年的住房": the case without its person
            statement = Statement(
                letter, text, plain, claims != denies, asserted, context, "fill", conduct=conduct
            )
        others = tuple(o.strip() for i, o in enumerate(question.options) if i != index)
        found.append(replace(statement, others=others, single=question.qtype == "single"))
    return found
