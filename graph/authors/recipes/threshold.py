"""Threshold → a single choice whose options are values that really occur beside it (the same slice or table,
the same unit: 1% / 1.5% / 2% / 3%), a judge stating the threshold with its own or a sibling value, and, in
灵活 mode, a case whose figure meets or misses the condition.

A distractor is never an edit of the right number: without three real siblings there is no single choice.
Bounds are read from the text the way the field writes them (满2年, 140平方米及以下, 1～3层, 27米＜高度≤100米)
so a case can be given a concrete figure well inside or outside them; `table.py` uses the same reading.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import TypeVar

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from retrieval.chapters import chinese_number
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_NUM = r"(\d+(?:\.\d+)?|[一二两三四五六七八九十百]+)"
_UNIT = r"(个工作日|工作日|个月|平方米|㎡|万元|元|年|月|日|天|层|米|%|％|倍|岁|套|次|人|项|家|个)"
_LOWER_BEFORE = ("不低于", "不少于", "超过", "高于", "多于", "至少", "满", "≥", ">", "＞")
_UPPER_BEFORE = ("不超过", "不足", "不满", "未满", "低于", "少于", "≤", "<", "＜")
_LOWER_AFTER = ("及以上", "以上")
_UPPER_AFTER = ("及以下", "以下", "以内", "之内")
_BEFORE = "|".join(sorted((*_LOWER_BEFORE, *_UPPER_BEFORE), key=len, reverse=True))
_AFTER = "|".join(sorted((*_LOWER_AFTER, *_UPPER_AFTER), key=len, reverse=True))
_RANGE = re.compile(rf"{_NUM}{_UNIT}?\s*[～~至到]\s*{_NUM}{_UNIT}")
_BETWEEN = re.compile(rf"{_NUM}{_UNIT}\s*[<＜≤]\s*([\u4e00-\u9fff]{{1,6}})\s*[<＜≤]\s*{_NUM}{_UNIT}")
_SIDED = re.compile(rf"(?:({_BEFORE})\s*)?{_NUM}{_UNIT}(?:\s*({_AFTER}))?")
_COUNTED = ("个工作日", "工作日", "个月", "年", "月", "日", "天", "层", "岁", "套", "次", "人", "项", "家")
# Comparators the stem keeps before the blank; the others ride on the options (满2年, 140平方米以下).
_IN_STEM = ("不低于", "不超过", "不满", "超过", "低于", "高于")
_CASE_SPREAD = 3  # a case figure lies one to three margins from the bound
_CASE_WORDS = 4  # a condition told as a case says at least this much besides its party and its figure
_FIGURE = re.compile(r"\d+(?:\.\d+)?|[一二两三四五六七八九十百]+")
_CONDITION_MAX = 30
# A condition that is a time ("…时", "自2024年12月1日起") reads "X，Y为", not "X的，Y为".
_TIME_CLAUSE = re.compile(r"(?:[时后前中]|^自.+起)$")
_YEAR = re.compile(r"\d{4}年")
# A rule that held only until a date ("在2024年12月1日前，…"): a case dated today would not be under it.
_UNTIL = re.compile(r"\d{4}年[\d月日]*(?:以)?前")
_T = TypeVar("_T")
_BOUND_NOTE = re.compile(r"^[（(]含[^）)]*[）)]")
# Who a rule speaks of, in the words rules use: a case puts a named person in their place.
_PARTY = re.compile(r"(^|，|起)(个人|购房人|借款人|买受人|出卖人|卖方|买方|申请人|纳税人|委托人|当事人|职工)")
# How the name of a bounded quantity ends (税率, 比例, 年限, 净高, 面积, 数额…): without a condition, a
# subject that names no quantity ("居住用地 为70年", "低层 不超过3层") is a category, not a threshold.
_MEASURES = (
    "率", "比例", "比重", "额", "限", "期", "数", "度", "高", "面积", "价", "费", "时间", "标准", "收入",
    "龄", "值", "距离", "线",
)  # fmt: skip
# A condition opening with a connective was cut from the middle of an argument, not from a rule.
_CONNECTIVES = ("意味着", "即", "因此", "所以", "但", "而", "如果", "若", "因为", "由于", "这")
# A subject holding a rule's own words is a clause the compiler cut short, not the name of a quantity.
_RULE_WORDS = (
    "不得",
    "不低于",
    "不超过",
    "不满",
    "超过",
    "低于",
    "高于",
    "应当",
    "必须",
    "可以",
    "无需",
    "是指",
)
# A rule's verdict (免征增值税, 税率为3%, 计税依据…): a case told with one answers itself.
_VERDICT = re.compile(r"免征|免税|征收|减按|不征|(?<!经济)适用|计税依据|为\d+(?:\.\d+)?[%％]")
# A second condition joined after the bounded one ("自用5年以上、并且是家庭唯一生活用房"): a case that swaps
# the figure but pastes the other condition verbatim reads as the rule with a name in it ("满五唯一"). One
# that leads to the figure ("家庭唯一住房且面积为120平方米") is the case's own setting.
_BOTH = re.compile(r"且|同时")
# A clause closing a condition ("…的，", "…时，"): a second one means the text holds more than one clause.
_CONDITION_CLOSE = re.compile(r"[的时]，")
# Words that lean on what the sentences before said ("三者取最短的", "上述期限", "任何借款人的贷款期限" where
# the paragraph says which loan): taken out of the paragraph, the question cannot say what it asks about.
_FRAGMENT = re.compile(
    r"^(?:该|其|此|这|上述|前述|以上|上列|前者|后者|任何|所有(?![权人])|一切)|[两二三四五六七八九十几]者"
)
_FORBIDDING = {"不超过": "不得超过", "不低于": "不得低于"}
_UPPER = (*_UPPER_BEFORE, *_UPPER_AFTER)
_LOWER = (*_LOWER_BEFORE, *_LOWER_AFTER)


@dataclass(frozen=True)
class Bound:
    """A quantity's allowed interval as the text states it, and the span a case figure replaces; `lead`
    is the quantity's name kept before the figure ("高度" of "27米＜高度≤100米")."""

    start: int
    end: int
    low: float | None
    high: float | None
    unit: str
    lead: str = ""

    def contains(self, value: float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def _number(text: str) -> float | None:
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    found = chinese_number(text)
    return float(found) if found else None


def bounds(text: str) -> list[Bound]:
    """Every bounded figure of `text`, left to right. A bare figure without a comparator is no bound."""
    found: list[Bound] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    for match in _RANGE.finditer(text):
        low, high = _number(match[1]), _number(match[3])
        if low is not None and high is not None and low < high:
            found.append(Bound(match.start(), match.end(), low, high, match[4]))
            taken.append(match.span())
    for match in _BETWEEN.finditer(text):
        low, high = _number(match[1]), _number(match[4])
        if free(*match.span()) and low is not None and high is not None and low < high:
            found.append(Bound(match.start(), match.end(), low, high, match[5], lead=match[3]))
            taken.append(match.span())
    for match in _SIDED.finditer(text):
        before, raw, unit, after = match[1], match[2], match[3], match[4]
        value = _number(raw)
        if value is None or not free(*match.span()) or not (before or after):
            continue
        sides = {before, after}
        if sides & set(_UPPER):
            found.append(Bound(match.start(), match.end(), None, value, unit))
        elif sides & set(_LOWER):
            found.append(Bound(match.start(), match.end(), value, None, unit))
        taken.append(match.span())
    return sorted(found, key=lambda b: b.start)


def figure(value: float) -> str:
    return f"{value:g}"


def _step(value: float, unit: str) -> float:
    """A margin that reads as another case, not a rounding: 140 → 20, 30 → 5, 2.4 → 0.2, 2年 → 1年."""
    magnitude = 10 ** math.floor(math.log10(value))
    if not value.is_integer():
        return magnitude / 5
    step = magnitude / (5 if value / magnitude < 2 else 2)
    return max(1.0, round(step)) if unit in _COUNTED else step


def case_values(bound: Bound, meets: bool) -> list[float]:
    """Figures well inside the bound (meets) or well outside it, one to three margins away, the likeliest
    case first; empty when there is no such figure (a range has no single outside)."""
    counted = bound.unit in _COUNTED
    if bound.low is not None and bound.high is not None:
        if not meets:
            return []
        step = 1.0 if counted else _step((bound.low + bound.high) / 2, bound.unit)
        inside = [
            round(bound.low + k * step, 4)
            for k in range(1, _CASE_SPREAD * 4)
            if bound.low + k * step < bound.high
        ]
        middle = (bound.low + bound.high) / 2
        return sorted(inside, key=lambda v: abs(v - middle))[:_CASE_SPREAD]
    edge = bound.low if bound.low is not None else bound.high
    if not edge or edge <= 0:
        return []
    upward = (bound.low is not None) == meets
    margins = [k * _step(edge, bound.unit) for k in range(1, _CASE_SPREAD + 1)]
    figures = [round(edge + m if upward else edge - m, 4) for m in margins]
    return [f for f in figures if f > 0]


def case_value(bound: Bound, meets: bool, rng: random.Random | None = None) -> float | None:
    """One of `case_values` (`rng` picks; without it, the first); None when there is none."""
    figures = case_values(bound, meets)
    if not figures:
        return None
    return figures[rng.randrange(len(figures))] if rng else figures[0]


def concrete(text: str, bound: Bound, value: float) -> str:
    """`text` with the bound replaced by the case's figure: 面积140平方米及以下 → 面积120平方米 (a note on
    the bound such as "（含2年）" goes with it)."""
    rest = _BOUND_NOTE.sub("", text[bound.end :])
    return f"{text[: bound.start]}{bound.lead}{figure(value)}{bound.unit}{rest}"


def personal(text: str, person: str) -> str:
    """A rule's clause told of a person: its first party word names them (卖方周某, 购房人周某; 个人 gives way
    to the name), and a clause about a family's home becomes that person's family's. Unchanged when it names
    no one."""
    if text.startswith("家庭"):
        return f"{person}{text}"
    return _PARTY.sub(lambda m: f"{m[1]}{'' if m[2] == '个人' else m[2]}{person}", text, count=1)


@dataclass(frozen=True)
class _Figure:
    """A value as written: the words before the number (主合同标的额的), the number as written, its value."""

    prefix: str
    number: str
    value: float


def _figure_of(text: str, unit: str) -> _Figure | None:
    """`text` read as a value in `unit` ("70" in a column of years is 70年); None when in another unit."""
    found = _FIGURE.search(text)
    value = _number(found.group()) if found else None
    if found is None or value is None:
        return None
    rest = text[found.end() :].strip()
    if rest and rest != unit:
        return None
    return _Figure(text[: found.start()], found.group(), value)


def _shown(fact: Fact, number: str) -> str:
    """A value in the fact's own form: 主合同标的额的30%, 70年, 满2年, 140平方米以下."""
    own = _figure_of(fact.value_text, fact.unit)
    text = f"{own.prefix if own else ''}{number}{fact.unit}"
    if fact.comparator == "满":
        return f"满{text}"
    if fact.comparator in _LOWER_AFTER + _UPPER_AFTER:
        return f"{text}{fact.comparator}"
    return text


def _stated(fact: Fact, number: str) -> str:
    """A value as a sentence states it after the comparator: 70年, 主合同标的额的20%."""
    own = _figure_of(fact.value_text, fact.unit)
    return f"{own.prefix if own else ''}{number}{fact.unit}"


def _own_number(fact: Fact) -> str:
    own = _figure_of(fact.value_text, fact.unit)
    return own.number if own else figure(fact.value or 0)


def _clause(text: str) -> str:
    return text.strip().rstrip("，,。；;").removesuffix("的")


def describe(fact: Fact) -> str:
    """What the threshold is about, with its condition: 面积140平方米以上的家庭首套住房契税税率."""
    condition = _clause(fact.condition)
    return f"{condition}的{fact.subject}" if condition else fact.subject


def _claim(fact: Fact, number: str) -> str:
    """The threshold with a value, as a sentence ends: 不低于2.40米, 满2年, 为140平方米以下."""
    stated = _stated(fact, number)
    if fact.comparator in _LOWER_AFTER + _UPPER_AFTER:
        return f"为{stated}{fact.comparator}"
    return f"{fact.comparator or '为'}{stated}"


def _rule(fact: Fact) -> str:
    return f"{describe(fact)}{_claim(fact, _own_number(fact))}"


def _asked(fact: Fact) -> str:
    """The comparator before the blank, as strong as the book says it ("都不得超过30年" asks 不得超过)."""
    word = fact.comparator if fact.comparator in _IN_STEM else "为"
    forbidding = _FORBIDDING.get(word, "")
    return forbidding if forbidding and forbidding in fact.source else word


def consequence(fact: Fact) -> bool:
    """The threshold sits in the condition and the subject is what follows ("个人将购买2年以上的住房对外
    销售的" → 免征增值税): a case meets or misses the condition and the consequence holds or not."""
    return any(fact.value in (b.low, b.high) and b.unit == fact.unit for b in bounds(_clause(fact.condition)))


def _range_end(fact: Fact) -> bool:
    """One end of a range the source states as a whole ("1至3层为低层"): no threshold of its own."""
    return not fact.condition and any(
        b.low is not None and b.high is not None and fact.value in (b.low, b.high)
        for b in bounds(fact.source)
    )


def usable(fact: Fact) -> bool:
    subject = fact.subject
    if fact.value is None or _figure_of(fact.value_text, fact.unit) is None or _range_end(fact):
        return False
    condition = _clause(fact.condition)
    if not O.is_name(subject) or len(condition) > _CONDITION_MAX or condition.startswith(_CONNECTIVES):
        return False
    if _FRAGMENT.search(subject) or _FRAGMENT.search(condition):
        return False
    if "：" in condition or ":" in condition or re.search(r"、[\u4e00-\u9fff]$", condition):
        return False  # a heading's colon, or a list cut off after its first character ("卧室、起")
    if consequence(fact):
        return True
    if any(word in subject for word in _RULE_WORDS):
        return False
    # A rate set by a bounded condition ("契税 为1% | 面积为140平方米及以下") names its quantity by the unit —
    # unless it was read off a table row, whose subject is the row's label: "5年以上的，首套住房为（　）" says
    # neither the rate nor what the 5 years are (the table recipe asks it with the table's headers).
    from_row = fact.source.lstrip().startswith("|")
    return subject.endswith(_MEASURES) or (
        fact.unit in ("%", "％") and bool(bounds(fact.condition)) and not from_row
    )


def tangled(fact: Fact) -> bool:
    """Whether the rule cannot be split into a case and what follows from it: a condition holding a
    verdict or a clause of its own ("持有3年、免征增值税"), a second condition joined to the bound
    ("…5年以上、并且是家庭唯一生活用房"), or a consequence that rests on a further
    condition of its sentence ("…的，申报价低于评估价的，计税依据就是成交价"). A situation told from it
    would carry its own answer, or claim what only the other condition settles."""
    condition = _clause(fact.condition)
    sentence = next((s for s in re.split(r"[。；;！？]", fact.source) if fact.subject in s), "")
    found = bounds(condition)
    return bool(
        (found and _BOTH.search(condition[found[0].end :]))
        or _VERDICT.search(condition)
        or _CONDITION_CLOSE.search(condition)
        or _CONDITION_CLOSE.search(fact.subject)
        or len(_CONDITION_CLOSE.findall(sentence)) > 1
    )


def _named(text: str, bound: Bound) -> bool:
    """Whether the bounded figure says what it measures ("面积为140平方米", "持有满2年"), and the condition
    says more than a verb: a bare "90平方米及以下", "满5年但…" or "卖方持有不满2年" (holding what?) told
    with a concrete figure would leave the reader guessing."""
    before = re.split(r"[，,；;]", text[: bound.start])[-1]
    said = _PARTY.sub(r"\1", f"{text[: bound.start]}{text[bound.end :]}")
    enough = len(re.findall(r"[\u4e00-\u9fff]", said)) >= _CASE_WORDS
    return enough and re.search(r"[\u4e00-\u9fff]{2}$", before) is not None


def _peers(fact: Fact, brief: Brief) -> list[Fact]:
    """Thresholds beside this one (its slice, related facts, chapter) in the same unit, fit to name."""
    return [f for f in O.nearby(fact, brief, "threshold") if f.unit == fact.unit and usable(f)]


def _same_rule(a: Fact, b: Fact) -> bool:
    return O.key(a.subject) == O.key(b.subject) and O.key(a.condition) == O.key(b.condition)


@dataclass(frozen=True)
class Sibling:
    """A value beside the threshold, with the rule it belongs to or else what the clause stating it says
    the value is ("房龄与贷款期限之和的上限")."""

    value: float
    number: str
    owner: Fact | None
    what: str = ""
    source: str = ""


# A worked example ("例如，…房龄为27年", "若误按妻子的年龄计算…") holds a case's figures, not limits of the
# subject; so does a figure derived from the clauses before it ("三者取最短，最长为25年", "57−16=41"):
# examiners strike them as distractors.
_EXAMPLE = re.compile(r"例如|比如|举例|【例|【解|例[：:]|示例|若误|若按|假设|假如")
_DERIVED = re.compile(r"得出|误按|取最|[两三四]者|[=＝−×÷]")
# A bound on a sum or a difference ("房龄与贷款期限之和不超过50年") limits another quantity than its terms.
_COMPOUND = re.compile(r"之和|之差|相加|合计|总和|(?:龄|期限|面积|价)加")
# How a clause bounds the figure it states, read off the words just before it: the figure is an upper
# bound, a lower one, or the quantity's value.
_UPPER_WORDS = re.compile(r"(?:不得超过|不超过|不高于|不多于|最长为|最高为|最多为|最长|最高|最多|≤|<|＜)$")
_LOWER_WORDS = re.compile(r"(?:不得低于|不低于|不少于|不短于|最低为|最短为|最少为|至少|最低|最短|≥|>|＞)$")
_NUMBER_ONLY = re.compile(r"^[\d.,%％\s]*$")
_HEAD = re.compile(r"^(?:[（(]?[\d①-⑳]+[）)、.]?|[^，。；]*?(?:要求|规定|约定))")
_ADVERB_END = re.compile(r"(?:一般|通常|原则上|常见|均|都)?为?(?:每[件套户个]|每平方米)?$")


def _own_kind(fact: Fact, other: Fact | str) -> bool:
    """Whether another threshold (or a quantity a clause names) can stand as a term of the fact's own
    quantity: a worked example's figure cannot, nor a bound on a sum when the fact's quantity is none."""
    if isinstance(other, Fact):
        if _EXAMPLE.search(other.subject) or _worked(other.source, other.value_text):
            return False
        other = other.subject
    return not (_COMPOUND.search(other) and not _COMPOUND.search(fact.subject))


def named_siblings(fact: Fact, brief: Brief) -> list[Sibling]:
    """The values beside the threshold in its unit that the book states as what holds — the other
    thresholds of its slice, and its `siblings` where a clause of the slice states them — each with what
    it really is, so the explanation can say so ("50%实为第3级税率"). A figure no clause states as a value
    (a bound of a condition, "高度超过16米的住宅"; a result of an example) or whose quantity the clause
    does not name is no distractor: examiners strike it as invented."""
    owners: dict[float, Fact] = {}
    for peer in _peers(fact, brief):
        mine = peer.slice_id == fact.slice_id and not _same_rule(peer, fact) and _own_kind(fact, peer)
        if mine and peer.value is not None:
            owners.setdefault(peer.value, peer)
    found: dict[float, Sibling] = {}
    for owner in owners.values():
        figure_ = _figure_of(owner.value_text, fact.unit)
        if figure_ is not None and figure_.value != fact.value:
            sibling = Sibling(figure_.value, figure_.number, owner, source=owner.source)
            found.setdefault(figure_.value, sibling)
    for text in fact.siblings:
        figure_ = _figure_of(text, fact.unit)
        if figure_ is None or figure_.value == fact.value or figure_.value in found:
            continue
        stated = _stating(fact, brief, f"{figure_.number}{fact.unit}")
        if stated is not None:
            what, source = stated
            found[figure_.value] = Sibling(figure_.value, figure_.number, None, what, source)
    return list(found.values())


def _worked(source: str, value: str) -> bool:
    """Whether every sentence of `source` stating `value` works an example or derives it from the clauses
    before it."""
    said = [s for s in re.split(r"[。！？\n]", source) if value and value in s]
    return bool(said) and all(_EXAMPLE.search(s) or _DERIVED.search(s[: s.find(value)]) for s in said)


def _stating(fact: Fact, brief: Brief, value: str) -> tuple[str, str] | None:
    """What the clause or table row of the fact's slice that states `value` as what holds says it is
    ("厨房、卫生间的室内净高的下限", "厨房的室内净高"), not as the bound of a condition it qualifies ("高度
    超过16米的住宅，…") nor as a worked example's figure, with its source."""
    for other in brief.facts.of_slice(fact.slice_id):
        for sentence in re.split(r"[。！？\n]", other.source):
            if _worked(sentence, value):
                continue
            if sentence.lstrip().startswith("|"):
                what = _row_quantity(fact, sentence, value)
                if what:
                    return what, other.source
                continue
            clauses = re.split(r"([；;，,])", sentence)
            for i in range(0, len(clauses), 2):
                clause = clauses[i]
                at = clause.find(value)
                if at >= 0 and not clause[at + len(value) :].lstrip().startswith("的"):
                    what = _quantity(clause.strip(), value)
                    # A condition closing the clause before ("所购住房为砖混结构的，") says whose it is.
                    case = clauses[i - 2].strip() if i >= 2 and clauses[i - 1] in "，," else ""
                    what = f"{case}{what}" if what and case.endswith("的") else what
                    if what and _own_kind(fact, what):
                        return what, other.source
    return None


def _row_quantity(fact: Fact, row: str, value: str) -> str:
    """A table cell holding `value` right after its row's label ("| 非住宅类 | 550元 |"): the label's
    value of the fact's own quantity ("非住宅类不动产登记费", "厨房的室内净高"); "" elsewhere in the row,
    where the column is unknown, or when the fact's quantity cannot be told of the label."""
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if len(cells) < 2 or cells[1] != value or _NUMBER_ONLY.search(cells[0]):
        return ""
    label, subject = cells[0], fact.subject
    shared = next((n for n in range(len(label), 1, -1) if subject.startswith(label[-n:])), 0)
    if shared:
        return f"{label}{subject[shared:]}"
    owner, _, measure = subject.rpartition("的")
    return f"{label}的{measure}" if owner and measure.endswith(_MEASURES) else ""


def _quantity(clause: str, value: str) -> str:
    """What the clause says `value` is, in its own words: "（2）许多银行要求房龄与贷款期限之和不超过50年" →
    房龄与贷款期限之和的上限, "工业用地使用权出让最高年限为50年" → 工业用地使用权出让最高年限; "" when
    the clause names no quantity before the figure."""
    at = clause.find(value)
    before, after = clause[:at].strip(), clause[at + len(value) :]
    side = ""
    for words, name in ((_UPPER_WORDS, "上限"), (_LOWER_WORDS, "下限")):
        found = words.search(before)
        if found:
            before, side = before[: found.start()], name
            break
    if not side and after.startswith(_UPPER_AFTER):
        side = "上限"
    elif not side and after.startswith(_LOWER_AFTER):
        side = "下限"
    quantity = _ADVERB_END.sub("", _HEAD.sub("", before).replace("：", "的").replace(":", "的")).strip()
    named = quantity.endswith((*_MEASURES, "之和", "之差"))
    if not named or len(re.findall(r"[\u4e00-\u9fff]", quantity)) < 2 or re.search(r"\d", quantity):
        return ""
    return f"{quantity}的{side}" if side else quantity


def why_not(fact: Fact, sibling: Sibling) -> str:
    shown = _shown(fact, sibling.number)
    owner = sibling.owner
    if owner is not None and side(owner) and side(owner) != side(fact) and not bounds(owner.condition):
        # The other end of the fact's own quantity: said as that end, without a lead-in the compiler took
        # for a condition ("月缴存额以…为缴存基数").
        end = (
            ""
            if _UPPER_NAME.search(owner.subject) or _LOWER_NAME.search(owner.subject)
            else _END[side(owner)]
        )
        return f"“{shown}”是{owner.subject}{end}"
    if owner is not None:
        return f"“{shown}”对应的是{describe(owner)}"
    return f"“{shown}”是{sibling.what}"


def side(fact: Fact) -> str:
    """Which end of its quantity a threshold bounds, by its comparator or its name ("最低缴存比例 为 5%"):
    "upper", "lower" or "" (a value stated as holding)."""
    if fact.comparator in _UPPER or _UPPER_NAME.search(fact.subject):
        return "upper"
    return "lower" if fact.comparator in _LOWER or _LOWER_NAME.search(fact.subject) else ""


_UPPER_NAME = re.compile(r"最高|最长|最多|上限")
_END = {"upper": "的上限", "lower": "的下限"}
_LOWER_NAME = re.compile(r"最低|最短|最少|下限")


def _false_side(fact: Fact, siblings: list[Sibling]) -> list[Sibling]:
    """Siblings that make a stated threshold false under any reading: a lower bound stated lower ("满1年"
    for 满2年 would still be true if stated higher), an upper bound stated higher."""
    value = fact.value or 0.0
    if fact.comparator in _LOWER:
        return [s for s in siblings if s.value < value]
    if fact.comparator in _UPPER:
        return [s for s in siblings if s.value > value]
    return siblings


def _unbounded(text: str) -> str:
    """A condition without its bounds, to tell which rules differ only in a figure."""
    for bound in reversed(bounds(text)):
        text = f"{text[: bound.start]}{text[bound.end :]}"
    return O.key(text)


def _cases(rule: Fact, rules: list[Fact]) -> list[str]:
    """The rule's condition told with concrete figures no other rule of `rules` covers ("家庭首套住房面积为
    120平方米"), or as written when it has no bound; empty when the bound's figure goes unnamed."""
    condition = _clause(rule.condition)
    found = bounds(condition)
    if not found:
        return [condition]
    bound = found[0]
    if not _named(condition, bound):
        return []
    rivals = [
        b
        for other in rules
        if other is not rule and _unbounded(other.condition) == _unbounded(condition)
        for b in bounds(_clause(other.condition))
        if b.unit == bound.unit
    ]
    return [
        concrete(condition, bound, value)
        for value in case_values(bound, True)
        if not any(b.contains(value) for b in rivals)
    ]


def multi_answers(right: list[_T], wrong: list[_T], rng: random.Random) -> list[tuple[_T, bool]] | None:
    """Four options for a multiple choice: two or three right ones, the rest wrong, as the papers mix
    them; None when there are too few of either."""
    fewest, most = max(2, 4 - len(wrong)), min(3, len(right), 4 - min(1, len(wrong)))
    if fewest > most:
        return None
    count = rng.randint(fewest, most)
    return [(r, True) for r in rng.sample(right, count)] + [(w, False) for w in rng.sample(wrong, 4 - count)]


def _told(situations: list[str], rng: random.Random) -> list[str] | None:
    """Each situation told of its own person (周某, 吴某…); None when one names no party to put them in."""
    taken: set[str] = set()
    told = []
    for situation in situations:
        person = scenes.plain_name(rng, taken)
        taken.add(person)
        told.append(personal(situation, person))
        if person not in told[-1]:
            return None
    return told


class Threshold:
    name = "threshold"
    kinds: tuple[FactKind, ...] = ("threshold",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if fact.kind != "threshold" or not usable(fact):
            return None
        flexible = brief.task.mode == "flexible"
        if flexible and brief.task.qtype in ("single", "multi") and consequence(fact):
            return self._situations(fact, brief)
        if brief.task.qtype == "multi" and flexible:
            return self._sibling_situations(fact, brief)
        if brief.task.qtype == "single" and not consequence(fact):
            if not flexible:
                return self._single(fact, brief)
            builders = [self._flexible_single, self._sibling_situations]
            brief.rng.shuffle(builders)
            return builders[0](fact, brief) or builders[1](fact, brief)
        if brief.task.qtype == "judge":
            if flexible:
                return self._flexible_judge(fact, brief)
            return self._consequence_judge(fact, brief) if consequence(fact) else self._judge(fact, brief)
        return None

    def _lead(self, fact: Fact) -> str:
        condition = _clause(fact.condition)
        if not condition:
            return ""
        return f"{condition}，" if _TIME_CLAUSE.search(condition) else f"{condition}的，"

    def _single(self, fact: Fact, brief: Brief, stem: str = "", difficulty: float = 0.4) -> Written | None:
        siblings = named_siblings(fact, brief)
        if len(siblings) < 3:
            return None
        rng = brief.rng
        rng.shuffle(siblings)
        picked = siblings[:3]
        stem = stem or f"{self._lead(fact)}{fact.subject}{_asked(fact)}（　）。"
        right = _shown(fact, _own_number(fact))
        if O.in_stem(stem, [right]):
            return None
        choices = [O.Option(right, True, f"“{right}”与教材规定一致")]
        choices += [O.Option(_shown(fact, s.number), False, why_not(fact, s)) for s in picked]
        return O.choice(
            [fact.id],
            "single",
            stem,
            O.arrange(choices, rng, numeric=True),
            [fact.source, *(s.source for s in picked)],
            lead=f"教材规定，{_rule(fact)}。",
            difficulty=difficulty,
        )

    def _consequence_judge(self, fact: Fact, brief: Brief) -> Written | None:
        """The rule as written, or with the condition's bound moved to a sibling value on the side that
        makes it false (a lower bound stated lower: "购买1年以上的…免征" widens the rule wrongly)."""
        rng = brief.rng
        condition = _clause(fact.condition)
        bound = next(b for b in bounds(condition) if fact.value in (b.low, b.high) and b.unit == fact.unit)
        value = fact.value or 0.0
        side = [s for s in named_siblings(fact, brief) if (s.value < value) == (bound.low is not None)]
        if not side:
            return None  # a rule that can only be stated true teaches the learner to answer 正确
        shown = None if rng.random() < 0.5 else rng.choice(side)
        stated = condition
        if shown is not None:
            span = _FIGURE.sub(shown.number, condition[bound.start : bound.end], count=1)
            stated = f"{condition[: bound.start]}{span}{_BOUND_NOTE.sub('', condition[bound.end :])}"
        lead = f"{stated}，" if _TIME_CLAUSE.search(stated) else f"{stated}的，"
        stem = f"{lead}{fact.subject}。（　）"
        analysis = f"教材规定，{self._lead(fact)}{fact.subject}。"
        if shown is None:
            analysis += "题干的表述与教材一致。"
        else:
            edge, stated_edge = _stated(fact, _own_number(fact)), _stated(fact, shown.number)
            analysis += f"条件的界限是{edge}，而不是{stated_edge}，题干表述错误。"
        sources = [fact.source] + ([shown.source] if shown else [])
        return O.judge([fact.id], stem, shown is None, analysis, sources)

    def _judge(self, fact: Fact, brief: Brief) -> Written | None:
        rng = brief.rng
        wrong = _false_side(fact, named_siblings(fact, brief))
        if not wrong:
            return None  # a threshold that can only be stated true teaches the learner to answer 正确
        shown = None if rng.random() < 0.5 else rng.choice(wrong)
        number = _own_number(fact) if shown is None else shown.number
        stem = f"{self._lead(fact)}{fact.subject}{_claim(fact, number)}。（　）"
        analysis = f"教材规定，{_rule(fact)}。"
        if shown is None:
            analysis += "题干的表述与教材一致。"
        else:
            analysis += f"题干所说的{why_not(fact, shown).removeprefix('“').replace('”', '', 1)}。"
        sources = [fact.source] + ([shown.source] if shown else [])
        return O.judge([fact.id], stem, shown is None, analysis, sources)

    def _case(self, fact: Fact, brief: Brief, meets: bool) -> tuple[str, str, Fact] | None:
        """The fact's condition with a concrete figure that meets it (or misses it), the figure, and the
        rule that applies to it: the fact itself, or for a miss the rule of the same subject that covers
        it. None when no figure works or another rule of the same subject would apply as well."""
        condition = _clause(fact.condition)
        found = bounds(condition)
        if not found or not _named(condition, found[0]) or _UNTIL.search(condition):
            return None
        bound = found[0]
        value = case_value(bound, meets, brief.rng)
        if value is None:
            return None
        covering = [fact] if meets else []
        for peer in _peers(fact, brief):
            if O.key(peer.subject) != O.key(fact.subject) or _same_rule(peer, fact):
                continue
            if any(b.unit == bound.unit and b.contains(value) for b in bounds(peer.condition)):
                covering.append(peer)
        if len({f.value for f in covering}) != 1:
            return None
        return concrete(condition, bound, value), f"{figure(value)}{bound.unit}", covering[0]

    def _scene(self, fact: Fact, brief: Brief, situation: str) -> str | None:
        """The situation told of a person on a date, as the rule's party; None when the rule names no party
        to put the person in (a name pasted before a textbook clause is no case)."""
        person = scenes.person(brief.rng)
        when = O.case_date(brief.rng, fact.source)
        told = personal(situation, person)
        return f"{when}，{told}。" if person in told else None

    def _flexible_single(self, fact: Fact, brief: Brief) -> Written | None:
        case = self._case(fact, brief, meets=True)
        if case is None:
            return None
        scene = self._scene(fact, brief, case[0])
        if scene is None:
            return None
        stem = f"{scene}此时{fact.subject}{_asked(fact)}（　）。"
        return self._single(fact, brief, stem, difficulty=0.5)

    def _flexible_judge(self, fact: Fact, brief: Brief) -> Written | None:
        if consequence(fact):
            return self._consequence_case(fact, brief)
        if fact.condition:
            return self._conditional_case(fact, brief)
        return self._bounded_case(fact, brief)

    def _consequence_case(self, fact: Fact, brief: Brief) -> Written | None:
        """A person whose figure meets or misses the condition, and the consequence claimed for them: it
        holds only when the condition is met ("王某将购买1年的住房对外销售，免征增值税" is false). A rule that
        does not split into case and consequence, or holds only before or after a date, is declined: its
        case would carry its own verdict ("持有3年、免征增值税，计税依据…") or be dated where it does not
        hold."""
        rng = brief.rng
        condition = _clause(fact.condition)
        if tangled(fact) or _UNTIL.search(condition):
            return None
        bound = next(b for b in bounds(condition) if fact.value in (b.low, b.high) and b.unit == fact.unit)
        if not _named(condition, bound):
            return None
        meets = rng.random() < 0.5
        value = case_value(bound, meets, rng) or case_value(bound, not meets, rng)
        if value is None:
            return None
        meets = bound.contains(value)
        person = scenes.person(rng)
        case = personal(concrete(condition, bound, value), person)
        if person not in case:
            return None
        when = O.case_date(rng, fact.source)
        stem = f"{when}，{case}，{fact.subject}。（　）"
        figure_text = f"{figure(value)}{bound.unit}"
        verdict = "符合" if meets else "不符合"
        analysis = f"教材规定，{self._lead(fact)}{fact.subject}。题中{figure_text}{verdict}这一条件"
        analysis += "，题干表述正确。" if meets else f"，“{fact.subject}”的结论不适用。"
        return O.judge([fact.id], stem, meets, analysis, [fact.source], difficulty=0.45)

    def _situations(self, fact: Fact, brief: Brief) -> Written | None:
        """Persons whose figures meet or miss the condition ("下列情形中，（　）的，免征增值税"): a multiple
        choice takes two or three who meet it; a single choice the one case on its side (the
        one who misses it when figures below a small bound run out: "持有1年" is the only miss of 满2年)."""
        if tangled(fact):
            return None
        rng = brief.rng
        condition = _clause(fact.condition)
        found = bounds(condition)
        # a second bound ("满2年未满5年") or a policy date would be told with the case's figure beside it
        if len(found) != 1 or not _named(condition, found[0]) or _YEAR.search(condition):
            return None
        bound = found[0]
        covered = [
            b
            for peer in _peers(fact, brief)
            if O.key(peer.subject) == O.key(fact.subject) and not _same_rule(peer, fact)
            for b in bounds(peer.condition)
            if b.unit == bound.unit
        ]
        meets = case_values(bound, True)
        misses = [v for v in case_values(bound, False) if not any(b.contains(v) for b in covered)]
        if brief.task.qtype == "multi":
            mixed = multi_answers(meets, misses, rng)
            if mixed is None:
                return None
            picked = [(v, met, met) for v, met in mixed]
            stem = f"下列情形中，（　）的，{fact.subject}。"
        else:
            odd_meets = len(misses) >= 3 or len(meets) < 3
            few, many = (meets, misses) if odd_meets else (misses, meets)
            if not few or len(many) < 3:
                return None
            picked = [(rng.choice(few), odd_meets, True)]
            picked += [(v, not odd_meets, False) for v in rng.sample(many, 3)]
            stem = (
                f"下列情形中，（　）的，{fact.subject}。"
                if odd_meets
                else f"下列情形中，不属于{fact.subject}情形的是（　）。"
            )
        edge = condition[bound.start : bound.end]
        told = _told([concrete(condition, bound, value) for value, _, _ in picked], rng)
        if told is None:
            return None
        choices = []
        for text, (value, met, answer) in zip(told, picked, strict=True):
            held = f"{figure(value)}{bound.unit}"
            verdict = (
                f"满足“{edge}”的条件，{fact.subject}" if met else f"不满足“{edge}”的条件，不能{fact.subject}"
            )
            choices.append(O.Option(text, answer, f"中{held}{verdict}"))
        when = O.case_date(rng, fact.source)
        return O.choice(
            [fact.id],
            brief.task.qtype,
            f"{when}，{stem}",
            O.arrange(choices, rng),
            [fact.source],
            lead=f"教材规定，{self._lead(fact)}{fact.subject}。",
            difficulty=0.55,
        )

    def _sibling_situations(self, fact: Fact, brief: Brief) -> Written | None:
        """Cases under this rule and under the rules of the same subject beside it ("家庭首套住房面积为120
        平方米" / "家庭第二套住房面积为160平方米"), asked which get this value: the right ones are the
        cases of every rule giving it, so a rule repeated for another condition is no false distractor."""
        if tangled(fact):
            return None
        rng = brief.rng
        rules = [fact] + [
            peer
            for peer in _peers(fact, brief)
            if O.key(peer.subject) == O.key(fact.subject)
            and peer.condition
            and not consequence(peer)
            and not tangled(peer)
        ]
        by_condition: dict[str, Fact] = {}
        for rule in rules:
            by_condition.setdefault(O.key(rule.condition), rule)
        rules = list(by_condition.values())
        cases = {rule.id: _cases(rule, rules) for rule in rules}
        right = [(c, r) for r in rules if r.value == fact.value for c in cases[r.id]]
        wrong = [(c, r) for r in rules if r.value != fact.value for c in cases[r.id][:1]]
        if not cases[fact.id] or len({r.value for _, r in wrong}) < 2 - (brief.task.qtype == "multi"):
            return None
        if brief.task.qtype == "multi":
            mixed = multi_answers(right, wrong, rng)
            if mixed is None:
                return None
            picked = [(*case, correct) for case, correct in mixed]
        else:
            if len(wrong) < 3:
                return None
            picked = [(rng.choice(cases[fact.id]), fact, True)]
            picked += [(*case, False) for case in rng.sample(wrong, 3)]
        told = _told([situation for situation, _, _ in picked], rng)
        if told is None:
            return None
        choices = []
        for text, (_, rule, correct) in zip(told, picked, strict=True):
            why = f"属于“{_clause(rule.condition)}”的情形，{rule.subject}{_claim(rule, _own_number(rule))}"
            choices.append(O.Option(text, correct, why))
        number = _own_number(fact)
        stem = (
            f"{O.case_date(rng, fact.source)}，下列情形中，（　）的，{fact.subject}{_claim(fact, number)}。"
        )
        return O.choice(
            [fact.id],
            brief.task.qtype,
            stem,
            O.arrange(choices, rng),
            list(dict.fromkeys(rule.source for _, rule, _ in picked)),
            difficulty=0.55,
        )

    def _conditional_case(self, fact: Fact, brief: Brief) -> Written | None:
        """A case under the fact's condition stating its value or a sibling's; or a case outside the
        condition stating the fact's value where a sibling rule of the same subject gives another."""
        rng = brief.rng
        case = self._case(fact, brief, meets=False) if rng.random() < 0.4 else None
        case = case or self._case(fact, brief, meets=True)
        if case is None:
            return None
        situation, figure_text, rule = case
        condition = _clause(fact.condition)
        number, truth, shown = _own_number(fact), rule is fact, None
        siblings = _false_side(fact, named_siblings(fact, brief))
        if truth and siblings and rng.random() < 0.5:
            shown = rng.choice(siblings)
            number, truth = shown.number, False
        analysis = f"教材规定，{_rule(rule)}。"
        if rule is fact:
            analysis += f"题中{figure_text}属于{condition}的情形，应为{_stated(fact, _own_number(fact))}"
            analysis += "，题干表述正确。" if truth else f"，而不是{_stated(fact, number)}。"
        else:
            analysis += f"题中{figure_text}不属于{condition}的情形，应为{_stated(rule, _own_number(rule))}，"
            analysis += f"而不是{_stated(fact, number)}。"
        scene = self._scene(fact, brief, situation)
        if scene is None:
            return None
        stem = f"{scene}此时{fact.subject}{_claim(fact, number)}。（　）"
        sources = [fact.source, rule.source] + ([shown.source] if shown else [])
        return O.judge([fact.id], stem, truth, analysis, sources, difficulty=0.45)

    def _bounded_case(self, fact: Fact, brief: Brief) -> Written | None:
        """No condition: the case's own figure for the bounded quantity, and whether it is within the rule."""
        if fact.comparator not in _LOWER + _UPPER or fact.value is None:
            return None
        lower = fact.comparator in _LOWER
        bound = Bound(0, 0, fact.value if lower else None, None if lower else fact.value, fact.unit)
        meets = brief.rng.random() < 0.5
        value = case_value(bound, meets, brief.rng)
        if value is None:
            return None
        shown = _stated(fact, figure(value))
        scene = self._scene(fact, brief, f"{fact.subject}为{shown}")
        if scene is None:
            return None
        stem = f"{scene}这符合规定。（　）"
        verdict = "满足" if meets else "不满足"
        analysis = f"教材规定，{_rule(fact)}。题中{shown}{verdict}这一要求。"
        return O.judge([fact.id], stem, meets, analysis, [fact.source], difficulty=0.45)


RECIPE = Threshold()
