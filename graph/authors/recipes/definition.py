"""Definition and classification → "what is this called / which class is it" questions, with the other terms
or classes of the same classification as options (砖木 / 砖混 / 钢混 / 钢结构; 得房率 / 容积率 / 绿地率).

The compiler gives three shapes of definition fact, and they combine: a meaning ("得房率是套内建筑面积占建筑
面积的比例"), a membership in a classification ("按取得方式和产权性质，住房可分为商品住房、经济适用住房…",
the other members in `siblings`), and a short class ("…所得属于财产转让所得"). A term is asked from its
meaning, with the members of its classification and the parallel terms defined beside it as the other
options — each explained by its own definition where the textbook gives one. A class is asked from the
term, with the parallel classes defined beside it. 灵活 mode tells the meaning as something a named person
did, when it is an act; otherwise the recipe declines rather than paste a name before a textbook sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_CLASS_MAX = 12
_TERM_MAX = 15
_MEANING_MIN = 6
_MEANING_OPENERS = ("是指", "指的是", "指", "是")
_DIVIDING_END = re.compile(r"(?:的)?(?:分类|类别|划分)$")
_CLASSIFICATION = re.compile(r"^按(?:照)?(.+?)(?:划分的(.{1,12}))?$")
_CRITERION_MAX = 20
_ASIDE = re.compile(r"，(?:通常|如|例如|比如|一般|俗称|简称|即|也称)")
# A meaning that names a kind of conduct: its act can be told as what a person did.
_CONDUCT = "的行为"
_BLANK = re.compile(r"\s*[—－\-/／]?\s*")


@dataclass(frozen=True)
class _Asked:
    """What the stem shows, the key, and the alternatives as (text, reason, source sentence or "")."""

    shown: str
    right: str
    right_why: str
    alternatives: list[tuple[str, str, str]]
    sources: list[str]
    lead: str = ""
    term_asked: bool = True


def _meaning(fact: Fact) -> str:
    """The category as a definition states it: without an opening 是指 or wrapping quotes, and without
    the example or common name that follows it ("，通常用…表示", "，如…")."""
    text = fact.category.strip().rstrip("。；;")
    if text.startswith("“") and text.endswith("”"):
        text = text[1:-1]
    for opener in _MEANING_OPENERS:
        if text.startswith(opener):
            text = text[len(opener) :].lstrip("：:，")
            break
    return _ASIDE.split(text, maxsplit=1)[0]


def _is_classification(fact: Fact) -> bool:
    """A membership: "按X划分的Y" as the category, the other members as siblings."""
    return bool(fact.siblings) and _meaning(fact).startswith("按")


def _is_class(fact: Fact) -> bool:
    category = _meaning(fact)
    return (
        not _is_classification(fact) and len(category) <= _CLASS_MAX and not re.search(r"[，,；;]", category)
    )


def _is_meaning(fact: Fact) -> bool:
    return not _is_classification(fact) and not _is_class(fact) and len(_meaning(fact)) >= _MEANING_MIN


def _parallel(a: str, b: str) -> bool:
    """Two terms of one family: 转移登记 / 查封登记, 等额本息 / 等额本金, 得房率 / 容积率."""
    suffix = O.shared_ending(a, b)
    prefix = O.shared_opening(a, b)
    # Words of three or four characters differing in one part: 得房率 / 容积率, 等额本息 / 等额本金.
    twins = len(a) == len(b) in (3, 4) and (suffix >= 1 or prefix == len(a) - 1)
    return a != b and (suffix >= 2 or twins)


class Definition:
    name = "definition"
    kinds: tuple[FactKind, ...] = ("definition",)
    qtypes: tuple[QuestionType, ...] = ("single", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if fact.kind != "definition" or not O.is_name(fact.subject) or not fact.category:
            return None
        asked = self._class(fact, brief) if _is_class(fact) else self._term(fact, brief)
        if asked is None:
            return None
        stem = self._stem(asked, brief)
        if stem is None or O.gives_away(asked.right, stem):
            return None
        alternatives = [a for a in asked.alternatives if not O.in_stem(stem, [a[0]])]
        brief.rng.shuffle(alternatives)
        alternatives.sort(key=lambda a: not a[2])  # alternatives the textbook defines explain themselves
        if brief.task.qtype == "single":
            return self._single(fact, asked, alternatives, stem, brief)
        if brief.task.qtype == "judge":
            return self._judge(fact, asked, alternatives, stem, brief)
        return None

    def _term(self, fact: Fact, brief: Brief) -> _Asked | None:
        """The meaning shown, the term asked: the members of its classification and the parallel terms
        defined beside it are the other options."""
        beside = [f for f in O.nearby(fact, brief, "definition") if O.is_name(f.subject)]
        same = [f for f in [fact, *beside] if O.key(f.subject) == O.key(fact.subject)]
        described = next((f for f in same if _is_meaning(f)), None)
        grouped = next((f for f in same if _is_classification(f)), None)
        if described is None:
            return None
        defined = {
            O.key(f.subject): f for f in beside if _is_meaning(f) and O.key(f.subject) != O.key(fact.subject)
        }
        rows = {
            O.key(row.items[0]): row
            for row in O.nearby(fact, brief, "table_row")
            if len(row.items) > 1 and len(row.header) > 1 and not _BLANK.fullmatch(row.items[1])
        }
        members = [O.clean_item(m) for m in grouped.siblings] if grouped else []
        family = [f.subject for f in defined.values() if _parallel(f.subject, fact.subject)]
        family += [
            row.items[0].strip() for row in rows.values() if _parallel(row.items[0].strip(), fact.subject)
        ]
        kind = _CLASSIFICATION.match(_meaning(grouped)) if grouped else None
        kind = kind if kind and len(kind[1]) <= _CRITERION_MAX else None
        # "按房屋的用途分类划分" says dividing twice: the criterion is 房屋的用途.
        criterion = _DIVIDING_END.sub("", kind[1]) if kind else ""
        alternatives = []
        for term in O.distinct([*members, *family]):
            if O.key(term) == O.key(fact.subject) or len(term) > _TERM_MAX:
                continue
            known, row = defined.get(O.key(term)), rows.get(O.key(term))
            if known is not None:
                alternatives.append((term, f"“{term}”是指{_meaning(known)}", known.source))
            elif row is not None:
                alternatives.append((term, f"“{term}”的{row.header[1]}是{row.items[1].strip()}", row.source))
            elif kind and kind[2]:
                alternatives.append(
                    (term, f"“{term}”是按{criterion}划分的另一种{kind[2]}，与题干所述不符", "")
                )
            else:
                alternatives.append((term, f"“{term}”是与{fact.subject}并列的另一类，与题干所述不符", ""))
        meaning = _meaning(described)
        lead = f"按{criterion}划分，" if kind else ""
        sources = [fact.source, described.source] + ([grouped.source] if grouped else [])
        return _Asked(meaning, fact.subject, f"“{fact.subject}”是指{meaning}", alternatives, sources, lead)

    def _class(self, fact: Fact, brief: Brief) -> _Asked | None:
        """The term shown, its class asked: the parallel classes defined beside it are the other options."""
        category = _meaning(fact)
        alternatives = []
        seen = {O.key(category)}
        for other in O.nearby(fact, brief, "definition"):
            name = _meaning(other)
            if _is_class(other) and O.key(name) not in seen and _parallel(name, category):
                seen.add(O.key(name))
                alternatives.append(
                    (name, f"属于“{name}”的是{other.subject}，而不是{fact.subject}", other.source)
                )
        why = f"{fact.subject}属于“{category}”"
        return _Asked(fact.subject, category, why, alternatives, [fact.source], term_asked=False)

    def _stem(self, asked: _Asked, brief: Brief) -> str | None:
        """A stem ending in the blank (a judge fills it). 灵活 only when the description is an act."""
        rng = brief.rng
        if brief.task.mode == "flexible":
            conduct = asked.shown.removesuffix(_CONDUCT)
            act = O.act_of(conduct) if asked.term_asked and conduct != asked.shown else None
            if act is None or act != conduct:
                return None
            name = scenes.plain_name(rng)
            when = O.case_date(rng, *asked.sources)
            return f"{when}，{name}{act}。{name}的这一行为属于（　）。"
        if asked.right == asked.shown or not asked.shown:
            return None
        if not asked.term_asked:
            return rng.choice((f"{asked.shown}属于（　）。", f"按照教材的分类，{asked.shown}属于（　）。"))
        noun_ending = "的" in asked.shown[-6:]
        second = f"{asked.shown}是（　）。" if noun_ending else f"{asked.shown}的是（　）。"
        return f"{asked.lead}{rng.choice((f'{asked.shown}，称为（　）。', second))}"

    def _single(
        self, fact: Fact, asked: _Asked, alternatives: list[tuple[str, str, str]], stem: str, brief: Brief
    ) -> Written | None:
        if len(alternatives) < 3:
            return None  # a single choice has four options, as the field's papers print it
        picked = alternatives[:3]
        choices = [O.Option(asked.right, True, asked.right_why)]
        choices += [O.Option(text, False, why) for text, why, _ in picked]
        return O.choice(
            [fact.id],
            "single",
            stem,
            O.arrange(choices, brief.rng),
            [*asked.sources, *(source for _, _, source in picked if source)],
            difficulty=0.5 if brief.task.mode == "flexible" else 0.4,
        )

    def _judge(
        self, fact: Fact, asked: _Asked, alternatives: list[tuple[str, str, str]], stem: str, brief: Brief
    ) -> Written | None:
        if not alternatives:
            return None  # a definition that can only be stated true teaches the learner to answer 正确
        truth = brief.rng.random() < 0.5
        shown, why, source = (asked.right, asked.right_why, "") if truth else alternatives[0]
        judged = stem.replace("（　）。", f"{shown}。（　）")
        analysis = f"{asked.right_why}，题干表述正确。" if truth else f"{asked.right_why}；{why}。"
        sources = asked.sources + ([source] if source else [])
        difficulty = 0.4 if brief.task.mode == "flexible" else 0.3
        return O.judge([fact.id], judged, truth, analysis, sources, difficulty=difficulty)


RECIPE = Definition()
