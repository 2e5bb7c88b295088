"""Enumeration → "which of these belong to the head" questions. The list's items are the correct options; the
distractors are items of a sibling list of the same kind (配偶 / 子女 / 父母 against 兄弟姐妹 / 祖父母 of the
second order), never other items of the same list, so every option is one fact and each wrong one has a
reason the explanation can name: it belongs to the other list.

灵活 mode needs a real case, which a list cannot give: a list item told with a name ("刘某承购、承租自己提供
经纪服务的房屋。刘某的这一行为属于…") is the rule's own words, not facts the learner maps to it, so the
recipe declines and another recipe serves the request.
"""

from __future__ import annotations

import re
from dataclasses import replace

from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

# Heads "P的N" read as "下列N中，P的有" ("下列情形中，需要注销网签的有"): N a kind of item, P a predicate.
_ITEM_NOUNS = (
    "情形", "情况", "材料", "文件", "资料", "证件", "证明", "行为", "人员", "费用", "税费", "事项", "条件",
    "内容", "主体", "房屋", "住房", "义务", "权利", "职责", "措施",
)  # fmt: skip
_PREDICATE = re.compile(rf"^(.{{4,}}?)的({'|'.join(_ITEM_NOUNS)})$")
_PREDICATE_MARKS = "应需可不须得要能"
# "第一顺序", "第二类": an ordinal names a list only with the sentence that says what is ordered.
_BARE_ORDINAL = re.compile(r"^第[一二三四五六七八九十\d]+[\u4e00-\u9fff]{0,2}$")
_SEQUENCES = ("顺序", "步骤", "流程", "程序", "环节")
_CATCH_ALL = "其他"
_CLASSIFIED = re.compile(r"^按(?:照)?(.{2,15}?)划分的(.{2,10})$")
_NEGATIONS = "不未无非禁"
# Heads of lists of conduct: only their items can be told as what a person did.
# A list head that names no owner ("基本情况", "主要内容"): whose situation or content, the stem must say.
_OWNERLESS = re.compile(
    r"^(?:基本|主要|一般|具体|其他|相关|常见|重要)?(?:情况|内容|要素|条件|事项|方面|特点|因素|要求|信息|类型|种类)$"
)
# What closes a section title without naming its topic: "客户需求信息的内容" is about 客户需求信息.
_TITLE_TAIL = re.compile(r"的?(?:内容|概述|类型|种类|分类|构成|组成|要求|基本规定|主要规定)$")
_ITEM_SPREAD = 6  # the longest item at most this many times the shortest: items of one list are parallel
_LENGTH_RATIO = 3  # two lists of one kind: mean item lengths within this factor
_JUDGE_ITEM_MAX = 10
_WIDTH = 5  # options of a multiple choice (A–E); a single choice has four
_LEAD_MAX = 40


# "强制性，单位和职工都应当按规定缴存": an item told as a label and what it means; the label is the option.
# A figure after the label makes it a condition of a value ("首套住房，贷款期限5年以下的利率为2.1%"), not a
# name.
_LABELLED = re.compile(r"^([^，,；;\d]{2,12}?)[，,](?!的)[^\d]+$")
_NOT_A_LABEL = ("的", "时", "后", "前", "中", "下")


def _labels(items: list[str]) -> list[str]:
    """The labels of a list whose every item opens with one ("强制性，单位和职工…" / "互助性，缴存的资金…"),
    distinct and none a condition ("…的，" opens a rule, not a label); else the items unchanged."""
    found = [m[1] if (m := _LABELLED.match(item)) else "" for item in items]
    usable = all(label and not label.endswith(_NOT_A_LABEL) for label in found)
    return found if usable and len({O.key(label) for label in found}) == len(found) else items


def _items(fact: Fact) -> list[str]:
    items = _labels(O.distinct(O.clean_item(i) for i in fact.items))
    return [
        i
        for i in items
        if 2 <= len(i) <= O.OPTION_MAX
        and not re.search(r"[，,；;]", i)
        and i[0] not in "指是由否"
        and _CATCH_ALL not in i  # "法律规定的其他情形" closes many lists: it belongs to none alone
    ]


def _usable(fact: Fact) -> bool:
    items = _items(fact)
    if len(items) < 2 or len(items) * 2 < len(fact.items) or _BARE_ORDINAL.match(fact.subject):
        return False
    if fact.subject.endswith(_SEQUENCES):
        return False  # steps of one procedure: each belongs to it, and "which is a step" asks nothing
    lengths = [len(i) for i in items]
    head = _CLASSIFIED.match(fact.subject)
    return max(lengths) <= _ITEM_SPREAD * min(lengths) and (head is not None or O.is_name(fact.subject))


def _acts(items: list[str]) -> bool:
    return sum(O.act_of(i) is not None for i in items) * 2 > len(items)


