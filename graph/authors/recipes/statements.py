"""Several facts of one knowledge point → "关于X，下列说法正确的有 / 错误的是" (严谨 multiple and single
choice). Each option is one short, complete statement taken from a different fact and a different sentence
of the slice or its section (of its chapter, for a multiple choice the section cannot fill): a true one in
the textbook's own words, a false one made from another fact by one change the textbook itself refutes —
the modal turned to its opposite (应当 → 无需, 不得 → 可以), a value swapped for a sibling value that occurs
beside it (the fee of the other class, the other year), a word turned into its opposite (卖方 → 买方, 之前 →
之后). A false option never stands beside its own true form, or beside another statement of the same rule.

Statements longer than an option should be (OPTION_MAX) are declined, not cut: a cut sentence loses the
condition that makes it true.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache

from graph.authors.falsify import MISCONDUCT, Falsified, falsifications, unbounded
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.scenario import rule_of, strict_judge
from graph.authors.recipes.standalone import fragment, leans_on_before
from graph.authors.recipes.threshold import Sibling, bounds, named_siblings, side, why_not
from retrieval.facts import Fact, FactBase, FactKind
from retrieval.text import jieba_words
from vocabulary.kinds import QuestionType

_KINDS: tuple[FactKind, ...] = ("statement", "modal", "threshold", "definition", "enumeration")
_CLAUSE_MIN = 10  # shorter statements say too little for a reader (or a checker) to place them
_CLAUSE_END = re.compile(r"[。；;！？]")
# A clause opening with these leans on the sentence before it: it cannot stand as an option.
_LEANING = (
    "因此", "所以", "但", "而", "这", "该", "其", "此", "上述", "同时", "此外", "另外", "也", "还", "即",
    "如", "例如", "比如", "否则", "并", "且", "对此", "由此", "二者", "两者", "前者", "后者", "它", "然后",
    "再", "之后", "最后", "首先", "其次", "一般来说", "通常", "实务中", "考试", "计算时", "若", "假如",
    "假设", "误", "同样", "与此", "类似",
)  # fmt: skip
# A permission to act by some means or as agreed ("可以通过出让取得", "可以按合同约定提前归还") turned into a
# prohibition contradicts itself; so does a "can" of evidence ("可以证明") told as "不得".
_GRANTED = re.compile(
    r"(?:凭|通过|采用|按照|依照|根据)[^，。；]{0,20}可以|可以(?:通过|采用|按|依|根据|凭)|约定|可以(?:证明|反映|说明|表明|体现)"
)
# A condition that leaves nothing to act on ("应纳税所得额小于零的，无需缴纳") makes the exemption a matter
# of logic: its opposite is eliminated without the rule.
_NOTHING_LEFT = re.compile(
    r"(?:小于|低于|等于|为|不足)(?:零|0)|负数|没有[\u4e00-\u9fff]{0,6}的|无[\u4e00-\u9fff]{0,6}的，"
)
# A figure told against 1 ("系数小于1时"): what it multiplies moves the way the figure says.
_AGAINST_ONE = re.compile(r"(?:小于|低于|大于|高于|超过|不足)1(?![\d.])")
_MOVES = ("提高", "降低", "增加", "减少")
# A move told as the cause ("LPR下降时，…月还款额…减少"): which way what follows moves is common sense.
_CAUSE = re.compile(r"(?:上升|下降|上调|下调|提高|降低|增加|减少)(?:时|的，|后)")
# Two named measures compared ("使用面积小于建筑面积"), the comparison turned in the false form.
_COMPARED = re.compile(
    r"(?P<left>[\u4e00-\u9fff]{2,6}?)(?:总是|一般|通常)?(?P<by>大于|小于|高于|低于|多于|少于)(?P<right>[\u4e00-\u9fff]{2,6})"
)
# Teaching remarks about the subject ("计算题中最容易混淆", "仅一字之差") are no rule a paper can ask.
_REMARK = re.compile(r"容易|混淆|易错|关键|重点|难点|一字之差|切记|务必|值得注意|需要注意|特别注意|计算题")
# After a ；the sentence may carry the exception to its first clause ("继承开始后，按照法定继承办理；有遗嘱
# 的，按照遗嘱…"): the first clause alone is then false.
_EXCEPTION = re.compile(
    r"^(?:但|有[\u4e00-\u9fff]{1,12}的|另有|除|[\u4e00-\u9fff，]{0,20}的除外|[\u4e00-\u9fff]{0,12}例外)"
)
# Formulas, worked examples, list heads and references to a list are no statements of their own.
_NOT_A_STATEMENT = re.compile(
    r"[=＝【】：:|]|\d,\d{3}|^[（(]?[\d①-⑳]|下列|以下|如下|上述|前述|此类|这些|这一|见表|如图|例题|考试|考生|教材"
    r"|[?？]|^[两二三四五六七八九]者|\d{4}年"
)
# Words of a section title that name no topic of their own: "登记类型" is about 登记.
_GENERIC_TITLE = re.compile(
    r"(?:的)?(?:类型|种类|分类|概述|概念|基本规定|内容|方法|程序|流程|要求|相关规定)$"
)
_TITLE_JOINS = re.compile(r"[与和及、的]")
_TERM_PART = 3  # a title term longer than this is matched by any of its parts of this length
# What a rule asks must say something on its own: "应当注意三点", "应当提示继承人" leave it to what follows.
VAGUE = re.compile(r"注意[一二三四五六七八九十两几\d]*[点条项]?$|^提示[\u4e00-\u9fff]{1,4}$|^.{1,4}$")
# A false statement is grounded clause by clause: each of its commas must close a condition ("…的，",
# "…时，"), or a clause of it could be read as true on its own.
_ONE_CLAIM = re.compile(r"^(?:[^，]*[的时]，)*[^，]*$")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_CONDITION_END = re.compile(r"(?:的|时)，")
_STARTS = 6  # starting points in the pool tried for one shape before the next shape
_SIMILAR = 0.5  # two statements sharing this much of their wording state the same rule
_RESTATED = 0.8  # a sentence holding this much of a statement's wording states it too
_WIDTH = 5  # a multiple choice has five options (A–E), as the field's papers print it
# How the papers ask for the true (or false) statements about a topic; varied so that a round of questions
# on one section does not open every stem alike.
_FRAMES = (
    "关于{topic}，下列说法{asked}（　）。",
    "下列关于{topic}的说法中，{asked}（　）。",
    "关于{topic}，下列表述{asked}（　）。",
    "下列关于{topic}的表述中，{asked}（　）。",
)
# A title naming a survey of its topic ("房地产经纪行业概述"): the stem asks about the topic itself.
_OVERVIEW = re.compile(r"(?:概述|概论|简介|综述|基本知识|总论)$")
_NOT_IN_TITLE = re.compile(r"^(?:第[一二三四五六七八九十百]+[篇章节]|[一二三四五六七八九十]+、)\s*")


@dataclass(frozen=True)
class Said:
    """A fact stated as an option: its true form and, when the textbook can refute one, a false form with
    the reason it is false in the subject's terms."""

    fact: Fact
    true: str
    false: str = ""
    why_false: str = ""
    # The false form turns the rule's modal or takes a sibling value: a change a reader checks against the
    # sentence itself, sharp enough to be the one answer of "错误的是".
    sharp: bool = False
    # The two words the false form swapped (全部, 部分): two options turning one pair state one fact.
    turn: tuple[str, str] = ()

    @property
    def needless(self) -> bool:
        """The false form only negates the rule or lifts its negation (应当 → 无需, 不得 → 可以): two such
        options in one question are answered by the pattern, not the rule."""
        return bool(self.false) and _negations(self.false) != _negations(self.true)


