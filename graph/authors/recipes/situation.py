"""A list of 情形 under a rule ("职工可以提取…的情形", "需要注销网签的情形") → 灵活 judge: a case (undated) in
which exactly one listed situation happens to named people, and a broker's conclusion about this case.
"职工周某出境定居。经纪人员吴某据此认为，周某不能提取职工住房公积金账户内的存储余额。（　）"
The situation decides the answer: it is one the list names, so the rule's own word (可以, 不得, 需要) holds
and the conclusion is right exactly when it keeps that word; a conclusion with the word turned is wrong.

A situation is told only when the case can say who is in it: the item names a party ("买卖双方协商一致解除
合同的" → "买方周某与卖方吴某协商一致解除合同"), or it is an act the rule's party does ("出境定居的" done by
职工周某). An item with alternatives inside ("离休、退休的"), a catch-all ("其他情形") or a clause of its
own is declined, since the case would not say which alternative happened. A rule that undoes something
("需要注销网签") has the case first do it ("…办理网签后，买卖双方协商一致解除合同"), or the conclusion would
lack its premise.
"""

from __future__ import annotations

import random
import re

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_HEAD = re.compile(r"^(.{4,40}?)的情形$")
# A rule's word and the one that turns it, so a wrong conclusion contradicts the rule in one word.
_TURNED: tuple[tuple[str, str], ...] = (
    ("不得", "可以"),
    ("可以", "不能"),
    ("需要", "无需"),
)
_ITEM_MAX = 28
_PAIR = re.compile(r"买卖双方|双方当事人")
# A rule that undoes something ("需要注销网签"): the case must first have it done, or the question lacks
# its premise.
_UNDOES = re.compile(r"注销([\u4e00-\u9fff]{2,4})$")


def _rule_word(predicate: str) -> tuple[str, str] | None:
    """The predicate's one rule word and its opposite; None when it has none or more than one."""
    found = [(word, turned) for word, turned in _TURNED if word in predicate]
    return found[0] if len(found) == 1 and predicate.count(found[0][0]) == 1 else None


def _actor(predicate: str) -> str | None:
    """The person the rule is about ("职工可以提取…" → 职工): the first role word of the predicate."""
    roles = [r for r in scenes.roles_in(predicate) if r not in scenes.ORGANISATIONS]
    return roles[0] if roles and predicate.startswith(roles[0]) else None


def _situation(item: str, actor: str | None, names: dict[str, str], rng: random.Random) -> str | None:
    """The item told as what happened to named people, or None when the case could not say who."""
    text = O.clean_item(item).removesuffix("的")
    if not 5 <= len(text) <= _ITEM_MAX or "其他" in text or re.search(r"[、，,；;]|或者?", text):
        return None
    if _PAIR.match(text):
        buyer = names.setdefault("买方", scenes.plain_name(rng, set(names.values())))
        seller = names.setdefault("卖方", scenes.plain_name(rng, set(names.values())))
        return _PAIR.sub(f"买方{buyer}与卖方{seller}", text, count=1)
    roles = [r for r in scenes.roles_in(text) if r not in scenes.ORGANISATIONS]
    if roles:
        return None  # a party inside a clause ("权利人的姓名…发生变更") reads badly with a name pasted in
    if actor is None or O.act_of(text) != text:
        return None
    name = names.setdefault(actor, scenes.plain_name(rng, set(names.values())))
    return f"{dict(scenes.ROLES)[actor].format(name=name)}{text}"


def _claim(predicate: str, actor: str | None, names: dict[str, str]) -> str:
    if actor is not None and actor in names:
        return names[actor] + predicate[len(actor) :]
    return f"本案{predicate}"


class Situation:
    name = "situation"
    kinds: tuple[FactKind, ...] = ("enumeration",)
    qtypes: tuple[QuestionType, ...] = ("judge",)

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype not in self.qtypes:
            return None
        head = _HEAD.match(fact.subject)
        if head is None or not O.is_name(fact.subject):
            return None
        predicate = head[1]
        word = _rule_word(predicate)
        if word is None:
            return None
        rng = brief.rng
        actor = _actor(predicate)
        items = list(fact.items)
        rng.shuffle(items)
        for item in items:
            names: dict[str, str] = {}
            told = _situation(item, actor, names, rng)
            if told is not None:
                break
        else:
            return None
        undone = _UNDOES.search(predicate)
        if undone:
            who = re.match(r"^(买方[\u4e00-\u9fff]某与卖方[\u4e00-\u9fff]某|[^，]{2,6}某)", told)
            if who is None:
                return None
            told = f"{who[1]}办理{undone[1]}后，{O.clean_item(item).removesuffix('的')}"
        broker = scenes.plain_name(rng, set(names.values()))
        right = _claim(predicate, actor, names)
        truth = rng.random() < 0.5
        said = right if truth else right.replace(word[0], word[1], 1)
        stem = f"{told}。经纪人员{broker}据此认为，{said}。（　）"  # no date: it decides nothing
        listed = O.clean_item(item).removesuffix("的")
        analysis = f"本案中{told}，属于教材所列{fact.subject}中的“{listed}”，因此{right}"
        analysis += "。" if truth else f"，而不是“{said}”。"
        return O.judge([fact.id], stem, truth, analysis, [fact.source], difficulty=0.5)


RECIPE = Situation()