def _same_kind(fact: Fact, other: Fact) -> bool:
    """Whether another list's items could pass for this list's: of the same form (things or acts, of a
    like length) and told in the same sentence or knowledge point, under a head of the same ending
    ("第一顺序继承人" / "第二顺序继承人"), or both classifications of one chapter (by structure / by layout:
    mixing the criteria is the field's own trap). Items of an unrelated topic ("钢结构" among the parts of
    a floor area, an act among relatives) are eliminated at sight."""
    mine, theirs = _items(fact), _items(other)
    ratio = (sum(map(len, mine)) / len(mine)) / (sum(map(len, theirs)) / len(theirs))
    if _acts(mine) != _acts(theirs) or not 1 / _LENGTH_RATIO <= ratio <= _LENGTH_RATIO:
        return False
    if other.source == fact.source or other.slice_id == fact.slice_id:
        return True
    both_classified = _CLASSIFIED.match(fact.subject) and _CLASSIFIED.match(other.subject)
    return bool(both_classified) or O.shared_ending(other.subject, fact.subject) >= 2


def _nested(fact: Fact, other: Fact) -> bool:
    """One list names the other's head among its items ("房地产经纪" is a 中介服务, and 居间 a kind of
    房地产经纪): the other list's items may belong here after all."""
    return any(O.key(i) in O.key(other.subject) for i in _items(fact)) or any(
        O.key(i) in O.key(fact.subject) for i in _items(other)
    )


def _sibling_lists(fact: Fact, brief: Brief) -> list[Fact]:
    """Sibling lists that can lend distractors, closest first. A list under the same or an enclosing head,
    or with mostly the same items, is this list told again: its items may belong here and are never used."""
    own = {O.key(item) for item in _items(fact)}
    head = O.key(fact.subject)
    kept = []
    for other in O.nearby(fact, brief, "enumeration"):
        other_head = O.key(other.subject)
        if not other_head or not _usable(other) or other_head in head or head in other_head:
            continue
        theirs = {O.key(item) for item in _items(other)}
        if len(theirs & own) * 2 >= len(theirs) or _nested(fact, other) or not _same_kind(fact, other):
            continue
        kept.append(other)
    return sorted(
        kept, key=lambda f: -(O.shared_ending(f.subject, fact.subject) + 2 * (f.source == fact.source))
    )


def _head_noun(items: list[str]) -> str:
    """The ending every item shares ("自书遗嘱" / "代书遗嘱" → "遗嘱"), "" when they share none; only its
    words count (the "0年" of "居住用地70年" / "工业用地50年" is a coincidence of figures)."""
    keys = [O.key(item) for item in items]
    shared = ""
    while all(len(k) > len(shared) for k in keys) and len({k[-len(shared) - 1 :] for k in keys}) == 1:
        shared = keys[0][-len(shared) - 1 :]
    return re.sub(r"^.*[^\u4e00-\u9fff]", "", shared).lstrip("的")


def _foreign(fact: Fact, brief: Brief) -> list[tuple[str, Fact]]:
    """Items of the sibling lists, closest list first, preferring a length that sits beside this list's.
    When this list's items share a head noun (…遗嘱), an item without it ("外祖父母" among the forms of a
    will) is eliminated at sight and is never offered."""
    own = {O.key(item) for item in _items(fact)}
    head = _head_noun(_items(fact))
    seen: set[str] = set()
    found = []
    for other in _sibling_lists(fact, brief):
        theirs = _head_noun(_items(other))
        if all(len(O.key(i)) > len(theirs) for i in _items(other)) and not head.endswith(theirs):
            continue  # "框架—剪力墙结构" among the features of a structure: a list of another kind of thing
        items = [item for item in _items(other) if O.key(item).endswith(head)]
        brief.rng.shuffle(items)
        for item in items:
            if O.key(item) not in own and O.key(item) not in seen:
                seen.add(O.key(item))
                found.append((item, other))
    mine = _items(fact)
    mean = sum(map(len, mine)) / len(mine)
    return sorted(found, key=lambda pair: not mean / 2 <= len(pair[0]) <= 2 * mean + 2)


def _why_in(item: str, fact: Fact) -> str:
    return f"“{item}”属于{fact.subject}"


def _why_out(item: str, owner: Fact, fact: Fact) -> str:
    return f"“{item}”属于{owner.subject}，不属于{fact.subject}"


def _lead(fact: Fact) -> str:
    """A one-line reminder of the whole list, when it is short enough to read in the poll's explanation."""
    items = _items(fact)
    joined = "；".join(items) if any("、" in i for i in items) else "、".join(items)
    return f"教材所列{fact.subject}为{joined}。" if len(joined) <= _LEAD_MAX else ""


