"""The measures grounding compares a statement with a textbook sentence by: normalised text, how much of a
statement's content a sentence covers, and the markers a falsification changes — numbers with the way their
bound points, modal verbs, negations and word opposites.

Content is compared as characters covered by a shared character bigram, so a paraphrase that keeps the
words but not their glue ("因…向…") still aligns, while a changed word (转移登记 for 变更登记) does not.
Markers are cut out of the content before coverage is measured: a flipped modal must not hide the
sentence it contradicts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from retrieval.chapters import chinese_number

# Characters that glue words rather than carry them: a statement is not "uncovered" for lacking them.
GLUE = frozenset("的了是为在和与及或等对把被将由于之其所而则也都就该此各即并且从向到以")
# The words of a question's frame ("下列…中，正确的是"): what the question asks, not what it asserts.
FRAME_WORDS = re.compile(
    r"(?:下列|以下)[^，,。；;]{0,6}?中|下列|以下(?=各|说法|表述|选项|哪|属于|关于)|各项|哪些|哪项|哪个|选项|说法|表述|描述|做法|情形中|正确|错误|不正确|准确|恰当|妥当|"
    r"的是|的有|应为|属于|包括|包含|这一行为|该行为|这一做法|该做法|这种做法|为\(\)|\(\)|（　）"
)
# Words a paraphrase uses for one another, each with the spelling it is compared in: general Chinese, not
# a subject's terms (none that is part of a longer word with another meaning: "所有权", "平均").
SYNONYMS: tuple[tuple[str, str], ...] = (
    ("或者", "或"),
    ("以及", "及"),
    ("并且", "且"),
    ("获得", "取得"),
    ("交纳", "缴纳"),
    ("缴交", "缴纳"),
    ("需要", "要"),
    ("不需要", "不需要"),  # a modal, kept whole
    ("已经", "已"),
    ("依照", "按照"),
    ("依据", "根据"),
    ("午后", "下午"),
    ("房间", "房屋"),
    ("留存", "保存"),
    ("较为", "较"),
    ("比较", "较"),
    ("不满", "不足"),
    ("未满", "不足"),
    ("时候", "时"),
    ("如果", "若"),
    ("假如", "若"),
)
_SYNONYM_OF = dict(SYNONYMS)
_SYNONYM_WORDS = re.compile("|".join(sorted(map(re.escape, _SYNONYM_OF), key=len, reverse=True)))
# Modal verbs by the MODAL_OPPOSITES form they mean; the longest form is matched first.
MODAL_FORMS: dict[str, str] = {
    "应当": "应当",
    "应": "应当",
    "应该": "应当",
    "必须": "必须",
    "须": "必须",
    "不得": "不得",
    "不能": "不得",
    "不可以": "不得",
    "不可": "不得",
    "不应": "不得",
    "禁止": "不得",
    "严禁": "不得",
    "不准": "不得",
    "不允许": "不得",
    "无法": "不得",
    "可以": "可以",
    "可": "可以",
    "允许": "可以",
    "有权": "可以",
    "无权": "不得",
    "无需": "无需",
    "无须": "无需",
    "不需要": "无需",
    "不必": "无需",
    "不用": "无需",
}
# Forms that are also parts of other words carry what may not stand around them: 不可抗力, 应纳税额, 相应.
_MODAL_GUARDS = {
    "不可": "不可(?!抗|撤|分|逆)",
    "应": "(?<![相对供反效答])应(?![当该纳税付收用对急变聘届])",
    "可": "(?<![认许宁不])可(?![能行靠见观谓信惜爱口乐])",
    "须": "(?<![必无])须(?![知])",
    "无法": "无法(?![律定规])",
}
MODAL_WORDS = re.compile(
    "|".join(_MODAL_GUARDS.get(f, f) for f in sorted(MODAL_FORMS, key=len, reverse=True))
)
# Which way a bound points: a threshold read with 以上 and the same threshold read with 以下 contradict.
BOUND_BEFORE: dict[str, str] = {
    "不超过": "upper",
    "不高于": "upper",
    "不满": "upper",
    "未满": "upper",
    "不足": "upper",
    "低于": "upper",
    "少于": "upper",
    "最高": "upper",
    "最多": "upper",
    "最长": "upper",
    "不低于": "lower",
    "不少于": "lower",
    "超过": "lower",
    "高于": "lower",
    "多于": "lower",
    "至少": "lower",
    "最低": "lower",
    "上限": "upper",
    "下限": "lower",
    "满": "lower",
}
BOUND_AFTER: dict[str, str] = {
    "及以上": "lower",
    "及以后": "lower",
    "及以前": "upper",
    "起": "lower",
    "以上": "lower",
    "之后": "lower",
    "以后": "lower",
    "及以下": "upper",
    "以下": "upper",
    "以内": "upper",
    "之内": "upper",
    "以前": "upper",
    "之前": "upper",
}
BOUND_WORDS = re.compile("|".join(sorted({*BOUND_BEFORE, *BOUND_AFTER}, key=len, reverse=True)))
# Units as written → the unit compared; 万元 and 成 are rescaled so that 300万元 = 3000000元, 七成 = 70%.
_UNITS: dict[str, tuple[str, float]] = {
    "个工作日": ("工作日", 1),
    "工作日": ("工作日", 1),
    "个月": ("月", 1),
    "月": ("月", 1),
    "年": ("年", 1),
    "日": ("日", 1),
    "天": ("日", 1),
    "周": ("周", 1),
    "㎡": ("㎡", 1),
    "%": ("%", 1),
    "万元": ("元", 10_000),
    "亿元": ("元", 100_000_000),
    "元": ("元", 1),
    "万": ("元", 10_000),
    "倍": ("倍", 1),
    "层": ("层", 1),
    "成": ("%", 10),
    "类": ("类", 1),
    "种": ("种", 1),
    "项": ("项", 1),
    "岁": ("岁", 1),
    "米": ("米", 1),
    "个": ("个", 1),
    "人": ("人", 1),
    "名": ("人", 1),
    "套": ("套", 1),
    "次": ("次", 1),
    "基点": ("基点", 1),
}
_UNIT = "|".join(sorted(map(re.escape, _UNITS), key=len, reverse=True))
_BOUND_BY_NUMBER = re.compile(rf"(?:{BOUND_WORDS.pattern})(?=#)|(?<=#)(?:{BOUND_WORDS.pattern})")
_CN_DIGITS = "零〇一二两三四五六七八九十百千"
_CLAUSE_MIN = 6
_ITEM_OPENING = re.compile(r"^\s*(?:[（(]\d{1,2}[）)]|[①-⑳])")
_REFERS_BACK = re.compile(r"以此|此|该|其|这|上述")
_COPULA = re.compile(r"(?<![但就还于凡可总正即也都不若])是(?!否)")
_PERIOD = re.compile(r"(?:起)?(?:至|到|—|-|~)")
_DATE = re.compile(r"((?:19|20)\d{2})年(?:(\d{1,2})月(?:(\d{1,2})日)?|(底|末))?")
# Bounds that leave the figure itself out: "超过140平方米" does not hold at 140.
_STRICT = ("超过", "高于", "多于", "低于", "少于", "不满", "未满", "不足")
# Superlatives bound a figure a few words later: "最长期限为30年".
_SUPERLATIVES = {
    "最长": "upper",
    "最高": "upper",
    "最多": "upper",
    "最短": "lower",
    "最低": "lower",
    "至少": "lower",
    "上限": "upper",
    "下限": "lower",
}
_NUMBER = re.compile(
    rf"(?<![\d.])(\d+(?:,\d{{3}})*(?:\.\d+)?)\s*({_UNIT})?|(?<![第同{_CN_DIGITS}])([{_CN_DIGITS}]+)({_UNIT})"
)
CONTENT = re.compile(r"[\u4e00-\u9fffa-z]+")
CLAUSE_STOPS = re.compile(r"[，,；;。！!？?：:\n]+")


@lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """One comparable form: NFKC, lower case, no whitespace, square metres written one way."""
    text = re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).lower())
    return text.replace("平方米", "㎡").replace("m2", "㎡").replace("m²", "㎡")


@lru_cache(maxsize=1 << 16)
def bare(text: str) -> str:
    """Only letters, digits and ideographs: what "the same sentence" means when punctuation may differ."""
    return "".join(re.findall(r"[\w%㎡.]+", normalise(text))).replace("_", "")


def clauses(text: str) -> list[str]:
    """A statement's clauses, each able to stand on its own: one too short to assert anything, one that
    refers back ("以此为由…"), the consequence of a condition ("…的，不得收取佣金") and a numbered item
    ("…主要有：（1）电梯井…") join the one before."""
    merged: list[str] = []
    for part in CLAUSE_STOPS.split(text):
        if not part:
            continue
        joins = merged and (
            _ITEM_OPENING.match(part) is not None  # an item says what it says under its list's lead
            or len(content_chars(part)) < _CLAUSE_MIN
            or len(content_chars(merged[-1])) < _CLAUSE_MIN
            or merged[-1].endswith(("的", "时", "中"))
            or _REFERS_BACK.search(part)
        )
        if joins:
            merged[-1] += "，" + part
        else:
            merged.append(part)
    return merged


def numbered_bounds(text: str) -> str:
    """The text with every bound word that stands beside a figure ("不超过#") blanked out, length kept."""
    marked = _NUMBER.sub(lambda m: "#" * len(m.group()), text)
    spans = [m.span() for m in _BOUND_BY_NUMBER.finditer(marked)]
    for start, end in reversed(spans):
        text = text[:start] + "|" * (end - start) + text[end:]
    return text


def _strip_markers(text: str) -> str:
    """Modal verbs, numbers and the bound words next to them become separators: content is what remains
    (a bound word without a number, "利息多于…", stays content). A copula separates too, so that the term
    of "…的比值是绿地率" is a word of its own."""
    text = _COPULA.sub("|", MODAL_WORDS.sub("|", text))
    text = _NUMBER.sub("#", text)
    text = _BOUND_BY_NUMBER.sub("|", text)
    return text.replace("#", "|")


@lru_cache(maxsize=65536)
def content_runs(text: str) -> tuple[str, ...]:
    """The content words of a text, in one spelling of each synonym, markers and frame words cut out."""
    return tuple(CONTENT.findall(_strip_markers(FRAME_WORDS.sub("|", canonical(normalise(text))))))


def canonical(text: str) -> str:
    """Normalised text with each word of `SYNONYMS` spelt one way: "获得" and "取得" say the same."""
    return _SYNONYM_WORDS.sub(lambda m: _SYNONYM_OF[m.group()], text)


def saying(text: str) -> str:
    """What a statement says, written one way: synonyms and modal forms by meaning, each figure as its value
    in its unit ("不能处分" and "不得处分", "50万元" and "500000元", "十五日" and "15日" say the same), so
    that two options restating one fact are seen as one."""
    text = canonical(normalise(text)).rstrip("。.；;")
    for number in reversed(numbers(text)):
        value = f"{number.value:f}".rstrip("0").rstrip(".")
        text = f"{text[: number.start]}〈{value}{number.unit}〉{text[number.end :]}"
    return MODAL_WORDS.sub(lambda m: f"〈{MODAL_FORMS[m.group()]}〉", text)


def content_chars(text: str) -> str:
    return "".join(ch for run in content_runs(text) for ch in run if ch not in GLUE)


@lru_cache(maxsize=65536)
def grams(text: str) -> frozenset[str]:
    """Character bigrams of the content (a lone character stands for itself)."""
    found: set[str] = set()
    for run in content_runs(text):
        if len(run) == 1:
            found.add(run)
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(found)


@lru_cache(maxsize=1 << 16)
def coverage(text: str, target: frozenset[str]) -> float:
    """Share of the text's content characters that sit in a bigram the target also has."""
    covered = total = 0
    for run in content_runs(text):
        for i, ch in enumerate(run):
            if ch in GLUE:
                continue
            total += 1
            if (
                (i and run[i - 1 : i + 1] in target)
                or (i + 1 < len(run) and run[i : i + 2] in target)
                or (len(run) == 1 and ch in target)
            ):
                covered += 1
    return covered / total if total else 1.0


