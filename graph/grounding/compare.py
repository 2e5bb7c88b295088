"""One clause of a statement against one textbook sentence: supported, contradicted or unknown, and why.

Conservative by construction. A sentence first has to be about the same thing (ALIGN of the clause's
content covered, and most of the sentence named by the statement); only then can a concrete difference
contradict — a number outside the source's value or bound, a modal or a negation put on the act the source's
modal governs, a word's opposite in the same surroundings, a table cell read under another row or column,
steps in another order, an item of another list. Support is read off the few adjacent phrases of the
sentence that say what the clause says: they must cover SUPPORT of it, hold the option and every number,
put no other words where the source has its own (物理属性 for 法律属性), and carry the same prohibitions
and negations — a list item under "不得有下列行为" supports no claim that the act is proper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Literal

from graph.grounding.book import Passage
from graph.grounding.figures import number_check, other_case, outside_period, same
from graph.grounding.lists import conjunct_of, item_head, list_verdict, lists, names
from graph.grounding.markers import (
    act_flip,
    breach,
    is_opposite,
    marker_meanings,
    modal_flip,
    negation_flip,
    negatives,
    opposite_swap,
    polarity_clash,
    sequence,
)
from graph.grounding.roles import MOST_NAMES, named_person, party, people
from graph.grounding.text import GLUE, bare, content_chars, content_runs, coverage, grams, normalise, numbers

Verdict = Literal["supported", "contradicted", "unknown"]
ALIGN = 0.6
SUPPORT = 0.8
# A paraphrase keeps this share of what it says in the sentence's order; its other words are still held to
# the sentence (no word of its own in the source's place, every figure, modal and negation the same).
PARAPHRASE = 0.7
# A sentence contradicts only a statement that names most of what the sentence says (its conditions
# included): "非住宅类…550元" says nothing about a 车库's fee.
REVERSE_ALIGN = 0.6
# The option of a fill-in question is what is asked: nearly all of it must be in the sentence.
OPTION_SUPPORT = 0.85
# A short option of a "说法正确的是" question says little alone: the sentence must also be about the topic.
TOPIC_SUPPORT = 0.5
# How far apart in the source two shared words may stand around a word the statement replaced.
_GAP = 14
# A stretch of the statement this long may stand elsewhere in the source's sentence than in its order,
# when this share of the statement is in order round it.
_PHRASE = 4
_KEPT = 0.6
# Words that trade places with others in the source are parties ("委托人", "经纪机构") from this length on;
# a shorter verb or noun moved ("公布", "贷款") is a paraphrase's word order.
_PARTY = 3
_PHRASES = re.compile(r"[，,；;：:]")
_ALTERNATIVE = re.compile(r"或者|或")
_CELL_ITEMS = re.compile(r"[、；;，,]")
# Words a textbook hedges a statement with: "需要缴纳土地增值税的情形较少" does not say that one must.
_HEDGE = re.compile(r"较少|很少|极少|少数|鲜有|不一定|未必|并非都|不都")
# A statement of what a thing consists of: its subject and the verb that names the parts.
_COMPOSED = re.compile(r"^([\u4e00-\u9fff]{2,12}?)(由|包括|包含|分为)")
# A phrase that sets the condition or time of the one after it.
_CONDITION = re.compile(r"(?:的|时|后|前)$")
_LISTING = re.compile(r"下列|以下|如下")
# A phrase that sets the situation of what follows: "…交易中", "…缴纳增值税时".
_SETTING = re.compile(r"(?:中|时)$")
# Words a paraphrase adds without changing what is said ("一般", "通常", "均").
_FILLER = re.compile(
    r"(?:一般|通常|主要|均|都|也|还|即|已|已经|可能|依法|相应|应该|需要|须|需|要|则|就|再|又|仍|另|同时|分别|及时|时)+"
)
# Words that turn a rule round rather than change its subject: a swap involving them is the contradiction.
_TURNING = re.compile(r"不|没|未|无|非|应|须|得|可")
_WINDOW = 3
# The characters of the head two terms share: "遗嘱" of "公证遗嘱" and "自书遗嘱".
_HEAD = 2
# A phrase that only cites where a rule comes from ("《民法典》第九百六十五条规定", "按照《物权法》").
_CITATION = re.compile(
    r"(?:(?:依照|按照|根据|依据)?《[^》]{2,30}》(?:第[^，,]{1,12}条)?(?:的)?(?:规定|明确|要求|界定)?)"
)
# How much better a phrase of a sentence must name the statement's case than any other phrase with a figure.
_CASE_MARGIN = 0.2
_LIST_PHRASES = re.compile(r"[，,；;。：:]")
_ITEM_MARK = re.compile(r"^\s*(?:[（(]\d{1,2}[）)]|\d{1,2}[、.．]|[①-⑳])")


@dataclass(frozen=True)
class Claim:
    """What is checked: a clause of a statement, the option it holds ("" if none), the whole statement
    with its stem, the option as a case whose numbers describe a situation ("" if none), the topic a
    short option must be about ("" if none needed), all the statement's clauses to ground (its scene
    left out), whether it states a conduct judged proper or not, and the other options when only one is
    the answer (a list holding them too is what the stem picks from, not what it asks about)."""

    clause: str
    option: str = ""
    whole: str = ""
    case: str = ""
    topic: str = ""
    asserted: str = ""
    conduct: bool = False
    rivals: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClauseCheck:
    verdict: Verdict
    reason: str
    passage: Passage | None = None
    coverage: float = 0.0


def _key_swap(whole: str, passage: Passage) -> str:
    """A table cell read under another row's or column's name."""
    for key in passage.keys:
        _, rival = key.named(whole)
        if rival and key.subject and coverage(key.own, grams(whole)) < 0.5:
            return f"教材表格中该内容属于“{key.own}”，题目写成了“{rival}”"
    return ""


def _conditions_named(claim: Claim, passage: Passage) -> bool:
    """A table cell speaks to a statement only when it names the cell's row and the conditions before it."""
    if not passage.keys:
        return True
    stated = claim.asserted or claim.clause
    cells = passage.text.split("，")[1:-1]  # between the row's name and the cell itself
    return all(any(key.named(stated)) for key in passage.keys if key.subject) and (
        not cells or coverage("，".join(cells), grams(stated)) >= SUPPORT
    )