_NEGATION = re.compile(r"不(?!动产)|未|无需|禁止|非")


def negated(text: str) -> bool:
    """Whether a statement is told in the negative: options that differ only in this form let the reader
    pick the key by its polarity."""
    return _NEGATION.search(text) is not None


def _negations(text: str) -> int:
    return len(_NEGATION.findall(text))


def _terms(title: str) -> list[str]:
    """The words of a title that name its topic: "印花税与登记费" → 印花税, 登记费."""
    parts = [_GENERIC_TITLE.sub("", part) for part in _TITLE_JOINS.split(title)]
    return [part for part in parts if len(part) >= 2]


def on_topic(text: str, title: str) -> bool:
    """Whether a statement speaks of a title's topic: it names one of its terms, or for a long term
    (商业性住房贷款) a part of it (住房贷款)."""
    for term in _terms(title):
        width = min(len(term), _TERM_PART)
        if any(term[i : i + width] in text for i in range(len(term) - width + 1)):
            return True
    return False


def _standalone(text: str) -> bool:
    """A clause that can stand alone as an option: complete, short, leaning on nothing before it."""
    plain = text.strip()
    balanced = plain.count("（") == plain.count("）") and plain.count("“") == plain.count("”")
    return (
        len(O.key(plain)) >= _CLAUSE_MIN
        and len(plain) <= O.OPTION_MAX
        and balanced
        and not _REMARK.search(plain)
        and not plain.startswith(_LEANING)
        and not _NOT_A_STATEMENT.search(plain)
        and not fragment(plain)
    )