class Enumeration:
    name = "enumeration"
    kinds: tuple[FactKind, ...] = ("enumeration",)
    qtypes: tuple[QuestionType, ...] = ("multi", "single", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if fact.kind != "enumeration" or not _usable(fact):
            return None
        if _OWNERLESS.match(fact.subject):
            owner = _TITLE_TAIL.sub("", O.topic(fact, brief))
            if len(owner) < 2 or fact.subject in owner:
                return None  # "属于基本情况的是": the reader cannot tell whose
            fact = replace(fact, subject=f"{owner}中的{fact.subject}")
        qtype = brief.task.qtype
        if brief.task.mode == "flexible":
            return None
        if qtype == "multi":
            return self._multi(fact, brief)
        if qtype == "single":
            return self._single(fact, brief)
        if qtype == "judge":
            return self._judge(fact, brief)
        return None

    def _frames(self, fact: Fact, many: bool) -> list[str]:
        ending = "有" if many else "是"
        classified = _CLASSIFIED.match(fact.subject)
        if classified:
            basis, whole = classified.groups()
            frames = [f"按{basis}划分，下列各项中属于{whole}类型的{ending}（　）。"]
            return [*frames, f"按{basis}划分，{whole}包括（　）。"] if many else frames
        frames = [f"下列各项中，属于{fact.subject}的{ending}（　）。"]
        parts = _PREDICATE.match(fact.subject)
        if parts and any(mark in parts[1] for mark in _PREDICATE_MARKS):
            frames.append(f"下列{parts[2]}中，{parts[1]}的{ending}（　）。")
        if many:
            frames.append(f"{fact.subject}包括（　）。")
        return frames

    def _build(
        self,
        fact: Fact,
        brief: Brief,
        stem: str,
        counts: tuple[int, int],
        qtype: QuestionType,
        *,
        ask_foreign: bool = False,
    ) -> Written | None:
        """`counts` items of the list and of sibling lists; the key is the listed items, or the foreign
        one when the stem asks what does not belong."""
        listed, foreign = counts
        rng = brief.rng
        correct = [item for item in _items(fact) if not O.in_stem(stem, [item])]
        outsiders = [(item, owner) for item, owner in _foreign(fact, brief) if not O.in_stem(stem, [item])]
        if len(correct) < listed or len(outsiders) < foreign:
            return None
        shown = rng.sample(correct, listed)
        picked = outsiders[:foreign]
        choices = [O.Option(item, not ask_foreign, _why_in(item, fact)) for item in shown]
        choices += [O.Option(item, ask_foreign, _why_out(item, owner, fact)) for item, owner in picked]
        return O.choice(
            [fact.id],
            qtype,
            stem,
            O.arrange(choices, rng),
            [fact.source, *(owner.source for _, owner in picked)],
            lead=_lead(fact),
            difficulty=0.55 if qtype == "multi" else 0.45,
        )

    def _multi(self, fact: Fact, brief: Brief) -> Written | None:
        rng = brief.rng
        stem = rng.choice(self._frames(fact, many=True))
        available = sum(not O.in_stem(stem, [i]) for i in _items(fact))
        outsiders = len(_foreign(fact, brief))
        # Five options with two to four keys and at least one distractor, as the field's papers set them.
        low, high = max(2, _WIDTH - outsiders), min(_WIDTH - 1, available)
        if low > high:
            return None
        listed = rng.randint(low, high)
        return self._build(fact, brief, stem, (listed, _WIDTH - listed), "multi")

    def _single(self, fact: Fact, brief: Brief) -> Written | None:
        """What belongs (one item among three of sibling lists) or what does not (one foreign item among
        three of the list); the other form when the material cannot fill four options of the first."""
        rng = brief.rng
        negated = any(ch in fact.subject for ch in _NEGATIONS) or _CLASSIFIED.match(fact.subject)
        outside = not negated and len(_items(fact)) >= 3
        stem = rng.choice(self._frames(fact, many=False))
        forms = [(stem, (1, 3), False)]
        if outside:
            forms.insert(
                0 if rng.random() < 0.4 else 1,
                (f"下列各项中，不属于{fact.subject}的是（　）。", (3, 1), True),
            )
        for asked, counts, ask_foreign in forms:
            written = self._build(fact, brief, asked, counts, "single", ask_foreign=ask_foreign)
            if written is not None:
                return written
        return None

    def _judge(self, fact: Fact, brief: Brief) -> Written | None:
        """ "X属于{head}" for one item, or "{head}包括a、b和c" for three, one of them possibly foreign."""
        rng = brief.rng
        items = _items(fact)
        outsiders = _foreign(fact, brief)
        if not outsiders:
            return None  # a list that can only be stated true teaches the learner to answer 正确
        truth = rng.random() < 0.5
        foreign, owner = outsiders[0] if not truth else ("", None)
        short = [i for i in items if len(i) <= _JUDGE_ITEM_MAX]
        if len(short) >= 3 and not _CLASSIFIED.match(fact.subject) and rng.random() < 0.5:
            listed = rng.sample(short, 3) if truth else [*rng.sample(short, 2), foreign]
            rng.shuffle(listed)
            stem = f"{fact.subject}包括{'、'.join(listed[:-1])}和{listed[-1]}。（　）"
            verdict = "题干所列各项均在其中。"
        else:
            item = rng.choice(items) if truth else foreign
            stem = f"{item}属于{fact.subject}。（　）"
            verdict = f"{_why_in(item, fact)}。"
        analysis = _lead(fact) + (f"{_why_out(foreign, owner, fact)}。" if owner else verdict)
        return O.judge([fact.id], stem, truth, analysis, [fact.source] + ([owner.source] if owner else []))


RECIPE = Enumeration()