def _cell_support(claim: Claim, passage: Passage, covered: float) -> ClauseCheck:
    """A table cell supports a statement naming its row (and compared column) and stating its value, in any
    order: tables are read across, not as sentences."""
    value = passage.text.rsplit("：", 1)[-1]
    stated = claim.asserted or claim.clause
    named = all(key.named(stated)[0] for key in passage.keys if key.subject)
    said = grams(stated)
    items = [item for item in _CELL_ITEMS.split(value) if len(item) >= 2 and content_runs(item)]
    figures = numbers(normalise(value))
    listed = [item for _, found in lists(normalise(claim.clause)) for item in found]
    inside = passage.grams
    if coverage(claim.clause, passage.grams) < SUPPORT:
        return ClauseCheck("unknown", "题目说的比表格该格多", passage, covered)
    stated_figures = numbers(normalise(stated))
    if figures and not all(any(same(f, n) for n in stated_figures) for f in figures):
        return ClauseCheck("unknown", "题目没有说出表格该格的数值", passage, covered)
    if not named or (items and not any(coverage(item, said) >= OPTION_SUPPORT for item in items)):
        return ClauseCheck("unknown", "题目没有同时说出表格中的行与对应的内容", passage, covered)
    if any(coverage(item, inside) < OPTION_SUPPORT for item in listed):
        return ClauseCheck("unknown", "题目所列各项并非都在表格该格中", passage, covered)
    if claim.option and coverage(claim.option, passage.grams) < OPTION_SUPPORT:
        return ClauseCheck("unknown", "选项内容不在表格该行中", passage, covered)
    conflict, attested = number_check(normalise(stated), passage.norm, claim.case)
    if conflict or not attested:
        return ClauseCheck("unknown", "题目中的数值与表格不一致", passage, covered)
    held = negatives(passage.norm)
    if polarity_clash(normalise(stated), passage.norm) or any(
        not any(act & other for other in held) for act in negatives(normalise(stated))
    ):  # a cell states what holds: a prohibition or negation the cell lacks is the statement's own
        return ClauseCheck("unknown", "禁止、免除或否定与教材表格不对应", passage, covered)
    return ClauseCheck("supported", "与教材表格一致", passage, covered)


def _order(claim: Claim, passage: Passage) -> str:
    """Steps named in another order than the source lists them."""
    steps = sequence(normalise(claim.option or claim.clause))
    positions = [passage.norm.find(step) for step in steps]
    if not steps or min(positions) < 0 or positions == sorted(positions):
        return ""
    listed = "—".join(step for _, step in sorted(zip(positions, steps, strict=True)))
    return f"顺序与教材不符：教材为“{listed}”"


def _words(text: str) -> str:
    return "".join(ch for ch in text if ch not in GLUE)


def _shifted(
    first: tuple[str, int, int, int, int], shared: tuple[str, int, int, int, int], then: tuple
) -> bool:
    """A word moved by one character round a shared one: 免 left out before 征 and 收 added after it."""
    short = all(max(op[2] - op[1], op[4] - op[3]) <= 2 for op in (first, then))
    return (
        shared[0] == "equal"
        and shared[2] - shared[1] == 1
        and {first[0], then[0]} == {"insert", "delete"}
        and short
    )


