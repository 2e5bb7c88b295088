"""Thresholds and quantities: what is bounded, how, by which value, and under which condition.

Each value is attached to the subject of its own clause ("首付比例不低于20%，贷款期限不超过30年" gives two
facts), a clause without a subject of its own takes the previous one ("…契税减按1%征收；…的，减按2%征收"),
and a parallel clause that names only the part that differs ("一套为15%、二套为25%") takes the previous
subject with that part swapped. A quantity that bounds a later one in the same clause ("90平方米及以下按1%")
is the condition of that later one, not a threshold of its own. When the only number of a rule sits in its
condition ("持有满2年的，免征增值税"), the bound is the fact: its subject is the rule's consequence and its
condition the clause that holds the number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.compiler.clauses import (
    Rule,
    bracket_depths,
    is_condition,
    joined,
    rules,
    split_outside_brackets,
    strip_clause,
)
from retrieval.compiler.phrases import clean_subject, is_pronoun, is_time, split_time
from retrieval.compiler.quantities import Quantity, find_quantities
from retrieval.facts import Fact

_BEFORE: dict[str, str] = {
    "不得低于": "不低于",
    "不应低于": "不低于",
    "不低于": "不低于",
    "不得少于": "不低于",
    "不少于": "不低于",
    "不小于": "不低于",
    "至少为": "不低于",
    "至少": "不低于",
    "最低为": "不低于",
    "最低": "不低于",
    "不得超过": "不超过",
    "不应超过": "不超过",
    "不超过": "不超过",
    "不得高于": "不超过",
    "不高于": "不超过",
    "不多于": "不超过",
    "不大于": "不超过",
    "最多为": "不超过",
    "最多": "不超过",
    "最长为": "不超过",
    "最长": "不超过",
    "最高为": "不超过",
    "最高": "不超过",
    "未满": "不满",
    "不满": "不满",
    "不足": "不满",
    "超过": "超过",
    "多于": "超过",
    "大于": "超过",
    "高于": "高于",
    "低于": "低于",
    "少于": "低于",
    "小于": "低于",
    "年满": "满",
    "满": "满",
    "达到": "满",
    "减按": "为",
    "按照": "为",
    "按": "为",
    "适用": "为",
    "控制在": "为",
    "降为": "为",
    "降至": "为",
    "调整为": "为",
    "提高到": "为",
    "提高至": "为",
    "达": "为",
    "执行": "为",
    "实行": "为",
    "约为": "为",
    "约": "为",
    "为": "为",
    "是": "为",
}
_BEFORE_PATTERN = re.compile("(?:" + "|".join(sorted(_BEFORE, key=len, reverse=True)) + r")\s*$")
_BOUND_START = re.compile("^(?:" + "|".join(w for w, c in _BEFORE.items() if c != "为") + ")")
_AFTER: dict[str, str] = {
    "及以上": "以上",
    "以上": "以上",
    "及以下": "以下",
    "以下": "以下",
    "以内": "不超过",
    "之内": "不超过",
    "内": "不超过",
}
_AFTER_PATTERN = re.compile(r"^\s*(?:及以上|以上|及以下|以下|以内|之内|内)")
_DEADLINE_START = re.compile(r"(?:之日起|起|之后|以后|后|之前|以前|前)$")
_DEADLINE_LEAD = re.compile(r"(?:应当|应|须|必须|需|要|可|可以)?在$")
_FROM = re.compile(r"(?:自|从)\S*?(?:之日起|起)$")
_WITHIN = re.compile(r"^\s*(?:以内|之内|内)")
_PERIODS = frozenset({"年", "个月", "日", "工作日", "小时"})
_LEADING_MODAL = re.compile(r"^(?:应当|应|必须|须|需要|需|可以|可|要|即|便|就)")
_PARALLEL_MAX = 3
_CASE_MAX = 8
_SHARES = frozenset({"%", "‰", "成"})
_WORDS = re.compile("|".join(sorted(_BEFORE, key=len, reverse=True)))
_BASE = re.compile(r"(?P<base>[^，,、；;：:的]{1,12})的\s*")
_NAMES = re.compile(r"^\s*(?:为|是|属于|称为)(?P<name>[^，,。；;]{1,12})$")
_VERB_END = re.compile(r"(?:处以|收取|缴纳|支付|给予|发放|赔偿|返还|退还|补缴|加收|罚款)$")
_APPLIES = re.compile(r"(?:适用|执行|实行)\s*$")
_ARITHMETIC = re.compile(
    r"(?:乘以|除以|加上|减去|等于|乘|(?<![扣免])除|(?<![附增追参])加|(?<![扣免缩递])减)$"
)
_DEFINING = re.compile(r"是指|指的是")
# "与普通住宅的70年不同", "不得把…说成有70年产权": a comparison or a forbidden claim, not the book's value.
_NOT_A_SUBJECT = re.compile(
    r"^(?:与|和|同|跟|比|高于|低于|多于|少于|大于|小于|超过|不足)|不得|不能|禁止|严禁|把"
)
_PREDICATE = re.compile(r"^(?:应|须|必须|可|不得|不能|免|不|需|均|一律|由|按)")
_STATED_CONDITION = re.compile(r"的(?:情形|部分|所得|收入|房屋|住房)?$")
# A colon followed by a numbered item: the sentence lists its rules ("…分为三档：①", "…注意：\n（1）").
_LISTED = re.compile(r"[：:]\s*(?=(?:（\s*\d{1,2}\s*）|\(\s*\d{1,2}\s*\)|[①-⑳]))")
_ITEM_MARK = re.compile(r"(?:（\s*\d{1,2}\s*）|\(\s*\d{1,2}\s*\)|[①-⑳])")
# A lead that says what the listed rules are of ("城市维护建设税按所在地分为三档", "…上市出售时，按…缴纳
# 土地收益", "土地增值税实行四级超率累进税率"); any other lead only announces the list ("应当注意").
_SCOPE = re.compile(r"分为|分成|实行|时$|按[^，]{0,12}(?:缴纳|征收|计算|收取)")
# An item's own short label before its rule ("①期限上限，任何借款人…", "（1）据实征收：卖方…"): a name for the
# item, not a condition of it.
_LABEL = re.compile(r"^[\u4e00-\u9fff]{2,6}[：:，,](?=.)")
_CITATION = re.compile(r"[（(][^（）()]*(?:公告|〔\d{4}〕|号|令)[^（）()]*[）)]")
_JOINED = re.compile(
    r"^\s*(?:或者|或|和|及|与|、)\s*$"
)  # "二套", "县城": the short stand-in of a parallel clause


def comparator(before: str, after: str) -> tuple[str, int, int]:
    """The comparator and how many characters it takes from the end of `before` and the start of `after`.

    A bounding word before the number wins ("不超过3年以内"); a plain "为/按" yields to "以上/以下" after it
    ("为140平方米以上" is 以上).
    """
    pre = _BEFORE_PATTERN.search(before)
    post = _AFTER_PATTERN.match(after)
    word = _BEFORE[pre.group().strip()] if pre else ""
    used_before = len(before) - pre.start() if pre else 0
    used_after = post.end() if post else 0
    if word and word != "为":
        return word, used_before, used_after
    if post:
        return _AFTER[post.group().strip()], used_before, used_after
    return "为", used_before, 0


def _outside_brackets(text: str, quantities: list[Quantity]) -> list[Quantity]:
    depths = bracket_depths(text)
    return [q for q in quantities if depths[q.start] == 0]


def _chunks(clause: str) -> list[str]:
    """A clause split at "、" when more than one part carries a number: parallel statements, not a list."""
    parts = split_outside_brackets(clause, "、")
    if any(_BOUND_START.match(part) for part in parts[1:]):
        return [clause]  # "大于27米、不大于100米的住宅": two bounds of one range
    if sum(1 for part in parts if find_quantities(part)) > 1:
        return parts
    return [clause]


def _parallel(subject: str, previous: str) -> str:
    """ "二套" after "一套住房最低首付比例" → "二套住房最低首付比例"; unchanged when that does not fit."""
    size = len(subject)
    if (
        previous
        and size <= _PARALLEL_MAX
        and len(previous) > size
        and previous[size - 1] == subject[-1]
        and previous[:size] != subject
    ):
        return subject + previous[size:]
    return subject


class _Reader:
    """Reads one sentence; remembers the last subject so elliptical clauses can take it."""

    def __init__(self, sentence: str) -> None:
        self.sentence = sentence
        self.subject = ""
        self.classified = ""  # "城市维护建设税" of "…按地区分为市区7%、县城和镇5%" for the later parts
        self.facts: list[Fact] = []

    def fact(self, quantity: Quantity, subject: str, word: str, condition: str) -> None:
        self.facts.append(
            Fact(
                id="",
                kind="threshold",
                slice_id="",
                source=self.sentence,
                subject=subject,
                comparator=word,
                value=quantity.value,
                unit=quantity.unit,
                value_text=quantity.text,
                condition=condition,
            )
        )

    def chunk(self, text: str, context: list[str], following: list[str]) -> bool:
        """Facts of one clause (or one "、" part of it); False when it holds no number."""
        quantities = _outside_brackets(text, find_quantities(text))
        if not quantities:
            return False
        if _DEFINING.search(text):
            return True  # "层高是指上下两层楼面…": a number inside a meaning bounds nothing
        last = quantities[-1]
        values = (
            [q for q in quantities if q.range_part] if last.range_part else _alternatives(text, quantities)
        )
        bounds = [
            q
            for q in quantities
            if q.end <= values[0].start and not q.range_part and comparator(*_around(text, q))[0] != "为"
        ]
        first = bounds[0] if bounds else values[0]
        _, used_before, _ = comparator(*_around(text, first))
        prefix = text[: first.start - used_before]
        share = _share(text[: first.start]) if not bounds and last.unit in _SHARES else None
        if share:
            prefix = text[: share.start]
        _, _, used_after = comparator(*_around(text, last))
        after = text[last.end + used_after :]
        bound = ""
        if bounds:
            bound = text[
                first.start - used_before : bounds[-1].end + comparator(*_around(text, bounds[-1]))[2]
            ]
        time, rest = split_time(clean_subject(prefix))
        subject = clean_subject(rest)
        extra = [time, bound]
        if bounds and "的" in text[bounds[-1].end : values[0].start]:
            # "贷款期限5年以下的为2.1%": the prefix is what the bound measures, not what the value is
            extra, subject = [time, strip_clause(prefix) + bound], ""
        named = _NAMES.match(after)
        if last.unit in _PERIODS and _WITHIN.match(text[last.end :]):
            time, subject = self.deadline(prefix, text[last.end :], following)
            extra[0] = time
        elif named:  # "1至3层为低层": the number says what the class is
            subject = clean_subject(named["name"])
        elif after.startswith("的") and comparator(*_around(text, last))[0] != "为":
            # "建筑高度不大于27米的住宅为低层或多层民用建筑": the bound picks out what the rule is about;
            # "…超过16米的住宅，应当设置电梯": or what the next clause says of it.
            owner = re.search(r"(?:为|属于|是)", after)
            if owner:
                subject = clean_subject(after[owner.end() :])
                extra = [text[: last.end + used_after + owner.start()]]
                values = [*bounds, *values]  # both ends of "大于27米、不大于100米的住宅为高层"
            elif following and len(strip_clause(after[1:])) <= _CASE_MAX and _PREDICATE.match(following[0]):
                subject = strip_clause(following[0])
                extra = [text]
            else:
                subject = clean_subject(after[1:])
                extra = [text[: last.end + used_after + 1]]
        elif "分为" in prefix or "分成" in prefix:
            head, _, case = re.split(r"(分为|分成)", prefix, maxsplit=1)
            subject = clean_subject(re.sub(r"(?:按照|按|根据|依据).*$", "", head))
            self.classified, extra[0] = subject, case
        elif self.classified and len(subject) <= _CASE_MAX:
            subject, extra[0] = self.classified, subject
        elif share:
            # "月还款额不超过月收入的50%" → 月还款额占月收入的比例; "按成交价的10%" → 成交价的比例
            by_rate = share.word in ("按", "按照", "减按")
            subject = f"{subject}占{share.base}的比例" if subject and not by_rate else f"{share.base}的比例"
        elif _APPLIES.search(text[: first.start]) and self.subject:
            subject, extra[0] = (
                self.subject,
                subject,
            )  # "多数城市适用1%": the earlier subject, in those cities
        elif _VERB_END.search(subject) and strip_clause(after):
            subject += clean_subject(after)  # "对经纪人员处以1万元罚款" → 对经纪人员处以罚款
        if is_time(subject):
            extra[0], subject = subject, ""  # "2026年起按3%": a start, not a subject
        if is_pronoun(subject):
            subject = self.subject
        elif not named:
            subject = _parallel(subject, self.subject)
        if not subject or _ARITHMETIC.search(subject) or _NOT_A_SUBJECT.search(subject):
            return True
        self.subject = subject
        condition = joined([*context, *extra])
        for quantity in values:
            if quantity.range_part:
                word = "不低于" if quantity.range_part == "low" else "不超过"
            else:
                word = _reading(text, quantity)
            self.fact(quantity, subject, word, condition)
        return True

    @staticmethod
    def deadline(prefix: str, after: str, following: list[str]) -> tuple[str, str]:
        """(start, act) of "登记机构应当自受理申请之日起30日内办结": the period bounds the act from its start.

        The act follows the period, in the same clause or the next one ("合同签订后30日内，应当办理网签").
        """
        lead = _DEADLINE_LEAD.sub("", clean_subject(prefix))
        opening = _FROM.search(lead)
        if opening:
            agent, start = lead[: opening.start()], lead[opening.start() :]
        elif _DEADLINE_START.search(lead):
            agent, start = "", lead
        else:
            agent, start = lead, ""
        acts = [_WITHIN.sub("", after), *following]
        act = next((_LEADING_MODAL.sub("", strip_clause(a)) for a in acts if strip_clause(a)), "")
        return start, clean_subject(agent) + act if act else ""

    def rule(self, rule: Rule) -> None:
        found = False
        for index, clause in enumerate(rule.main):
            self.classified = ""
            # Earlier plain clauses of the rule set the scene ("办理非住宅登记，每件收费550元").
            scene = [c for c in rule.main[:index] if not find_quantities(c)]
            for chunk in _chunks(clause):
                found = self.chunk(chunk, [*rule.conditions, *scene], list(rule.main[index + 1 :])) or found
        if found or not rule.main:
            return
        # The rule's only numbers are in its condition: the bound is what the rule turns on.
        consequence = clean_subject(rule.main[0])
        if _ARITHMETIC.search(consequence) or _NOT_A_SUBJECT.search(consequence):
            return
        for clause in (c for c in rule.own if _STATED_CONDITION.search(c)):
            for quantity in _outside_brackets(clause, find_quantities(clause)):
                self.fact(quantity, consequence, _reading(clause, quantity), joined(list(rule.conditions)))


def _alternatives(text: str, quantities: list[Quantity]) -> list[Quantity]:
    """The last value with the ones joined to it by 或者/和 ("通常为40年或者50年")."""
    values = [quantities[-1]]
    for quantity in reversed(quantities[:-1]):
        if quantity.unit != values[0].unit or not _JOINED.match(text[quantity.end : values[0].start]):
            break
        values.insert(0, quantity)
    return values


def _around(text: str, quantity: Quantity) -> tuple[str, str]:
    return text[: quantity.start], text[quantity.end :]


@dataclass(frozen=True)
class _Share:
    """ "不超过月收入的" before "50%": the comparator word, what the share is of, where the word starts."""

    word: str
    base: str
    start: int


def _share(before: str) -> _Share | None:
    """The nearest comparator word followed by "X的" right before a percentage, if there is one."""
    for word in reversed(list(_WORDS.finditer(before))):
        base = _BASE.fullmatch(before, word.end())
        if base:
            return _Share(word.group(), base["base"], word.start())
    return None


def _reading(text: str, quantity: Quantity) -> str:
    """The comparator of one quantity, read through a share ("超过造成损失的30%" is 超过)."""
    share = _share(text[: quantity.start]) if quantity.unit in _SHARES else None
    if share and _BEFORE[share.word] != "为":
        return _BEFORE[share.word]
    return comparator(*_around(text, quantity))[0]


def _items(sentence: str) -> list[str]:
    """A sentence read as the rules it lists: "税率分为三档：①…的，税率为7%；②…的，税率为5%" is one rule
    per item, so no item's condition leaks into the next ("一类…前购买，二类经济适用住房"). The lead before
    the colon stays with each item when it says what the items are of ("城市维护建设税按所在地分为三档"), and
    is dropped when it only announces them or says something of its own ("计算时应当注意", "收费标准为",
    "是否征税取决于卖方持有住房的年限"). Citations in brackets
    ("（财政部 税务总局公告2025年第17号）") are no part of any condition."""
    text = _CITATION.sub("", strip_clause(sentence))
    colon = _LISTED.search(text)
    if colon is None:
        return [text]
    lead = strip_clause(text[: colon.start()])
    parts = [strip_clause(p) for p in _ITEM_MARK.split(text[colon.end() :]) if strip_clause(p)]
    parts = [_LABEL.sub("", p) if not is_condition(p.split("，")[0]) else p for p in parts]
    if len(parts) < 2:
        return [text]
    keep = bool(_SCOPE.search(lead))
    return [f"{lead}，{part}" if keep else part for part in parts]


def extract_thresholds(sentence: str) -> list[Fact]:
    reader = _Reader(sentence)
    for item in _items(sentence):
        reader.subject = reader.classified = ""
        for rule in rules(item):
            reader.rule(rule)
    return reader.facts