@dataclass(frozen=True)
class Number:
    """A number as a reader compares it: value in the compared unit, the bound it states, and its words."""

    value: float
    unit: str
    bound: str
    bound_word: str
    text: str
    start: int
    end: int

    @property
    def strict(self) -> bool:
        return self.bound_word in _STRICT

    @property
    def superlative(self) -> bool:
        """A maximum or minimum the text names ("最长期限为30年"): a restated value must equal it."""
        return self.bound_word in _SUPERLATIVES

    @property
    def shown(self) -> str:
        """The number with its bound word where it was written: "不超过2年", "90㎡以上"."""
        before = any(self.bound_word.endswith(word) for word in BOUND_BEFORE)
        return f"{self.bound_word}{self.text}" if before else f"{self.text}{self.bound_word}"


@lru_cache(maxsize=1 << 16)
def numbers(text: str) -> tuple[Number, ...]:
    """Numbers of normalised text, dates kept whole (2024年9月24日 is one value, not three counts)."""
    found: list[Number] = []
    taken: list[tuple[int, int]] = []
    previous = None
    for date in _DATE.finditer(text):
        year, month, day = (int(part or 1) for part in date.groups()[:3])
        if date.group(4):  # 年底 / 年末
            month, day = 12, 31
        bound, word = _bound_of(text, date.start(), date.end())
        if not bound and text[date.end() : date.end() + 1] in ("前", "后"):  # "2008年4月11日前"
            word = text[date.end()]
            bound = "upper" if word == "前" else "lower"
        value = year + (month - 1) / 12 + (day - 1) / 372
        if previous is not None and _PERIOD.fullmatch(text[previous.end : date.start()]):
            found[-1] = Number(
                previous.value, "date", "lower", "自", previous.text, previous.start, previous.end
            )
            bound, word = "upper", "至"  # "2016年5月1日至2025年12月31日": a period with both ends
        previous = Number(value, "date", bound, word, date.group(), date.start(), date.end())
        found.append(previous)
        taken.append(date.span())
    for match in _NUMBER.finditer(text):
        if any(start <= match.start() < end for start, end in taken):
            continue  # a date part
        raw, unit = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        value = float(raw.replace(",", "")) if match.group(1) else chinese_number(raw)
        if value is None:
            continue
        unit_name, scale = _UNITS.get(unit or "", ("", 1))
        end = match.end()
        bound, word = _bound_of(text, match.start(), end)
        restated = found[-1] if found and text[max(0, match.start() - 1) : match.start()] == "含" else None
        if restated is not None and match.start() - restated.end <= 4 and not bound:
            bound, word = restated.bound, restated.bound_word  # "2年以上（含2年）" says the bound again
        found.append(
            Number(value * scale, unit_name, bound, word, text[match.start() : end], match.start(), end)
        )
    found.sort(key=lambda n: n.start)
    for index in range(1, len(found)):  # "3%至5%": a range bounds from both ends
        low, high = found[index - 1], found[index]
        if (
            low.unit == high.unit != "date"
            and _PERIOD.fullmatch(text[low.end : high.start])
            and not low.bound
        ):
            found[index - 1] = Number(low.value, low.unit, "lower", "", low.text, low.start, low.end)
            found[index] = Number(high.value, high.unit, "upper", "", high.text, high.start, high.end)
    return tuple(found)


def _bound_of(text: str, start: int, end: int) -> tuple[str, str]:
    """(direction, word) of the bound a number states, ("", "") when it states none. A prohibition or a
    negation before the bound turns it round: "不得超过50年" and "未超过100%" bound from above."""
    before = text[max(0, start - 6) : start]
    before = before[:-1] if before.endswith(("为", "是")) else before  # "最长为30年"
    for word, direction in sorted(BOUND_BEFORE.items(), key=lambda item: -len(item[0])):
        if before.endswith(word):
            modal = before[: -len(word)][-2:]
            negated = MODAL_FORMS.get(modal) == "不得" or modal.endswith(("未", "不", "没"))
            if negated and not word.startswith(("不", "未")):
                denial = modal if MODAL_FORMS.get(modal) == "不得" else modal[-1]
                return ("upper" if direction == "lower" else "lower"), denial + word
            return direction, word
    after = text[end : end + 3]
    for word, direction in sorted(BOUND_AFTER.items(), key=lambda item: -len(item[0])):
        if after.startswith(word):
            return direction, word
    clause = CLAUSE_STOPS.split(text[max(0, start - 8) : start])[-1]
    for word, direction in _SUPERLATIVES.items():
        if word in clause:
            return direction, word
    return "", ""