def _differences(opcodes: list[tuple[str, int, int, int, int]]) -> list[tuple[int, int, int, int, int, int]]:
    """(i1, i2, j1, j2, left, right): each stretch where the texts differ, with the shared characters
    anchoring it on the left and right. A word moved round one shared character is one difference:
    "免征" against "征收", not a 免 left out and a 收 added."""
    found = []
    index = 0
    while index < len(opcodes):
        if opcodes[index][0] == "equal":
            index += 1
            continue
        last = index
        if index + 2 < len(opcodes) and _shifted(opcodes[index], opcodes[index + 1], opcodes[index + 2]):
            last += 2
        before = opcodes[index - 1] if index else None
        after = opcodes[last + 1] if last + 1 < len(opcodes) else None
        left = before[2] - before[1] if before is not None else 0
        right = after[2] - after[1] if after is not None else 0
        found.append((opcodes[index][1], opcodes[last][2], opcodes[index][3], opcodes[last][4], left, right))
        index = last + 1
    return found


def _added(words: str, said: str, written: str, opcodes: list[tuple[str, int, int, int, int]]) -> bool:
    """Words the statement adds inside what the source says change it when they are words the source has
    in another place and the statement no longer says there (the two parties of "由经纪机构与委托人协商"
    changing places; "房地产经纪机构" for "经纪机构" beside "房地产经纪人" only says more), or one
    character that makes another term ("抵押权人" for "抵押人", "教育费附加" for "地方教育附加")."""
    if _FILLER.fullmatch(words):
        return False
    moved = [_words(written[j1:j2]) for tag, _, _, j1, j2 in opcodes if tag in ("insert", "replace")]
    swapped = any(words in elsewhere for elsewhere in moved) and said.count(words) <= written.count(words)
    return len(words) == 1 or (len(words) >= _PARTY and swapped)


def _hidden(said: str, at: int, dropped: str) -> tuple[str, str] | None:
    """(source words, statement words) when the words the statement goes on with after a stretch the source
    has in addition end as that stretch goes on: "交付之前由〔出卖人承担，交付之后由〕买受人承担" read as
    "交付之前由买受人承担" puts 买受人 where the source has 出卖人."""
    following = said[at:]
    if dropped.endswith("、"):
        return None  # list items passed over: "形式有自书遗嘱、代书遗嘱、打印遗嘱" read as "打印遗嘱"
    for length in range(min(len(following), _GAP), 1, -1):
        tail = following[:length]
        for cut in range(1, length - 1):
            place = dropped.find(tail[cut:])
            listed = "、" in dropped[:place]
            if place > 0 and not listed and _words(tail[:cut]) and _words(dropped[:place]).strip("|"):
                return dropped[:place], tail[:cut]
    return None


def _listed_content(source: str) -> str:
    """The source's content as `content_runs` reads it, with the 、 that separates listed items and a |
    where a phrase ends kept."""
    phrases = []
    for phrase in _PHRASES.split(source):
        items = [runs for runs in ("".join(content_runs(part)) for part in phrase.split("、")) if runs]
        if items:
            phrases.append("、".join(items))
    return "|".join(phrases)


def _drops_alternative(dropped: str, following: str) -> bool:
    """Words left out drop an alternative of what the statement says: "一名经纪人〔或者两名协理〕", or
    "一名〔房地产经纪人或者两名〕房地产经纪人协理" where the words after go on with the second
    alternative. Both alternatives left out ("被〔经纪机构或者其他人员〕侵占") drop none."""
    found = _ALTERNATIVE.search(dropped)
    if found is None:
        return False
    first, second = dropped[: found.start()], dropped[found.end() :]
    shared = next((n for n in range(min(len(first), len(following)), 0, -1) if first[:n] == following[:n]), 0)
    parallel = shared >= 2
    return not first or not second or parallel


def _partial(dropped: str) -> str:
    """The words left out from phrases the statement also says part of: a whole phrase passed over ("，提前
    熟悉房屋和小区情况，") drops no alternative of what the statement says, "一名经纪人〔或者两名〕协理"
    does."""
    parts = dropped.split("|")
    return parts[0] if len(parts) == 1 else parts[0] + "|" + parts[-1]