def _opening(sentence: str) -> str:
    """The sentence's first clause, or "" when the next one makes an exception to it."""
    first, *rest = _CLAUSE_END.split(sentence)
    return "" if rest and _EXCEPTION.match(rest[0].strip()) else first.strip()


def _clause(source: str, anchor: str) -> str:
    """The opening clause of the source's sentence that holds `anchor` ("" when none does): a later clause
    after a ；usually leaves its subject in the one before."""
    for sentence in re.split(r"[。！？]", source):
        first = _opening(sentence)
        if anchor and anchor in sentence:
            return first if anchor in first else ""
    return ""


def _turned(text: str) -> list[Falsified]:
    """The text with one word turned into its opposite (卖方 → 买方, 应当 → 无需). Numbers are turned only
    to sibling values (see `_false_values`); a negation merely added or dropped (超过 → 不超过) or an
    exemption turned (免征 ↔ 征收) reads, word for word, too close to the sentence it falsifies."""
    return [
        f
        for f in falsifications(text)
        if not any(ch.isdigit() for ch in f.original)
        and f.original not in f.altered
        and f.altered not in f.original
        and f.original not in ("免征", "征收", "有效", "无效")
        and f.original not in _MODALS
        and "可以以" not in f.text
        and _ONE_CLAIM.match(f.text)
    ]


# Terms differing in one end of their name are a family readers confuse (等额本息 / 等额本金).
_SAME_MEASURE = 4  # characters two names of one quantity share ("缴存比例")
_FAMILY_MIN = 4
_FAMILY_DIFF = 1
# A trend or a comparison: said of one class, it may hold of its sibling too.
_TREND = re.compile(r"较[高低多少大小长短]|递[增减]|逐[月年步]|[前后]期|[高低多少大小长短]于|越|更")
# A modal inside a statement is turned only by the rules for a modal rule (see `modal_turn`), never as a
# word: "列举了不得转让的房地产" → "可以转让的" names another list, not a wrong rule.
_MODALS = frozenset(("不得", "可以", "无需", "必须", "应当", "不需要", "需要"))


def _absurd(true: str, false: str) -> bool:
    """A false form eliminated at sight: a prohibition of misconduct turned into a permission ("可以泄露…"),
    a granted way of acting forbidden ("不得按合同约定提前归还"), an exemption the condition already
    forces turned into a duty ("应纳税所得额小于零的，应当缴纳"), a factor below 1 that raises what it
    multiplies ("系数小于1时…相应提高"), or a part turned larger than its whole ("使用面积大于建筑面积")."""
    misconduct = "不得" in true and "不得" not in false and any(word in true for word in MISCONDUCT)
    forbidden = "可以" in true and "可以" not in false and _GRANTED.search(true) is not None
    forced = _negations(true) > _negations(false) and _NOTHING_LEFT.search(true) is not None
    changed = {w for w in _MOVES if w in false and w not in true}
    arithmetic = bool(changed) and (_AGAINST_ONE.search(true) is not None or _CAUSE.search(true) is not None)
    return misconduct or forbidden or forced or arithmetic or _measure_turned(true, false)


def _measure_turned(true: str, false: str) -> bool:
    """Two measures of one thing compared ("使用面积小于建筑面积", "净高小于层高"): the comparison is how
    they are defined, and its opposite is ruled out by common sense."""
    found = _COMPARED.search(false)
    return (
        found is not None
        and found.group("by") not in true
        and O.shared_ending(found.group("left"), found.group("right")) >= 1
    )


def _concept_changed(true: str, false: str) -> bool:
    """A false form wrong on one concept of what the rule says (another party, the other side of a time),
    in the rule's own polarity. A word changed in its condition ("卖方申请贷款的") makes a case the
    textbook does not speak of, not a false rule; nor does another party in a prohibition ("不得提前向
    买方划转" may hold as well as "不得提前向卖方划转")."""
    marks = list(_CONDITION_END.finditer(true))
    changed = next((i for i, (a, b) in enumerate(zip(true, false, strict=False)) if a != b), len(true))
    return (
        _negations(false) == _negations(true) == 0
        and not _absurd(true, false)
        and (not marks or changed >= marks[-1].end())
    )


def _from_statement(fact: Fact, brief: Brief) -> Said | None:
    true = _opening(re.split(r"[。！？]", fact.source)[0])
    if not _standalone(true):
        return None
    turned = [t for t in _turned(true) if _concept_changed(true, t.text)]
    if turned:
        why = f"教材的说法是“{true}”{_other_side(turned[0], brief)}"
        return Said(fact, true, turned[0].text, why, turn=(turned[0].original, turned[0].altered))
    return _misclassed(fact, true, brief)


