"""Lists in prose: numbered items under a head, and "、"-lists after 包括 / 分为 / 是 / a colon.

Items are cut only at their markers (or at "、" and the last 和/及/或), never at a comma inside an item, so
"（1）买卖双方协商一致，解除合同的" stays one item. Numbering, trailing "；。" and a closing "等"/"三类" go.
When every item of a numbered list opens with a short title ("（1）首次登记：……"), the items are the titles
and each body is kept as that title's meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.compiler.clauses import bracket_depths, split_outside_brackets, strip_clause
from retrieval.compiler.phrases import clean_subject, is_time, topic_noun, without_asides
from retrieval.compiler.quantities import find_quantities
from retrieval.facts import Fact

_MARKERS: tuple[re.Pattern[str], ...] = (
    re.compile(r"（\s*(?P<n>\d{1,2})\s*）"),
    re.compile(r"\(\s*(?P<n>\d{1,2})\s*\)"),
    re.compile(r"(?P<n>[①-⑳])"),
    re.compile(r"(?:^|(?<=[：:；;。\n]))\s*(?P<n>\d{1,2})\s*[、.．](?!\d)"),
    re.compile(r"(?:^|(?<=[：:；;。，,\n]))\s*(?P<n>[一二三四五六七八九十])是"),
)
_CN_ORDINALS = "一二三四五六七八九十"
_HAS = r"(?<![所拥具享没共持占只还特私国公固设含附])有(?![待关效利限权所])"
_IS = r"(?<![但于就还只凡或正都也即总要不而可])是(?!指)"
_AS = r"(?<![行作认因成视称较更以则])为"
_TRIGGER = re.compile(rf"(?:可以分为|可分为|分为|分成|包括|包含|主要有|{_HAS}|{_IS}|{_AS}|：|:)")
_LIST_TAIL = re.compile(
    r"(?:等)?[一二三四五六七八九十两\d]+(?:大|个)?(?:类|种|项|方面|部分)[^、，,]{0,6}$|等$"
)
_CONJUNCTION = re.compile(r"(?:以及|或者|及|和|与|或)")
_HEAD_TAIL = re.compile(
    rf"(?:主要|一般|通常|可以|可|大致|具体)?(?:包括|包含|分为|分成|{_HAS}|{_IS}|{_AS}|如下|如)?"
    r"(?:以下|下列|如下)?(?:几种|几类|几个方面|几项)?$"
)
_ADVERB_TAIL = re.compile(r"(?:主要|一般|通常|可以|可|大致|具体|还|也|又|都|同时)+$")
# A colon list without numbers is a list only under a head that announces one ("…的流程：", "…三项约束：").
_ANNOUNCES = re.compile(
    r"(?:包括|有|如下|以下|下列|情形|条件|材料|流程|步骤|程序|事项|方式|内容|行为|种类|类型|方面|要求|原则|环节"
    r"|[一二三四五六七八九十两\d]+(?:处|项|个|种|类|条|点|步)\S{0,4})$"
)
_NOT_AN_ITEM = re.compile(r"^(?:在|从|对|向|以|按|由|于|当|将|把|被)|是|称为|属于|可以|应当|(?<![代])指|时$")
_KINDS = re.compile(
    r"(?:可以|可)?(?:分为|分成|包括|包含|主要有|有)?(?:以下|下列|如下)(?:几种|几类|几个方面|几项|几个|类型|种类)?$"
)
_CLASSIFYING = re.compile(r"(?:可以分为|可分为|分为|分成)")
_MODAL_KIND = re.compile(
    r"^(?:下列|以下)(?P<kind>\S{1,4}?)(?P<rest>(?:不得|不能|不予|准予|应当|应|可以|可|须|必须)\S+)$"
)
# "职工有下列情形之一的，可以提取…": the lead (职工) is who the rule is about and stays in the head.
_CASES = re.compile(
    r"^(?P<lead>[\u4e00-\u9fff]{0,8}?)(?:有|具有|存在|出现|属于|符合)?(?:下列|以下|如下)(?P<kind>\S{1,4}?)之一的$"
)
_FOLLOWING = re.compile(r"^(?P<lead>.+?)(?:下列|以下|如下)(?P<kind>\S{1,4})$")
_BASIS = re.compile(r"^(?:按照|按|根据|依据|依照)(?P<basis>.+?)(?:的不同|不同)?$")
_TITLED = re.compile(r"^(?P<title>[^，,。；;：:（(]{1,12}?)(?:[：:。]|是指|指的是)(?P<body>.{4,})$")
_BY_LIST = re.compile(r"^(?P<lead>.*?)按照?(?:下列|以下|如下)\S{1,4}?(?:确定|执行|计算|划分|分类|处理|办理)$")
_DANGLING = re.compile(r"^(?:其|它的|常见|主要|一般|通常)")
_ITEM_MAX = 20  # longer "items" of a "、"-list are clauses that happen to contain "、"
_NAME_MAX = 10
_CLAUSE_MAX = 40
_HEAD_MIN = 2
_HEAD_MAX = 30
_HEADING_NUMBER = re.compile(r"^(?:[一二三四五六七八九十]+、|（[一二三四五六七八九十]+）|\d+[.、．])\s*")


@dataclass(frozen=True)
class Listing:
    """A list and its head. `bodies` maps a titled item to its body; `classification` marks "分为" lists,
    whose items are classes of the head."""

    head: str
    items: tuple[str, ...]
    classification: bool = False
    bodies: tuple[tuple[str, str], ...] = ()


def _clean_item(text: str) -> str:
    item = text.strip().strip("；;。，,、 \n")
    return item.strip()


def _numbered(sentence: str) -> tuple[int, list[tuple[int, int]]] | None:
    """Where the items of the first marker family with a run 1, 2, … begin: (head end, [(start, end)])."""
    for pattern in _MARKERS:
        spans: list[tuple[int, int]] = []
        expected = None
        for match in pattern.finditer(sentence):
            number = _ordinal(match["n"])
            if (expected is None and number == 1) or number == expected:
                spans.append((match.start(), match.end()))
                expected = number + 1
        if len(spans) >= 2:
            return spans[0][0], spans
    return None


def has_numbered_list(sentence: str) -> bool:
    return _numbered(sentence) is not None


def _ordinal(marker: str) -> int:
    if marker.isascii():
        return int(marker)
    if marker in _CN_ORDINALS:
        return _CN_ORDINALS.index(marker) + 1
    return ord(marker) - ord("①") + 1


def head_subject(head: str) -> str:
    """ "有下列情形之一的，应当注销网签" → "应当注销网签的情形"; "应提交以下材料" → "应提交的材料"."""
    text = strip_clause(head)
    parts = [strip_clause(p) for p in split_outside_brackets(text, "，,；;") if strip_clause(p)]
    for index, part in enumerate(parts[:-1]):
        if cases := _CASES.match(part):
            return f"{cases['lead']}{parts[index + 1]}的{cases['kind']}"
    last = parts[-1] if parts else text
    if by_list := _BY_LIST.match(last):
        return clean_subject(by_list["lead"])
    if modal := _MODAL_KIND.match(last):
        return f"{modal['rest']}的{modal['kind']}"
    if _KINDS.search(last):
        return clean_subject(_HEAD_TAIL.sub("", _KINDS.sub("", last)))
    if following := _FOLLOWING.match(last):
        lead = following["lead"]  # "经纪人员不得有下列行为" → 经纪人员不得有的行为: the verb stays
        return f"{lead}的{following['kind']}" if lead else following["kind"]
    return clean_subject(_HEAD_TAIL.sub("", last))


def _numbered_listing(sentence: str, title: str) -> Listing | None:
    found = _numbered(sentence)
    if found is None:
        return None
    head_end, spans = found
    items = [
        _clean_item(sentence[end : spans[i + 1][0] if i + 1 < len(spans) else len(sentence)])
        for i, (_, end) in enumerate(spans)
    ]
    if not all(items):
        return None
    head_text = sentence[:head_end]
    head = head_subject(head_text)
    if not head or len(head) > _HEAD_MAX or is_time(head):
        head = clean_subject(_HEADING_NUMBER.sub("", title))  # no usable head: the slice's title names it
    classification = bool(_CLASSIFYING.search(head_text))
    clauses = [
        strip_clause(c) for c in split_outside_brackets(strip_clause(head_text), "，,") if strip_clause(c)
    ]
    if clauses and (named := _clause_listing(clauses[-1], clauses[:-1])):
        head = named.head  # "住宅的套型主要有平层、错层…四种：①…" is a list of 住宅的套型
    titled = [_TITLED.match(item) for item in items]
    if all(titled):
        pairs = tuple((m["title"].strip(), _clean_item(m["body"])) for m in titled if m)
        return Listing(head, tuple(t for t, _ in pairs), classification, pairs)
    return Listing(head, tuple(items), classification)


def split_items(text: str) -> list[str]:
    """ "A、B和C三类" → [A, B, C]; the last part is split at its last 和/及/或 only."""
    parts = [p.strip() for p in split_outside_brackets(_LIST_TAIL.sub("", text.strip()), "、")]
    conjunctions = list(_CONJUNCTION.finditer(parts[-1])) if parts else []
    if conjunctions:
        last = conjunctions[-1]
        parts[-1:] = [parts[-1][: last.start()], parts[-1][last.end() :]]
    return [_LIST_TAIL.sub("", p).strip() for p in parts]


def _clause_listing(clause: str, before: list[str]) -> Listing | None:
    depths = bracket_depths(clause)
    commas = [i for i, char in enumerate(clause) if char == "、" and depths[i] == 0]
    classifying = "分为" in clause or "分成" in clause
    if not commas and not classifying:
        return None
    limit = commas[0] if commas else len(clause)
    triggers = [m for m in _TRIGGER.finditer(clause, 0, limit) if depths[m.start()] == 0]
    if not triggers:
        return None
    trigger = triggers[-1]
    items = split_items(clause[trigger.end() :].lstrip("：: "))
    # After 是/为 a "、"-list is a list of short names; anything else is a phrase ("依法设立、从事…的机构").
    short = trigger.group() in ("是", "为")
    longest = _NAME_MAX if short else _ITEM_MAX
    if len(items) < 2 or not all(0 < len(item) <= longest for item in items):
        return None
    if "等" in items[-1] or clause.endswith("的") or any(_NOT_AN_ITEM.search(item) for item in items):
        return None  # "由基础、墙、柱等承重构件组成", "能够提供完整、准确的凭证的": phrases, not lists
    with_of = sum("的" in item for item in items)
    if (short and with_of) or 0 < with_of < len(items) or any(find_quantities(item) for item in items):
        return None  # "合法、有效的凭证" qualifies one noun; "市区7%、县城5%" are values, not names
    head, word = clause[: trigger.start()], trigger.group()
    if (
        word in "：:"
        and (spoken := _TRIGGER.search(head, max(len(head) - 4, 0)))
        and spoken.end() == len(head)
    ):
        head, word = head[: spoken.start()], spoken.group()  # "可分为：A、B"
    classification = word in ("可以分为", "可分为", "分为", "分成")
    if classification:
        return Listing(_class_name(head, before), tuple(items), classification=True)
    subject = clean_subject(_ADVERB_TAIL.sub("", head))
    return Listing(subject, tuple(items)) if len(subject) >= _HEAD_MIN else None


def _class_name(head: str, before: list[str]) -> str:
    """ "按主要承重构件所用材料，房屋可分为" → "按主要承重构件所用材料划分的房屋"."""
    thing = clean_subject(_ADVERB_TAIL.sub("", head))
    basis = ""
    inline = re.match(r"^(?P<thing>.*?)(?:按照|按|根据|依据|依照)(?P<basis>.+)$", thing)
    if inline and inline["thing"]:
        thing, basis = clean_subject(inline["thing"]), inline["basis"]
    elif before and (found := _BASIS.match(before[-1])):
        basis = found["basis"]
    basis = re.sub(r"(?:的不同|不同)$", "", basis)
    return f"按{basis}划分的{thing}" if basis and thing else thing


def _colon_listing(sentence: str) -> Listing | None:
    """ "下列房屋不得转让：A；B；C。" — items separated by "；" after a colon, without numbers."""
    head, colon, rest = sentence.partition("：")
    if not colon:
        return None
    items = [_clean_item(part) for part in split_outside_brackets(rest, "；;")]
    items = [item for item in items if item]
    if len(items) < 2 or not _ANNOUNCES.search(strip_clause(head)):
        return None
    if any(len(item) > _CLAUSE_MAX or "，" in item for item in items):
        return None  # whole rules after a colon are statements, read clause by clause elsewhere
    return Listing(head_subject(head), tuple(items))


def find_listings(sentence: str, title: str) -> list[Listing]:
    """Every list of one sentence; `title` (the slice's) names a numbered list that has no head."""
    numbered = _numbered_listing(sentence, title)
    if numbered is not None:
        return [numbered]
    listings: list[Listing] = []
    previous = ""
    for segment in split_outside_brackets(strip_clause(sentence), "；;"):
        clauses = [strip_clause(c) for c in split_outside_brackets(segment, "，,") if strip_clause(c)]
        for index, clause in enumerate(clauses):
            listing = _clause_listing(clause, clauses[:index])
            if listing is None:
                continue
            listings.append(_owned(_shared_prefix(listing, previous), sentence))
            previous = listings[-1].head
    if not listings and (colon := _colon_listing(strip_clause(sentence))):
        listings.append(colon)
    return [listing for listing in listings if listing.head]


def _owned(listing: Listing, sentence: str) -> Listing:
    """ "其特点有…", "常见的形式有…": the head takes the sentence's topic ("钢结构的特点")."""
    if not _DANGLING.match(listing.head):
        return listing
    topic = topic_noun(split_outside_brackets(strip_clause(sentence), "，,；;")[0])
    if not topic or topic in listing.head:
        return listing
    head = f"{topic}的{listing.head[1:]}" if listing.head.startswith("其") else f"{topic}{listing.head}"
    return Listing(head, listing.items, listing.classification, listing.bodies)


def _shared_prefix(listing: Listing, previous: str) -> Listing:
    """ "遗产的第一顺序承受人是…，第二顺序是…": the second head is "遗产的第二顺序承受人"."""
    owner, _, tail = previous.rpartition("的")
    head, size = listing.head, len(listing.head)
    if (
        owner
        and "的" not in head
        and size <= len(tail)
        and tail[size - 1] == head[-1]
        and tail[:size] != head
    ):
        return Listing(f"{owner}的{head}{tail[size:]}", listing.items, listing.classification, listing.bodies)
    return listing


def enumeration_facts(sentence: str, listings: list[Listing]) -> list[Fact]:
    return [
        Fact(
            id="",
            kind="enumeration",
            slice_id="",
            source=sentence,
            subject=without_asides(lst.head),
            items=lst.items,
        )
        for lst in listings
    ]