def substitution(clause: str, source: str, added: bool = True, whole: str = "") -> tuple[str, str] | None:
    """(source words, statement words) where, between words both share, the statement has other words than
    the source ("房源的物理属性" for "房源的法律属性"), words of its own (`added`: "抵押权人" for "抵押人"),
    or leaves out some of the source's ("一名经纪人或者两名协理" read as "一名协理"). `whole` is the
    statement the clause is part of, if more."""
    written = _listed_content(source)
    runs = content_runs(clause)
    stated = "".join(content_runs(whole)) if whole else "".join(runs)
    for said in (*runs, "".join(runs)) if len(runs) > 1 else runs:
        if len(said) < 4 or in_order(said, source) < 0.5:
            continue  # too short to place, or said somewhere else than in this source
        opcodes = SequenceMatcher(None, said, written, autojunk=False).get_opcodes()
        for i1, i2, j1, j2, left, right in _differences(opcodes):
            mine, theirs = _words(said[i1:i2]), _words(written[j1:j2]).replace("、", "").replace("|", "")
            if added and theirs and not mine and left >= 2:
                hidden = _hidden(said, i2, written[j1:j2])
                if hidden:
                    return hidden
            if mine and not theirs:  # words of the statement's own between words both share
                if added and left >= 2 and right >= 2 and _added(mine, stated, written, opcodes):
                    return "", said[i1:i2]
                continue
            # a different first or last word counts where both texts start or end there
            at_start = mine and i1 == 0 and j1 == 0
            at_end = mine and i2 == len(said) and j2 == len(written)
            if not (
                (at_start or left >= 1)
                and (at_end or right >= 1)
                and (at_start or at_end or max(left, right) >= 2)
            ):
                continue
            if at_start:  # only the source words just before the shared ones stand in the same place
                j1 = max(j1, j2 - (i2 - i1) - 3)
            if at_end:
                j2 = min(j2, j1 + (i2 - i1) + 3)
            if (at_start and written[j1:j2].endswith("|")) or (at_end and written[j1:j2].startswith("|")):
                continue  # the source's phrase begins (or ends) there: the statement only adds words
            if not mine and not theirs:
                continue  # only the 、 between listed items
            if j2 - j1 > _GAP or (not mine and not _drops_alternative(_partial(written[j1:j2]), said[i2:])):
                continue  # a word the statement leaves out matters when it drops an alternative
            if mine and (i2 - i1 > _GAP or not _words(written[j1:j2]).strip("|、")):
                continue
            if _FILLER.fullmatch(mine) and _FILLER.fullmatch(theirs):
                continue  # "通常要" for "通常需": words that add nothing either way
            if i2 - i1 == 1 and j2 - j1 == 1 and i1:  # one character: show it with the one before ("出售")
                return written[j1 - 1 : j2], said[i1 - 1 : i2]
            return written[j1:j2], said[i1:i2]
    return None


def _phrase_substitution(clause: str, span: str) -> tuple[str, str] | None:
    """A swapped word looked for phrase by phrase, each of the clause's phrases against the source phrase
    that says most of it (a long source sentence hides a swap from the sentence-wide comparison)."""
    phrases = [p for p in _PHRASES.split(span) if p]
    for part in _PHRASES.split(clause):
        if part and len(phrases) > 1:
            closest = max(phrases, key=lambda p: in_order(part, p))
            found = substitution(part, closest)
            if found:
                return found
    return None


def other_term(clause: str, source: str) -> tuple[str, str] | None:
    """(source word, statement word) when a word of the statement's own names another thing of the kind the
    source names with its own word before the same head ("居住用地" where the source has "工业用地"), in
    whatever order the two sentences put their words."""
    written = _words("".join(content_runs(source)))
    pairs = {written[i : i + 2] for i in range(len(written) - 1)}
    for run in content_runs(clause):
        said = _words(run)
        own = [not any(said[j : j + 2] in pairs for j in (i - 1, i) if j >= 0) for i in range(len(said))]
        for end in range(2, len(said) - 1):
            head = said[end : end + 2]
            if not (own[end - 1] and own[end - 2]) or head not in pairs:
                continue
            start = end - 2
            while start and own[start - 1]:
                start -= 1
            mine = said[start:end]
            for at in (i for i in range(2, len(written) - 1) if written[i : i + 2] == head):
                theirs = written[at - 2 : at]
                if theirs not in said and not (pairs & {theirs}) - {theirs} and theirs[0] not in mine:
                    return theirs + head, mine + head
    return None


def _difference(written: str, said: str) -> str:
    if not said:
        return f"教材为“{written}”，题目省略了该内容"
    return f"教材为“{written}”，题目为“{said}”"


@lru_cache(maxsize=1 << 16)
def said_in(clause: str, source: str) -> float:
    """Share of the clause's content the source says: in the same order, with one stretch of at least
    `_PHRASE` characters moved as a paraphrase moves it ("计算容积率时一般不计入地下建筑面积" for
    "计算容积率时，地下建筑面积一般不计入"). Shorter words out of place, or several stretches, say
    nothing: they are words gathered from all over the sentence."""
    said = _words("".join(content_runs(clause)))
    if not said:
        return 1.0
    written = _words("".join(content_runs(source)))
    found = [False] * len(said)
    for block in SequenceMatcher(None, said, written, autojunk=False).get_matching_blocks():
        if block.size >= 2:
            found[block.a : block.a + block.size] = [True] * block.size
    moved: list[tuple[int, int]] = []
    start = 0
    while start < len(said):  # stretches left over that stand elsewhere in the source
        if found[start]:
            start += 1
            continue
        end = start
        while end < len(said) and not found[end]:
            end += 1
        at = start
        while end - at >= _PHRASE:
            length = next((n for n in range(end - at, _PHRASE - 1, -1) if said[at : at + n] in written), 0)
            if length:
                moved.append((at, length))
            at += length or 1
        start = end
    if len(moved) == 1 and sum(found) >= _KEPT * len(said):  # one stretch moved about what is in order
        at, length = moved[0]
        found[at : at + length] = [True] * length
    return sum(found) / len(said)