def _misclassed(fact: Fact, true: str, brief: Brief) -> Said:
    """The statement, false with a class it names taken for a sibling class when it names one."""
    for term, sibling in _classed(true, brief):
        false = true.replace(term, sibling)
        if _ONE_CLAIM.match(false) and not _gives_away(true.replace(term, ""), term, sibling):
            return Said(fact, true, false, f"教材的说法是“{true}”，说的是{term}，不是{sibling}")
    return Said(fact, true)


# Characters every class name of a division may share (住宅 / 商业用房 / 办公用房): they tell no class.
_GENERIC_CHARS = frozenset("房用屋地类的建筑物面积权")


def _gives_away(rest: str, term: str, sibling: str) -> bool:
    """Whether the statement's own words name its class ("住宅是供家庭居住使用的房屋": 居住 is the 住 of
    住宅), and not the sibling's: "商业用房是供家庭居住使用的房屋" is eliminated at sight."""
    own = set(term) - _GENERIC_CHARS
    other = set(sibling) - _GENERIC_CHARS
    return bool(own & set(rest)) and not other & set(rest)


def _classes(brief: Brief) -> dict[str, tuple[str, ...]]:
    """The names of the chapter's classifications, each with the other classes of its division
    (住宅 → 商业用房, 办公用房…; 国家所有 → 农民集体所有), and the terms it defines that differ only in
    one end of their name (等额本息 / 等额本金): the pairs a reader confuses."""
    found = brief.facts.of_chapter(brief.task.slice.chapter, "definition")
    classes = {f.subject: f.siblings for f in found if f.siblings and f.subject}
    terms = {f.subject for f in found if O.is_name(f.subject) and len(f.subject) >= _FAMILY_MIN}
    for term in terms:
        family = tuple(sorted(other for other in terms if other != term and _one_family(term, other)))
        if family and term not in classes:
            classes[term] = family
    return classes


def _one_family(a: str, b: str) -> bool:
    """Two names of one length that differ in their first or last character only."""
    same = max(O.shared_opening(a, b), O.shared_ending(a, b))
    return len(a) == len(b) and len(a) - _FAMILY_DIFF <= same < len(a)


def _classed(text: str, brief: Brief) -> list[tuple[str, str]]:
    """A class the statement names once, with each sibling class it could be mistaken for: the examiner's
    trap of the neighbouring category. None where a name is part of a longer one ("建筑面积" in "套内建筑
    面积"), the statement names two classes of one division (then it compares them), or it tells a trend
    or a comparison ("前期利息所占比例较高"), which may hold of the sibling as well."""
    if _TREND.search(text):
        return []
    classes = _classes(brief)
    for term, siblings in classes.items():
        longer = any(term in other and other != term and other in text for other in (*classes, *siblings))
        if text.count(term) != 1 or longer or any(s in text or term in s or s in term for s in siblings):
            continue
        return [(term, sibling) for sibling in siblings]
    return []


# A duty met another way too, told after it: the rule without it claims the one way only.
_ALTERNATIVE = re.compile(r"^[^，。；]{0,4}[，,]\s*(?:或者|或是|或)")


def _other_side(turn: Falsified, brief: Brief) -> str:
    """What the book says of the same matter for the party or kind a false statement put in ("共同共有人在
    共有关系存续期间不得单独转让其份额"), so the explanation says why it differs; "" when no clause of the
    chapter speaks of both."""
    matter = _content_words(turn.source) - _content_words(f"{turn.original}{turn.altered}")
    said = [
        (len(matter & _content_words(clause)), clause.strip())
        for f in brief.facts.of_chapter(brief.task.slice.chapter)
        for clause in re.split(r"[。！？；]", f.source)
        if turn.altered in clause and turn.original not in clause and _standalone(clause)
    ]
    best = max(said, default=(0, ""))
    return f"；此处说成了“{turn.altered}”，而教材指出“{best[1]}”" if best[0] >= _ECHO else ""


