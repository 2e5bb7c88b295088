"""What the offline recipes share. Reading compiled facts: which sibling facts lie beside one, whether a
subject reads as a name or is a fragment the compiler cut from a sentence, whether a description is an act
a named person can be shown doing. Writing: clean, short, distinct option texts; the options shuffled (or
in numeric order) with the answer letters following them; and the three-part explanation that quotes the
source sentences and says, option by option, why each is right or wrong in the subject's terms — never
how an option was made.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from graph.authors import scenes
from graph.authors.recipes.base import Brief, Written
from graph.format import JUDGE_OPTIONS, LETTERS, compose_explanation
from graph.schemas import Draft
from retrieval.facts import Fact, FactKind
from retrieval.text import jieba_words
from vocabulary.kinds import QuestionType

# Options longer than this stop reading like the field's options (median 5–7 characters).
OPTION_MAX = 30
_NAME_MAX = 30
_NUMBERING = re.compile(
    r"^\s*(?:[（(]\s*[\d一二三四五六七八九十]+\s*[)）]|[①-⑳]|\d+\s*[.、．]|[一二三四五六七八九十]+、)\s*"
)
_TRAILING = "。；;，,、：: "
_NOT_A_CLAUSE = ("目的", "标的")
# "保守秘密等方面", "高级房地产经纪人三个级别": the list's closing words are not part of its last item.
_LIST_TAIL = re.compile(
    r"(?:等(?:方面|内容|情形|事项|情况)?|[两一二三四五六七八九十]+(?:个|种|类|项)[\u4e00-\u9fff]{0,2})$"
)
# Where a compiled subject is a sentence fragment rather than a name ("以及是否", "对经纪人员处以").
_FRAGMENT_HEAD_TAGS = ("c", "p", "d")
_DEICTIC = ("这", "那", "其", "该", "此", "它", "我国", "我们", "上述", "以下", "下列")
_FRAGMENT_TAIL_TAGS = ("c", "d", "f", "p", "r", "m", "q", "y", "x", "vg", "uj", "ul", "ud", "uz")
_NOT_IN_NAMES = ("是指", "包含", "包括", "分为", "称为", "：", ":", "；", ";", "，", ",")
_VERB_TAILS = ("处以", "称呼", "概括", "是否", "规定", "认定", "确定", "注意")
_PUNCTUATION = re.compile(r"[\s。；;，,、：:“”\"'（）()《》]")
_TITLE_ORDINAL = re.compile(
    r"^(?:第[一二三四五六七八九十百]+[篇章节]|[一二三四五六七八九十]+、|\d+[.、．])\s*"
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_YEAR = re.compile(r"(\d{4})年")
_YEARS = (2000, 2035)  # years a rule's date can name; outside them a figure is not a date
_CASE_YEARS = (2025, 2026)
# Part-of-speech tags a description starts with when it is something a person does ("承购…", "对…隐瞒…").
_ACT_TAGS = ("v", "vd", "p", "d")


@dataclass(frozen=True)
class Option:
    """One option and the reason it is right or wrong, written as a clause that starts with the option
    quoted (“兄弟姐妹”属于第二顺序继承人…) so the analysis can prefix its letter."""

    text: str
    correct: bool
    why: str


def clean_item(text: str) -> str:
    """A list item as an option: without its numbering, closing punctuation or the 的 that closes a
    condition clause ("买卖双方协商一致解除合同的")."""
    item = _NUMBERING.sub("", text).strip().rstrip(_TRAILING)
    trimmed = _LIST_TAIL.sub("", item)
    item = trimmed if len(trimmed) >= 2 else item
    if len(item) > 3 and item.endswith("的") and not item.endswith(_NOT_A_CLAUSE):
        item = item[:-1]
    return item


def key(text: str) -> str:
    """What two texts are compared by: the same words with other punctuation or spacing are one option."""
    return _PUNCTUATION.sub("", text)


def distinct(texts: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for text in texts:
        if text and key(text) not in seen:
            seen.add(key(text))
            kept.append(text)
    return kept


def number_of(text: str) -> float | None:
    found = _NUMBER.search(text)
    return float(found.group()) if found else None


def arrange(options: list[Option], rng: random.Random, *, numeric: bool = False) -> list[Option]:
    """Numbers in ascending order as the papers print them; anything else shuffled."""
    if numeric:
        return sorted(options, key=lambda o: (number_of(o.text) or 0.0, o.text))
    shuffled = list(options)
    rng.shuffle(shuffled)
    return shuffled


def quote(sources: Iterable[str]) -> str:
    """The 教材原文: the source sentences verbatim, each once; a table row as its cells ("首套：140㎡及以下，
    1%") rather than markdown."""
    sentences = [_readable(s.strip()) for s in distinct(s.strip() for s in sources)]
    return "".join(s if s.endswith(("。", "；", "！", "？")) else f"{s}。" for s in sentences)


def _readable(source: str) -> str:
    rows = [line.strip() for line in source.splitlines() if line.strip()]
    if not rows or not all(row.startswith("|") and row.endswith("|") for row in rows):
        return source
    shown = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|") if c.strip()]
        if cells and not all(set(c) <= set("-: ") for c in cells):
            shown.append(f"{cells[0]}：{'，'.join(cells[1:])}" if len(cells) > 1 else cells[0])
    return "；".join(shown)


def choice(
    fact_ids: list[str],
    qtype: QuestionType,
    stem: str,
    options: list[Option],
    sources: list[str],
    *,
    lead: str = "",
    basis: list[str] | None = None,
    difficulty: float = 0.5,
) -> Written:
    """A single or multiple choice whose answer letters and option notes follow the options' order;
    `basis` quotes the sources in a readable form when they are not sentences (table rows)."""
    letters = LETTERS[: len(options)]
    answer = "".join(letter for letter, option in zip(letters, options, strict=True) if option.correct)
    notes = "；".join(f"选项{letter}{option.why}" for letter, option in zip(letters, options, strict=True))
    analysis = f"{lead}{notes}。"
    draft = Draft(
        stem=stem,
        options=[option.text for option in options],
        answer=answer,
        explanation=compose_explanation(quote(basis or sources), analysis, f"本题选{answer}。"),
        difficulty=difficulty,
        sources=distinct(sources),
    )
    return Written(draft=draft, qtype=qtype, fact_ids=fact_ids)


def judge(
    fact_ids: list[str],
    stem: str,
    truth: bool,
    analysis: str,
    sources: list[str],
    *,
    basis: list[str] | None = None,
    difficulty: float = 0.3,
) -> Written:
    letter, verdict = ("A", "正确") if truth else ("B", "错误")
    conclusion = f"该说法{verdict}，本题选{letter}。"
    draft = Draft(
        stem=stem,
        options=list(JUDGE_OPTIONS),
        answer=letter,
        explanation=compose_explanation(quote(basis or sources), analysis, conclusion),
        difficulty=difficulty,
        sources=distinct(sources),
    )
    return Written(draft=draft, qtype="judge", fact_ids=fact_ids)


def case_date(rng: random.Random, *sources: str) -> str:
    """A date for a case, never before a year its rule names ("自2026年1月1日起…" dates its cases 2026 or
    later, so the rule the explanation quotes is the one in force)."""
    named = [
        int(year)
        for source in sources
        for year in _YEAR.findall(source)
        if _YEARS[0] <= int(year) <= _YEARS[1]
    ]
    return scenes.date_in(rng, max([rng.choice(_CASE_YEARS), *named]))


def in_stem(stem: str, texts: Iterable[str]) -> bool:
    """Whether any of the texts can be read in the stem (an option there gives itself away)."""
    plain = key(stem)
    return any(key(text) and key(text) in plain for text in texts)


def nearby(fact: Fact, brief: Brief, kind: FactKind) -> list[Fact]:
    """Facts of `kind` beside `fact`, closest first: its slice, its related facts, then the chapter asked."""
    found = brief.facts.of_slice(fact.slice_id, kind)
    found += [f for f in brief.facts.related(fact) if f.kind == kind]
    found += brief.facts.of_chapter(brief.task.slice.chapter, kind)
    return [f for f in dict.fromkeys(found) if f.id != fact.id]


# A name of four characters or more, none of its words in the text but every character: an abbreviation.
_ABBREVIATED = 4


def gives_away(label: str, text: str) -> bool:
    """Whether `text` all but names `label`: the label itself, most of its two-character words ("操纵价格"
    in "…操纵市场价格", "规避税费" in "为规避房屋交易税费…"), or every character of a name abbreviated from
    it ("自买自租" of "自己购买或者承租…")."""
    if key(label) in key(text):
        return True
    pairs = [label[i : i + 2] for i in range(len(label) - 1)]
    found = sum(pair in text for pair in pairs)
    abbreviated = len(label) >= _ABBREVIATED and not found and set(label) <= set(text)
    return abbreviated or (len(pairs) > 1 and found * 2 >= len(pairs))


def topic(fact: Fact, brief: Brief) -> str:
    """The title of the fact's slice without its ordinal ("契税的税率"), when the slice is at hand."""
    for slice_ in (brief.task.slice, *brief.task.neighbours):
        if slice_.id == fact.slice_id:
            return _TITLE_ORDINAL.sub("", slice_.title).strip()
    return ""


def shared_opening(a: str, b: str) -> int:
    """How many opening characters two names share: 等额本息 / 等额本金 → 3."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def shared_ending(a: str, b: str) -> int:
    """How many closing characters two names share: 第一顺序继承人 / 第二顺序继承人 → 5."""
    return shared_opening(a[::-1], b[::-1])


@cache
def is_name(text: str) -> bool:
    """Whether a compiled subject reads as the name of something, fit to stand in a stem: not a clause
    ("一条完整的房源包含三个要素"), not a fragment opening with a conjunction, preposition or adverb or
    ending in one ("以及是否", "套内建筑面积又", "对经纪人员处以")."""
    if (
        not 2 <= len(text) <= _NAME_MAX
        or any(mark in text for mark in _NOT_IN_NAMES)
        or text.startswith("示例")
    ):
        return False
    words = _tagger()(text)
    if not words or (words[0].flag in _FRAGMENT_HEAD_TAGS and words[0].word != "不得"):
        return False
    if text.startswith(_DEICTIC):
        return False
    return words[-1].flag not in _FRAGMENT_TAIL_TAGS and not text.endswith(_VERB_TAILS)


@cache
def _tagger() -> Callable[[str], list]:
    """jieba's part-of-speech tagger, on the dictionary the index's tokenizer loads once and quietly."""
    import jieba.posseg

    jieba_words("")
    return jieba.posseg.lcut


@cache
def act_of(text: str) -> str | None:
    """The description told as something a named person did, when it can be: it opens with a verb, an
    adverb or a preposition ("承购、承租…", "对交易当事人隐瞒…") and so has no subject of its own. Of
    alternatives ("捏造散布涨价信息，或者与…串通…") the first is one act; an alternative inside a clause
    ("泄露或者不当使用…") is not."""
    act = text.split("，或者")[0].rstrip(_TRAILING)
    if "或" in act or not 5 <= len(act) <= OPTION_MAX:
        return None
    words = _tagger()(act)
    return act if len(words) > 1 and words[0].flag in _ACT_TAGS else None