@lru_cache(maxsize=1 << 16)
def in_order(clause: str, source: str) -> float:
    """Share of the clause's content found in the source in the same order: words gathered from all over a
    long sentence ("耐火" from one phrase, "性能好" from another) do not say what the clause says."""
    said = _words("".join(content_runs(clause)))
    if not said:
        return 1.0
    written = _words("".join(content_runs(source)))
    blocks = SequenceMatcher(None, said, written, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks if block.size >= 2) / len(said)


def _about(topic: str, passage: Passage) -> bool:
    """The sentence names the topic, or one of its names ("贷款市场报价利率（LPR）")."""
    return coverage(topic, passage.grams) >= TOPIC_SUPPORT or any(
        len(run) >= 3 and coverage(run, passage.grams) >= SUPPORT for run in content_runs(topic)
    )


@lru_cache(maxsize=1 << 16)
def _span(clause: str, passage: Passage) -> tuple[tuple[str, ...], int, int]:
    """The sentence's phrases and the first and last of the few adjacent ones that say what the clause
    says (in order): around the phrase that covers the clause best, the span of up to three that holds
    most of it."""
    phrases = tuple(
        p for p in _PHRASES.split(passage.text) if p.strip() and not _CITATION.fullmatch(p.strip())
    )
    if len(phrases) <= 1:
        return phrases, 0, len(phrases) - 1
    scores = [coverage(clause, grams(passage.lead + p)) for p in phrases]
    best = max(range(len(phrases)), key=scores.__getitem__)
    size = max(_WINDOW, len(_PHRASES.split(clause)) + 1)  # a long statement says several phrases' worth
    spans = [
        (low, high)
        for low in range(max(0, best - size + 1), best + 1)
        for high in range(best, min(len(phrases), low + size))
    ]
    texts = {span: passage.lead + "，".join(phrases[span[0] : span[1] + 1]) for span in spans}
    low, high = max(spans, key=lambda span: (round(said_in(clause, texts[span]), 6), -(span[1] - span[0])))
    return phrases, low, high


def window(clause: str, passage: Passage) -> str:
    """The few adjacent phrases of the sentence that say what the clause says, with the list lead; a phrase
    that only names the law the sentence cites ("按照《房地产经纪管理办法》，") says nothing of it."""
    phrases, low, high = _span(clause, passage)
    if len(phrases) <= 1:
        return passage.lead + "，".join(phrases)
    return passage.lead + "，".join(phrases[low : high + 1])


def _unstated_condition(claim: Claim, passage: Passage) -> str:
    """The condition the sentence puts before what the clause says ("承接承购、承租业务的，无需编制…"),
    when the statement does not state it: the sentence says nothing of the statement's case."""
    phrases, low, _ = _span(claim.clause, passage)
    if low < 1 or not _CONDITION.search(phrases[low - 1]) or _LISTING.search(phrases[low - 1]):
        return ""
    condition = phrases[low - 1]
    return "" if coverage(condition, grams(claim.whole or claim.clause)) >= ALIGN else condition


def _only_condition(claim: Claim, passage: Passage) -> bool:
    """The whole statement is the condition a rule of the sentence opens with ("卖方持有满5年且为家庭唯一
    住房时，…免征"): a case restated asserts nothing the rule says, however well it matches."""
    if (claim.asserted or claim.clause) != claim.clause:
        return False  # one clause of several: the condition of what the others say
    phrases, _, high = _span(claim.clause, passage)
    return high < len(phrases) - 1 and _CONDITION.search(phrases[high].rstrip()) is not None


def _other_head(claim: Claim, passage: Passage) -> str:
    """An option the item of a list states, asked about under another head its lead lists: "〔朝向〕属于
    法律属性" against "由物理属性、法律属性…构成：（1）物理属性是指…朝向…"."""
    own, rivals = item_head(passage)
    if not own or not claim.option or coverage(claim.option, grams(passage.text)) < OPTION_SUPPORT:
        return ""
    stem = bare(claim.clause.replace(claim.option, "|"))
    if bare(own) in stem or not any(names(stem, bare(rival)) for rival in rivals):
        return ""
    return f"教材中“{claim.option}”属于“{own}”"


def _item_of(option: str, item: str) -> bool:
    """The option is the listed item in its words and order, perhaps shorter or longer by a little, with
    the same figures ("以胁迫手段强迫客户成交" for "以胁迫、欺诈等手段强迫客户成交"), or one conjunct of it
    ("房屋赠与" of "房屋买卖、赠与和互换")."""
    if len(_words(bare(option))) < 2 or len(_words(bare(item))) < 2:
        return False
    if conjunct_of(option, item):
        return True
    conflict, attested = number_check(normalise(option), normalise(item))
    return (
        coverage(option, grams(item)) >= OPTION_SUPPORT
        and said_in(option, item) >= SUPPORT
        and coverage(item, grams(option)) >= ALIGN
        and not conflict
        and attested
        and polarity_clash(normalise(option), normalise(item)) is None
    )