def _from_modal(fact: Fact, brief: Brief) -> Said | None:
    rule = rule_of(fact)
    if rule is None or not _standalone(rule.sentence()) or VAGUE.search(rule.consequence):
        return None
    if leans_on_before(fact.source, rule):
        return None
    sentence = next((s for s in re.split(r"[。！？]", fact.source) if rule.consequence in s), "")
    if sentence.strip().startswith(_LEANING):
        return None  # "因此，…均无需…" restates what the sentence before said
    clauses = _CLAUSE_END.split(sentence)
    at = next((i for i, c in enumerate(clauses) if rule.consequence in c), len(clauses))
    if at + 1 < len(clauses) and _EXCEPTION.match(clauses[at + 1].strip()):
        return None  # the rule holds only with the exception the next clause makes
    if _ALTERNATIVE.match(sentence[sentence.find(rule.consequence) + len(rule.consequence) :]):
        return None  # "全体共有人应当签字，或者由未签字的共有人出具书面意见": half a rule is a wrong one
    sentence = rule.sentence()
    # Another party or time in the same form (卖方 → 买方, 之前 → 之后) is wrong on one concept and reads
    # as true as the rule; only without one is the modal itself turned.
    # Neither is sharp: the textbook check reads another word as unknown, not as a contradiction, so such
    # a statement serves as a distractor but never as the key of "错误的是".
    concept = [t for t in _turned(sentence) if _concept_changed(sentence, t.text)]
    bound = unbounded(sentence) if rule.modal == "可以" else None
    if bound:
        return Said(fact, sentence, bound, f"按照规定，{sentence}")
    if concept:
        why = f"按照规定，{sentence}{_other_side(concept[0], brief)}"
        return Said(fact, sentence, concept[0].text, why, turn=(concept[0].original, concept[0].altered))
    told = strict_judge(rule, truth=False)
    false = told.stem.removesuffix("。（　）") if told else ""
    if not false or "可以以" in false or not _ONE_CLAIM.match(false) or _absurd(rule.sentence(), false):
        return Said(fact, rule.sentence())
    # "须" alone also reads as part of other words (仍须, 必须): its opposite is not sharp enough to key.
    return Said(fact, rule.sentence(), false, f"按照规定，{rule.sentence()}", sharp=rule.written != "须")


def _false_values(fact: Fact, clause: str, at: int, brief: Brief) -> list[Sibling]:
    """Sibling values that make the clause false under any reading. In a condition ("购买2年以上的，免征")
    a lower bound may only be stated lower and an upper bound higher — "5年以上" would still be true; a
    value the clause states as what holds ("税率为3%") may take any sibling; a stated bound ("不低于2.40米")
    is left alone, since a stricter or looser bound can each be read as true."""
    siblings = named_siblings(fact, brief)
    value = fact.value or 0.0
    marks = list(_CONDITION_END.finditer(clause))
    in_condition = bool(marks) and at < marks[-1].start()
    bound = next((b for b in bounds(clause) if b.start <= at < b.end), None)
    if in_condition:
        if bound is None or (bound.low is None) == (bound.high is None):
            return []
        lower = bound.low is not None
        return [sibling for sibling in siblings if (sibling.value < value) == lower]
    if bound is None:
        return siblings
    return [s for s in siblings if s.owner is not None and _other_end(fact, s.owner)]


def _other_end(fact: Fact, owner: Fact) -> bool:
    """Whether `owner` bounds the fact's own quantity from the other side ("缴存比例不低于5%" beside "缴存比例
    不高于12%"): a floor told with the cap's figure is the examiner's trap of the two ends, false under any
    reading, where another figure of a stated bound could be read as a stricter bound that still holds."""
    sides = {side(f) for f in (fact, owner)}
    a, b = fact.subject, owner.subject
    shared = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b)).size
    return sides == {"upper", "lower"} and shared >= _SAME_MEASURE


def _from_threshold(fact: Fact, brief: Brief) -> Said | None:
    clause = _clause(fact.source, fact.value_text)
    numbers = list(_NUMBER.finditer(clause))
    if not _standalone(clause) or len(numbers) != 1 or fact.value is None:
        return None
    at = numbers[0].start()
    wrong = _false_values(fact, clause, at, brief)
    if not wrong or not _ONE_CLAIM.match(clause):
        return Said(fact, clause)
    sibling = sorted(wrong, key=lambda s: s.value)[brief.rng.randrange(len(wrong))]
    false = f"{clause[:at]}{sibling.number}{clause[numbers[0].end() :]}"
    return Said(fact, clause, false, f"教材的说法是“{clause}”；{why_not(fact, sibling)}", sharp=True)


def _from_named(fact: Fact, brief: Brief) -> Said | None:
    """A definition or a list, stated as the textbook states it, or false with a class it names taken for
    its sibling ("城市市区的土地属于农民集体所有"); other changes to it belong to other recipes."""
    clause = _clause(fact.source, fact.subject)
    return _misclassed(fact, clause, brief) if _standalone(clause) else None


def said(fact: Fact, brief: Brief) -> Said | None:
    """The fact as an option; its false form is dropped when the book says it somewhere (see `_told`)."""
    found = _said(fact, brief)
    if found is not None and found.false and _told(found.true, found.false, brief.facts):
        return replace(found, false="", why_false="", sharp=False)
    return found


def _said(fact: Fact, brief: Brief) -> Said | None:
    if fact.kind == "statement":
        return _from_statement(fact, brief)
    if fact.kind == "modal":
        return _from_modal(fact, brief)
    if fact.kind == "threshold":
        return _from_threshold(fact, brief)
    if fact.kind in ("definition", "enumeration"):
        return _from_named(fact, brief)
    return None


@lru_cache(maxsize=4)
def _clauses(facts: FactBase) -> tuple[tuple[str, frozenset[str]], ...]:
    """Every clause of the book's sentences, each once, as `_told` compares it (its key and its bigrams):
    worked out once per book, since every option with a false form is held against all of them."""
    found = {c.strip() for f in facts for c in re.split(r"[。！？；;，,]", f.source) if c.strip()}
    return tuple((O.key(c), frozenset(_bigrams(c, figures=True))) for c in sorted(found))


@lru_cache(maxsize=1024)
def _told(true: str, false: str, facts: FactBase) -> bool:
    """Whether a clause anywhere in the book states the false form: a party turned (买方 → 卖方) may be just
    what another clause says ("卖方应当提供…身份证明" beside "买方应当提供身份证明"), and a distractor the
    book supports is a second key. The clause must hold the false form up to and with its change (so a
    sibling value said of another subject does not count) and nearly all of its wording. Remembered: an
    author aiming at a band writes the same options over and over, and each answer reads the whole book."""
    end = O.shared_ending(true, false)
    head = O.key(false[: len(false) - end + 1])
    mine = _bigrams(false, figures=True)
    true_key = O.key(true)
    return bool(head and mine) and any(
        head in clause and len(mine & bigrams) >= _RESTATED * len(mine)
        for clause, bigrams in _clauses(facts)
        if clause != true_key
    )


def _bigrams(text: str, *, figures: bool = False) -> set[str]:
    """The text's two-character pieces; without its figures unless asked (40年 and 70年 then differ)."""
    plain = O.key(text if figures else _NUMBER.sub("", text))
    return {plain[i : i + 2] for i in range(len(plain) - 1)}


def alike(a: str, b: str) -> bool:
    """Two statements of one rule: most of the shorter one's wording is in the other."""
    left, right = _bigrams(a), _bigrams(b)
    return bool(left and right) and len(left & right) >= _SIMILAR * min(len(left), len(right))


def _restates(text: str, source: str) -> bool:
    """Whether a sentence of `source` holds nearly all of the statement's wording."""
    mine = _bigrams(text)
    return bool(mine) and any(
        len(mine & _bigrams(sentence)) >= _RESTATED * len(mine) for sentence in re.split(r"[。！？]", source)
    )


def around(fact: Fact, brief: Brief, kinds: tuple[FactKind, ...]) -> list[list[Fact]]:
    """The facts a question about `fact` may also use, in rings: its own slice, the other slices of its
    section the task holds, the rest of its chapter."""
    slices = {s.id: s for s in (brief.task.slice, *brief.task.neighbours)}
    home = slices.get(fact.slice_id, brief.task.slice)
    section = [s.id for s in slices.values() if s.id != home.id and s.path[:-1] == home.path[:-1]]
    found = (
        brief.facts.of_slice(home.id),
        [f for slice_id in section for f in brief.facts.of_slice(slice_id)],
        brief.facts.of_chapter(home.chapter),
    )
    seen = {fact.id}
    rings = []
    for ring in found:
        kept = [f for f in ring if f.kind in kinds and f.id not in seen]
        seen.update(f.id for f in kept)
        rings.append(kept)
    return rings


def common_title(facts: list[Fact], brief: Brief) -> str:
    """What the facts have in common, named: their slice's title, or their section's or chapter's (a
    slice the task does not hold counts as somewhere in the chapter)."""
    paths = {s.id: s.path for s in (brief.task.slice, *brief.task.neighbours)}
    chapter = brief.task.slice.path[: len(brief.task.slice.chapter)]
    found = [paths.get(f.slice_id, chapter) for f in facts]
    depth = 0
    while all(len(p) > depth and p[depth] == found[0][depth] for p in found):
        depth += 1
    return _NOT_IN_TITLE.sub("", found[0][depth - 1]).strip() if depth else ""


@dataclass(frozen=True)
class _Pick:
    said: Said
    true: bool

    @property
    def text(self) -> str:
        return self.said.true if self.true else self.said.false


@dataclass(frozen=True)
class _Shape:
    """How many true and false options; `ask_false` keys the false one ("下列说法错误的是")."""

    trues: int
    falses: int
    ask_false: bool = False

    def takes(self, said: Said, true: bool) -> bool:
        """A keyed false statement must be a sharp one (see `Said.sharp`)."""
        return true or (bool(said.false) and (said.sharp or not self.ask_false))

    def filled(self, picks: list[_Pick]) -> bool:
        return sum(p.true for p in picks) == self.trues and sum(not p.true for p in picks) == self.falses