def listed_under(claim: Claim, passage: Passage) -> str:
    """Why the sentence supports a fill-in option asked under a head ("下列违反执业规范的行为有〔…〕",
    "…为计税依据缴纳的有〔…〕"): it lists the option as one of its items — of a numbered list under its
    lead, or of the one list the sentence makes — and says the head with the same figures, modals and
    negations. Exam frames put the option last where the textbook names its items before what is said of
    them, so the head is compared whole, not in the frame's order. "" when the sentence is no such list, or
    another option of a one-answer question is listed beside it (then the stem asks which, not whether)."""
    if not claim.option or claim.option not in claim.clause or passage.keys or passage.example:
        return ""
    head = claim.clause.replace(claim.option, "，", 1)
    if len(content_chars(head)) < 2:
        return ""
    if passage.lead:
        items, said = (_ITEM_MARK.sub("", passage.text).rstrip("。；;"),), passage.lead
    else:
        found = lists(passage.norm)
        if len(found) != 1:
            return ""  # several lists: which head the option falls under is the list check's business
        phrases = [p for p in _LIST_PHRASES.split(passage.norm) if p]
        at = next((i for i, p in enumerate(phrases) if all(item in p for item in found[0][1])), None)
        if at is None:
            return ""
        items, said = found[0][1], "，".join(phrases[max(0, at - 1) : at + 2])
    listed = next((item for item in items if _item_of(claim.option, item)), "")
    if not listed or any(_item_of(rival, item) for rival in claim.rivals for item in items):
        return ""
    if coverage(head, grams(said)) < SUPPORT or in_order(head, said) < ALIGN:
        return ""
    stated, written = normalise(claim.clause), normalise(f"{said}，{'，'.join(items)}")
    conflict, attested = number_check(stated, written)
    if conflict or not attested or marker_meanings(normalise(head)) != marker_meanings(normalise(said)):
        return ""
    return f"教材列举的各项中有“{listed}”"


def _rival_in_place(written: str, said: str, claim: Claim, passage: Passage) -> str:
    """Why the sentence denies the statement's term the place it gives its own: both are terms of one
    head, and where the statement names its term twice — in the case, as the sentence does, and again in
    what follows — the sentence names its own the second time ("先立了公证遗嘱，后来又…自书遗嘱…按照后立
    的自书遗嘱处理" against "先立了公证遗嘱…按照公证遗嘱处理"). "" otherwise: another word in one place
    alone may be a synonym ("出售住房" for "买卖住房")."""
    theirs, mine = _words(written.replace("|", "")), _words(said)
    stated = _words(normalise(claim.whole or claim.clause))
    if len(theirs) < 2 or len(mine) < 2 or theirs in stated or mine not in stated:
        return ""
    head = stated[stated.find(mine) + len(mine) :][:_HEAD]
    text = _words(passage.norm)
    at = text.find(theirs + head)
    if len(head) < _HEAD or at < 0 or stated.count(mine + head) < 2:
        return ""  # the statement names its term where the sentence names it too, and again in its place
    elsewhere = text[:at] + "|" + text[at + len(theirs) :]
    if mine + head not in elsewhere:
        return ""
    return f"教材中此处为“{theirs}{head}”，而非“{mine}{head}”"


def _in_act(words: str, said: str, modal: str, option: str) -> bool:
    """The statement's own words stand in the act its flipped modal governs, not before it, and are not
    the option a frame puts last: "可以〔根据〕装修需要自行拆除" against "不能为了扩大客厅等装修需要自行
    拆除" words the same act otherwise, said of the same doer; "无需…见证的是〔自书遗嘱〕" names another
    thing."""
    at = said.find(modal)
    return at >= 0 and words in said[at + len(modal) :] and not (option and words in option)


def _contradiction(claim: Claim, passage: Passage) -> str:
    said, written = normalise(claim.clause), passage.norm
    swapped = _key_swap(claim.whole, passage)
    if swapped:
        return swapped
    local = substitution(claim.clause, window(claim.clause, passage), added=False)
    rival = _rival_in_place(*local, claim, passage) if local else ""
    if rival:
        return rival
    flip = modal_flip(said, written)
    other = substitution(claim.clause, passage.text, added=False)
    if (
        other
        and other[1]
        and not is_opposite(*other)
        and not _TURNING.search("".join(other))
        and not (flip and _in_act(other[1], said, flip[1], normalise(claim.option)))
    ):
        return ""  # other words in the same place: another subject, not this rule turned round
    if flip:
        return f"{flip[0]}→{flip[1]}"
    improper = breach(said, written) if claim.conduct else ""
    if improper:
        return f"教材规定“{improper}”如此行事，题目所述做法不当"
    conflict, _ = number_check(said, written, claim.case)
    if conflict:
        return conflict
    for found in (opposite_swap(said, written), negation_flip(said, written)):
        if found:
            return f"{found[0]}→{found[1]}"
    return _order(claim, passage)