def _told_by_polarity(picks: list[_Pick], keyed: bool) -> bool:
    """Whether every key is told in one polarity and every distractor in the other ("the only affirmative
    sentence is the key"): the question is then answered by the form, not the rule."""
    keys = {negated(p.text) for p in picks if p.true == keyed}
    others = {negated(p.text) for p in picks if p.true != keyed}
    return len(keys) == len(others) == 1 and keys != others


# Modals: two rules sharing only these speak of different matters.
_ECHO = 2  # words two options share when they speak of the same matter, not only of the same topic
_PLAIN_WORDS = frozenset(("应当", "无需", "不得", "可以", "必须", "需要", "不需要", "应该", "禁止"))


def _content_words(text: str) -> set[str]:
    return {w for w in jieba_words(text) if len(w) >= 2 and w not in _PLAIN_WORDS}


def _echoed(false: _Pick, true: _Pick) -> bool:
    """Whether a rule merely negated ("首付款无需来源于自有资金") stands beside a true option on the same
    matter ("借款人应先支付规定比例的首付款"): in a multiple choice, where it is often the one distractor,
    the true one rules it out at sight."""
    return (
        not false.true
        and true.true
        and false.said.needless
        and len(_content_words(false.text) & _content_words(true.text)) >= _ECHO
    )


def _one_pair(one: Said, other: Said) -> bool:
    """Two statements falsified by one pair of words on one matter ("按标准价购买的，取得部分产权" and "补足
    差价转为全部产权"): they are the two halves of one fact, and either tells the other."""
    if not one.turn or set(one.turn) != set(other.turn):
        return False
    words = _content_words("".join(one.turn))
    return bool((_content_words(one.true) - words) & (_content_words(other.true) - words))


_SAME_SUBJECT = 4  # characters two statements share at their opening when they speak of one party or thing


def _one_false(a: str, b: str) -> bool:
    """Two false statements of one subject on one matter ("共同共有人可以转让…份额" and "共同共有人在共有关系
    存续期间可以单独转让其份额"): one false fact offered twice."""
    if not a or not b or alike(a, b):
        return bool(a and b)
    opening = O.shared_opening(a, b)
    if opening < _SAME_SUBJECT:
        return False
    return len(_content_words(a[opening:]) & _content_words(b[opening:])) >= _ECHO


_SAME_MATTER = 5  # content words two statements share when they tell one rule in other words
# A sum of money told in a case ("收取10万元定金后一房二卖的，应返还20万元"): an instance of some rule.
_SUM = re.compile(r"\d+(?:\.\d+)?万?元")


def _one_rule(a: str, b: str) -> bool:
    """Two statements of one rule in other words ("满5年且为家庭唯一生活用房，免征个人所得税" beside "是家庭
    唯一住房但持有未满五年的，不能享受个人所得税免税优惠"), or a rule beside a case of it worked out in money
    ("应当双倍返还定金" beside "收取10万元定金后一房二卖的，应返还20万元"): knowing one tells the other."""
    shared = len(_content_words(a) & _content_words(b))
    return shared >= _SAME_MATTER or (shared >= _ECHO and bool(_SUM.search(a)) != bool(_SUM.search(b)))


class Statements:
    name = "statements"
    kinds: tuple[FactKind, ...] = _KINDS
    qtypes: tuple[QuestionType, ...] = ("multi", "single")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        """The fact's own statement, then the slice's others; for a multiple choice the section's and the
        chapter's when the slice is too thin (the stem then names the wider topic)."""
        if brief.task.mode != "strict" or brief.task.qtype not in self.qtypes:
            return None
        anchor = said(fact, brief)
        if anchor is None:
            return None
        pool: list[Said] = []
        rings = around(fact, brief, _KINDS)
        # A single choice keeps to its slice, or its section when the slice alone would leave the key the
        # one sentence of its polarity, and reaches the chapter only when neither has distractors enough:
        # a round of questions on one chapter does not ask "关于<the chapter>" again and again.
        for depth, ring in enumerate(rings):
            brief.rng.shuffle(ring)
            pool += [s for s in (said(f, brief) for f in ring) if s is not None]
            if depth == 1:
                # The section ring is named by the section's title: an option from another knowledge
                # point must speak of that topic, or it wanders off the stem. (A chapter's title names
                # a whole part of the subject, which its knowledge points all speak of.)
                title = common_title([fact, *ring], brief)
                pool = [s for s in pool if s.fact.slice_id == fact.slice_id or on_topic(s.true, title)]
            # Facts the chat was asked lately fill options only when the others cannot.
            fresh = [s for s in pool if s.fact.id not in brief.task.avoid]
            for options in [fresh, pool] if len(fresh) < len(pool) else [pool]:
                for shape in self._shapes(brief):
                    picks = self._pick(anchor, options, shape, brief)
                    written = self._written(picks, shape, brief) if picks is not None else None
                    if written is not None:
                        return written
        return None

    def _shapes(self, brief: Brief) -> list[_Shape]:
        """A multiple choice has five options (four when the material is thinner) with two or more keys and
        a distractor; a single choice has the one true statement among false ones, or the one false among
        true ones."""
        rng = brief.rng
        if brief.task.qtype == "single":
            shapes = [_Shape(1, 3), _Shape(3, 1, ask_false=True)]
            rng.shuffle(shapes)
            return shapes
        keys = list(range(2, _WIDTH))
        rng.shuffle(keys)
        return [_Shape(k, _WIDTH - k) for k in keys]

    def _pick(self, anchor: Said, pool: list[Said], shape: _Shape, brief: Brief) -> list[_Pick] | None:
        """The anchor as a true or a false option, then the pool's facts in order (from each of a few
        starting points), each once, none from a sentence already used or stating a rule already stated,
        and the keys not told apart from the distractors by their polarity alone."""
        roles = [role for role in (True, False) if shape.takes(anchor, role)]
        brief.rng.shuffle(roles)
        starts = range(min(len(pool), _STARTS) or 1)
        for role, start in ((role, start) for role in roles for start in starts):
            picked = [_Pick(anchor, role)]
            for candidate in pool[start:] + pool[:start]:
                need = [
                    r
                    for r, n in ((True, shape.trues), (False, shape.falses))
                    if sum(p.true == r for p in picked) < n
                ]
                needless = any(not p.true and p.said.needless for p in picked) and candidate.needless
                fitting = [
                    _Pick(candidate, r)
                    for r in need
                    if shape.takes(candidate, r)
                    and (r or not needless)
                    and not (
                        brief.task.qtype == "multi"
                        and any(
                            _echoed(_Pick(candidate, r), p) or _echoed(p, _Pick(candidate, r)) for p in picked
                        )
                    )
                ]
                if fitting and not any(self._clash(candidate, p.said) for p in picked):
                    picked.append(fitting[0])
            if shape.filled(picked) and not _told_by_polarity(picked, keyed=not shape.ask_false):
                return picked
        return None

    def _clash(self, one: Said, other: Said) -> bool:
        """Two options from one sentence (one source holding the other's statement, or nearly all its
        wording: "交易资金不得直接支付给经纪机构" restates the second half of "交易资金应当存入监管账户，
        不得直接支付给经纪机构"), or two statements of one rule (see `_one_rule`)."""
        return (
            O.key(one.true) in O.key(other.fact.source)
            or O.key(other.true) in O.key(one.fact.source)
            or _restates(one.true, other.fact.source)
            or _restates(other.true, one.fact.source)
            or alike(one.true, other.true)
            or _one_pair(one, other)
            or any(alike(a.false, b.true) for a, b in ((one, other), (other, one)) if a.false)
            or _one_false(one.false, other.false)
            or _one_rule(one.true, other.true)
        )

    def _written(self, picks: list[_Pick], shape: _Shape, brief: Brief) -> Written | None:
        qtype = brief.task.qtype
        facts = [p.said.fact for p in picks]
        title = common_title(facts, brief)
        home = facts[0].slice_id
        chapter = _NOT_IN_TITLE.sub("", brief.task.slice.chapter[-1]).strip()
        wandering = title != chapter and not all(
            f.slice_id == home or on_topic(p.text, title) for f, p in zip(facts, picks, strict=True)
        )
        if not title or wandering:
            return None
        wanted = "错误" if shape.ask_false else "正确"
        ending = "有" if qtype == "multi" else "是"
        topic = _OVERVIEW.sub("", title) or title
        # "下列关于房源信息的发布的表述": a topic told with 的 takes the frames that add none.
        frames = [f for f in _FRAMES if "的" not in topic or not f.startswith("下列关于")]
        frame = brief.rng.choice(frames)
        stem = frame.format(topic=topic, asked=f"{wanted}的{ending}")
        keyed = wanted == "正确"
        choices = [
            O.Option(
                p.text,
                p.true == keyed,
                "说法正确，与教材的规定一致" if p.true else f"说法错误，{p.said.why_false}",
            )
            for p in picks
        ]
        return O.choice(
            [f.id for f in facts],
            qtype,
            stem,
            O.arrange(choices, brief.rng),
            [f.source for f in facts],
            difficulty=0.6 if qtype == "multi" else 0.5,
        )


RECIPE = Statements()