def _as_roles(claim: Claim, passage: Passage) -> Claim | None:
    """The claim with each person of its case called by the role the sentence names in the same place
    ("老孙去世后" read against "被继承人去世后"); the same person named again is left out ("视为小孙接受
    继承" against "视为接受继承"), as the textbook leaves out a subject once named; a person the sentence
    has no place for is left out as the scene's "王某" is ("此时老郑可以撤销该赠与" against "赠与人此时仍可以
    撤销该赠与"). None when the clause names no one."""
    clause, renamed = claim.clause, {}
    for _ in range(MOST_NAMES):
        found = substitution(clause, passage.text)
        if found is None or not named_person(found[1]) or found[1] in renamed:
            break
        role = found[0].replace("|", "").strip("、").removeprefix("等")
        if not party(role):
            break
        renamed[found[1]] = role
        clause = _renamed(clause, found[1], role)
    if not passage.example:  # anyone the sentence has no place for is the case's, like its 王某
        for name in dict.fromkeys(people(clause)):
            if name not in passage.norm:
                renamed[name] = ""
                clause = clause.replace(name, "")
    if not renamed:
        return None

    def recast(text: str) -> str:
        for name, role in renamed.items():
            text = _renamed(text, name, role)
        return text

    return replace(
        claim,
        clause=clause,
        whole=recast(claim.whole),
        case=recast(claim.case),
        asserted=recast(claim.asserted),
    )


def _renamed(text: str, name: str, role: str) -> str:
    head, _, rest = text.partition(name)
    return head + role + rest.replace(name, "") if _ else text


def check_clause(claim: Claim, passage: Passage) -> ClauseCheck:
    if coverage(claim.clause, passage.grams) >= ALIGN:
        recast = _as_roles(claim, passage)
        if recast is not None:
            return check_clause(recast, passage)
    covered = coverage(claim.clause, passage.grams)
    if covered < ALIGN:
        return ClauseCheck("unknown", "教材中没有找到对应表述", passage, covered)
    whole = claim.whole or claim.clause
    listed, reason = ("", "") if passage.keys else list_verdict(claim.clause, claim.option, passage)
    if listed:  # (a table cell's list belongs to its row: the cell checks read it)
        return ClauseCheck(listed, reason, passage, covered)
    under = listed_under(claim, passage)
    if under:
        return ClauseCheck("supported", under, passage, covered)
    other_head = _other_head(claim, passage)
    if other_head:
        return ClauseCheck("contradicted", other_head, passage, covered)
    about_it = (
        _conditions_named(claim, passage)
        and coverage(window(claim.clause, passage), grams(whole)) >= REVERSE_ALIGN
        and not other_case(whole, passage.norm)
        and not outside_period(claim.whole.replace(claim.clause, ""), passage.norm)
    )
    if about_it and not passage.example:
        reason = _contradiction(claim, passage)
        if reason:
            return ClauseCheck("contradicted", reason, passage, covered)
    elif not passage.example and not passage.keys and not _unstated_condition(claim, passage):
        flip = act_flip(normalise(claim.clause), passage.norm)
        if flip:
            return ClauseCheck("contradicted", f"{flip[0]}→{flip[1]}", passage, covered)
    return _support(claim, passage, covered)


def _role_swapped(said: str, written: str) -> bool:
    """The statement makes a subject of what the source names as a part: "套内建筑面积由…组成" against
    "建筑面积由套内建筑面积和分摊的共有建筑面积组成"."""
    stated = _COMPOSED.match(said)
    if stated is None:
        return False
    subject, verb = stated.group(1), stated.group(2)
    places = [m.start() for m in re.finditer(verb, written)]
    subjects = [_PHRASES.split(written[max(0, at - _GAP) : at])[-1] for at in places]
    if not places or any(found.endswith(subject) for found in subjects):
        return False
    return any(subject in written[at:] for at in places)


def _pieces(claim: Claim) -> tuple[str, ...]:
    """What is compared in order: a fill-in option and the stem it completes each on its own, since the
    frame puts the option last ("最高年限为50年的有〔工业用地〕") where the textbook may name it first."""
    if (
        not claim.option
        or claim.option not in claim.clause
        or len(_words("".join(content_runs(claim.option)))) < 2
    ):
        return (claim.clause,)  # no option, or a figure: it stays where the stem puts it
    head = claim.clause.replace(claim.option, "，", 1).strip("，")
    return (head, claim.option) if content_runs(head) else (claim.clause,)


def _said(pieces: tuple[str, ...], span: str) -> float:
    sizes = [max(1, len(_words("".join(content_runs(piece))))) for piece in pieces]
    return sum(said_in(piece, span) * size for piece, size in zip(pieces, sizes, strict=True)) / sum(sizes)


def _together(pieces: tuple[str, ...], passage: Passage) -> bool:
    """The option and the stem are said in one phrase of the sentence or in two next to each other: an
    item of one list and the head of another are not."""
    if len(pieces) == 1:
        return True
    phrases = [passage.lead + p for p in _PHRASES.split(passage.text) if p.strip()]
    places = [max(range(len(phrases)), key=lambda i: coverage(piece, grams(phrases[i]))) for piece in pieces]
    return max(places) - min(places) <= 1


def figure_of_another_case(said: str, source: str) -> str:
    """The phrase of a sentence giving figures for several cases whose case the statement names, when its
    figure is not the statement's ("已购公房…最高为15%，商品房及其他住房最高为10%" read as "商品房…上限为
    15%"): each figure is read from the phrase of its own case. "" when no phrase is clearly the
    statement's case."""
    phrases = [(p, numbers(normalise(p))) for p in _PHRASES.split(source) if p.strip()]
    for number in numbers(said):
        if number.unit == "date":
            continue
        holding = [
            (coverage(phrase, grams(said)), phrase, found)
            for phrase, found in phrases
            if any(n.unit == number.unit for n in found)
        ]
        if len(holding) < 2:
            continue
        holding.sort(key=lambda item: -item[0])
        (best, phrase, found), second = holding[0], holding[1][0]
        if best - second >= _CASE_MARGIN and not any(same(n, number) for n in found):
            return phrase
    return ""


def _without_setting(claim: Claim, passage: Passage) -> Claim | None:
    """The claim without the setting it opens with ("采用资金监管的存量房交易中，…", "个人销售住房缴纳增值税
    时，…") when the sentence states no setting of its own but the heading of its knowledge point (or its
    list's lead) names this one, as a textbook states a rule once under the heading of its situation.
    The rest must be the sentence's words nearly all, and a setting the heading does not name stays part
    of the claim: "个人出售非住宅时" is another case under a heading of 住房."""
    setting, _, rest = claim.clause.partition("，")
    if (
        not rest
        or not _SETTING.search(setting)
        or _LISTING.search(setting)
        or (claim.option and claim.option not in rest)
        or any(_SETTING.search(phrase) for phrase in _PHRASES.split(passage.text))
        or said_in(rest, window(rest, passage)) < SUPPORT  # the rest is said nearly word for word
        or coverage(setting, grams(f"{passage.setting}，{passage.lead}")) < PARAPHRASE
    ):
        return None
    return replace(claim, clause=rest)


def _support(claim: Claim, passage: Passage, covered: float) -> ClauseCheck:
    def unknown(reason: str) -> ClauseCheck:
        return ClauseCheck("unknown", reason, passage, covered)

    if passage.keys:
        return _cell_support(claim, passage, covered)
    unset = _without_setting(claim, passage)
    if unset is not None:
        return _support(unset, passage, covered)
    span = window(claim.clause, passage)
    said, written = normalise(claim.clause), normalise(span)
    pieces = _pieces(claim)
    if _said(pieces, span) < PARAPHRASE or not _together(pieces, passage):
        return unknown("教材中只有部分相近的表述")
    if claim.option and coverage(claim.option, grams(span)) < OPTION_SUPPORT:
        return unknown("选项内容不在对应的教材句子中")
    absent = next(
        (
            run
            for run in content_runs(claim.clause)
            if len(_words(run)) >= 2 and not coverage(run, grams(span))
        ),
        "",
    )
    if absent:
        return unknown(f"教材中没有“{absent}”的说法")
    if claim.topic and not _about(claim.topic, passage):
        return unknown("教材句子说的不是题干所问的对象")
    if "=" in passage.norm and "=" not in said:
        return unknown("教材此处为计算公式")
    conflict, attested = number_check(said, written, claim.case)
    if conflict or not attested:
        return unknown("题目中的数值与对应的教材句子不一致")
    other = figure_of_another_case(said, passage.text) if not claim.case else ""
    if other:
        return unknown(f"题目所述情形在教材中为“{other}”")
    if len(pieces) > 1 and not passage.lead and in_order(claim.clause, span) >= SUPPORT:
        pieces = (claim.clause, *pieces)  # one sentence said in its order: compared whole as well
    swapped = next(
        (
            found
            for piece in pieces
            if (found := substitution(piece, span, whole=claim.clause) or _phrase_substitution(piece, span))
        ),
        None,
    )
    swapped = swapped or other_term(claim.clause, span)
    if swapped:
        return unknown(_difference(*swapped))
    clash = polarity_clash(said, written)
    if clash:
        written_word, said_word = (word or "（无）" for word in clash)
        return unknown(f"禁止、免除或否定与教材不对应：教材为“{written_word}”，题目为“{said_word}”")
    if _HEDGE.search(written) and not _HEDGE.search(said):
        return unknown(f"教材的说法有所保留：“{_HEDGE.search(written).group()}”")
    if _role_swapped(said, written):
        return unknown("题目所说的对象在教材中是别的事物的组成部分")
    if _only_condition(claim, passage):
        return unknown("题目只说了教材规定的前提，没有说规定本身")
    condition = _unstated_condition(claim, passage)
    if condition:
        return unknown(f"教材此说以“{condition}”为前提，题目未说明")
    if passage.lead and negatives(normalise(passage.lead)) and not negatives(said):
        return unknown(f"教材将其列于“{passage.lead.rstrip('：:')}”之下")
    return ClauseCheck("supported", "与教材一致", passage, covered)
