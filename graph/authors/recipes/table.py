"""Table rows → lookup and recognition questions. A row is the situation; the same column's cells of the other
rows are the distractors (1% / 1.5% / 2% / 3%), each explained by the row it belongs to.

- lookup: the row's label and the bounded conditions before the asked column are given, a value is asked
  ("首套，建筑面积140㎡及以下的，契税税率为"); in 灵活 mode the bound becomes a client's concrete figure
  (120㎡), so the examinee has to place the case in the right row.
- recognition: a descriptive cell is given, the row's label is asked ("全部房间位于同一楼层平面的户型是"); in
  灵活 mode only when the description is something a person does ("刘某承购…，刘某的这一行为属于").

Comparison tables (比较项目 | 居间 | 代理), numbered lists set as tables and matrices whose columns are
conditions are declined: their rows are not alternatives of one another.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.threshold import bounds, case_value, case_values, concrete, multi_answers
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_EMPTY = ("", "—", "－", "-", "/", "／", "无")
_HEADER_UNIT = re.compile(r"^(.*?)[（(]((?:[年月日天层米元%％㎡]|平方米|万元|个月|工作日|元/平方米))[)）]$")
_BARE_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# A bounded cell that opens with its figure needs its column's name to be read alone.
_OPENS_WITH_FIGURE = re.compile(r"\s*(?:\d|[≤≥<>＜＞]|不超过|不低于|不满|未满|超过|低于|高于|满)")
# First-column names that say nothing about what the rows are ("按类别划分" reads as filler).
# A column named by when its values apply: they are values of what the table is about, not of the period.
_PERIOD = re.compile(r"\d{4}年|(?:起|以前|以后|之前|之后|至今)$")
_GENERIC_LABELS = ("类别", "类型", "种类", "情形", "名称", "项目", "内容")
_VALUE_MAX = 12
_NAMING = "名称"
# A column answering yes or no ("是否纳入监管"): its cells are verdicts on the row, neither values of a kind
# nor descriptions.
_YES_NO = "是否"
# Columns whose rows are kinds of behaviour: only their descriptions can be told as what a person did.
_LABEL_MAX = 12
_DESCRIPTION_MIN = 6
# Column names too vague to stand before a description ("特点为…的户型").
_VAGUE_COLUMNS = ("特点", "内容", "主要内容", "说明", "备注")
_DIVIDING = ("划分", "分类", "标准")
# One qualifier, another short head noun ("不含增值税成交价" / "不含增值税转让收入"): in one deal the two are
# often the same sum, so a row described so is a second answer, not a distractor.
_QUALIFIER_MIN = 4
_HEAD_MAX = 4


def _blank(cell: str) -> bool:
    return cell.strip() in _EMPTY


def _column(header: str) -> tuple[str, str]:
    """A column's name and the unit its bare numbers are in: 出让最高年限（年） → (出让最高年限, 年)."""
    found = _HEADER_UNIT.match(header.strip())
    return (found[1], found[2]) if found else (header.strip(), "")


def _value(cell: str, unit: str) -> str:
    cell = cell.strip()
    return f"{cell}{unit}" if unit and _BARE_NUMBER.fullmatch(cell) else cell


def _declined(header: tuple[str, ...], rows: list[Fact]) -> bool:
    first = header[0]
    numbered = all(_BARE_NUMBER.fullmatch(row.items[0].strip()) for row in rows)
    matrix = len(header) > 2 and all(bounds(h) for h in header[1:])
    return "比较" in first or first in ("项目", "序号") or numbered or matrix


def _conditions(row: Fact, column: int) -> list[tuple[int, str]]:
    """The cells that place a row for the value in `column`: its label and the bounded conditions before
    that column, each readable alone ("建筑面积140㎡及以下" rather than a bare "140㎡及以下")."""
    found = []
    for index, (header, cell) in enumerate(zip(row.header[:column], row.items[:column], strict=True)):
        if _blank(cell) or (index and not bounds(cell)):
            continue
        name, _ = _column(header)
        bare = bool(bounds(cell)) and _OPENS_WITH_FIGURE.match(cell) is not None and name not in cell
        found.append((index, f"{name}{cell}".strip() if bare else cell.strip()))
    return found


def _situation(row: Fact, column: int) -> str:
    """The conditions that place a row for `column`, in words: 首套，建筑面积140㎡及以下."""
    return "，".join(c for _, c in _conditions(row, column))


def _target(header: str, what: str) -> str:
    """What a column's values are: its name, or for a column named by a period ("2024年12月1日起") the
    value the table gives ("2024年12月1日起适用的契税税率"); "" when the period has nothing to name."""
    name = _column(header)[0]
    if not _PERIOD.search(name):
        return name
    return f"{name}适用的{what}" if what else ""


def what_of(fact: Fact, brief: Brief) -> str:
    """The value a table of periods gives, from its slice's title: "个人购买住房的契税税率" → 契税税率."""
    return O.topic(fact, brief).rpartition("的")[2]


def _placed(row: Fact, column: int, what: str = "") -> str:
    """What a row's value belongs to, in words: 商业、旅游、娱乐用地的出让最高年限."""
    return f"{_situation(row, column)}的{_target(row.header[column], what)}"


def _row_text(row: Fact) -> str:
    """A table row as the explanation quotes it: 高级房地产经纪人：取得方式为考试与评审相结合."""
    cells = [
        f"{_column(h)[0]}{'是' if c.startswith('为') else '为'}{_value(c, _column(h)[1])}"
        for h, c in zip(row.header[1:], row.items[1:], strict=True)
        if not _blank(c)
    ]
    return f"{row.items[0].strip()}：{'，'.join(cells)}。"


def _is_value_column(rows: list[Fact], column: int) -> bool:
    """Short values without bounds or clauses in every row: what a lookup can offer as options."""
    cells = [r.items[column].strip() for r in rows if not _blank(r.items[column])]
    return all(len(c) <= _VALUE_MAX and not bounds(c) and not re.search(r"[，,；;]", c) for c in cells)


@dataclass(frozen=True)
class _Lookup:
    """A row's value to ask: its column, what places the row, and the other rows' values."""

    column: int
    conditions: list[tuple[int, str]]
    target: str
    right: str
    others: list[tuple[str, Fact]]  # value as shown, the row it belongs to
    what: str = ""  # the value a column named by a period gives


# How a cell is written: a formula, a manner ("按件"), a figure or a name. Options of one question share one
# form, or the odd one is eliminated at sight ("按件" and "成交价÷1.03" beside "增值额").
_FORMULA = re.compile(r"[÷×=＝+＋−*]")


def _form(cell: str) -> str:
    if _FORMULA.search(cell) and not _BARE_NUMBER.fullmatch(cell.strip()):
        return "formula"
    if cell.startswith(("按", "以", "依")):
        return "manner"
    return "figure" if _BARE_NUMBER.search(cell) else "name"


def _leaks(cell: str, shown: list[str]) -> bool:
    """Whether the stem's words already give the value away: "土地增值税的计税依据" asks "增值额",
    "自己购买或者承租…的行为" asks "自买自租"."""
    said = "".join(shown)
    pairs = [cell[i : i + 2] for i in range(len(cell) - 1)]
    return O.gives_away(cell, said) or any(pair in said for pair in pairs if not _BARE_NUMBER.search(pair))


def _lookup(row: Fact, rows: list[Fact], rng: random.Random, what: str = "") -> _Lookup | None:
    """The last value column whose short cells differ between rows and whose row its conditions place
    unambiguously; None when the table has no such column or fewer than two other values."""
    for column in range(len(row.header) - 1, 0, -1):
        cell = row.items[column]
        if _blank(cell) or not _is_value_column(rows, column) or row.header[column].startswith(_YES_NO):
            continue
        conditions = _conditions(row, column)
        shown = [O.key(row.items[i]) for i, _ in conditions]
        if not conditions or any([O.key(r.items[i]) for i, _ in conditions] == shown for r in rows[1:]):
            continue
        target, unit = _target(row.header[column], what), _column(row.header[column])[1]
        if not target:
            continue
        if _leaks(cell, [row.items[i] for i, _ in conditions]):
            continue
        seen = {O.key(cell)}
        others = []
        for other in rng.sample(rows[1:], len(rows) - 1):
            value = other.items[column]
            if not _blank(value) and O.key(value) not in seen and _form(value) == _form(cell):
                seen.add(O.key(value))
                others.append((_value(value, unit), other))
        if len(others) >= 2:
            return _Lookup(column, conditions, target, _value(cell, unit), others[:3], what)
    return None


class Table:
    name = "table"
    kinds: tuple[FactKind, ...] = ("table_row",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if fact.kind != "table_row" or len(fact.header) < 2 or len(fact.items) != len(fact.header):
            return None
        rows = self._rows(fact, brief)
        if len(rows) < 3 or _declined(fact.header, rows):
            return None
        if brief.task.qtype == "multi":
            return self._situations(fact, rows, brief) if brief.task.mode == "flexible" else None
        flexible = brief.task.mode == "flexible"
        builders = [self._case_lookup] if flexible else [self._lookup, self._recognition]
        brief.rng.shuffle(builders)
        for build in builders:
            written = build(fact, rows, brief)
            if written is not None:
                return written
        return self._situations(fact, rows, brief) if brief.task.mode == "flexible" else None

    def _rows(self, fact: Fact, brief: Brief) -> list[Fact]:
        """This row first, then the other rows of its table: the same columns in its slice, its related
        rows, or the chapter (a table the textbook split over two knowledge points)."""
        same = [
            f
            for f in O.nearby(fact, brief, "table_row")
            if f.header == fact.header and len(f.items) == len(f.header)
        ]
        return [fact, *same]

    # -- lookup: conditions given, a value asked -------------------------------------------------------

    def _lookup(self, fact: Fact, rows: list[Fact], brief: Brief, situation: str = "") -> Written | None:
        asked = _lookup(fact, rows, brief.rng, what_of(fact, brief))
        if asked is None:
            return None
        if situation:
            stem = f"{situation}其适用的{asked.target}为（　）。"
        else:
            stem = self._lookup_stem(fact, asked, brief)
        if O.in_stem(stem, [asked.right]):
            return None
        if brief.task.qtype == "judge":
            return self._lookup_judge(fact, asked, stem, brief, situation)
        if len(asked.others) < 3:
            return None  # a single choice has four options, as the field's papers print it
        choices = [
            O.Option(asked.right, True, f"“{asked.right}”正是{_placed(fact, asked.column, asked.what)}")
        ]
        choices += [
            O.Option(value, False, f"“{value}”是{_placed(other, asked.column, asked.what)}")
            for value, other in asked.others
        ]
        numeric = all(O.number_of(c.text) is not None for c in choices)
        return O.choice(
            [fact.id],
            "single",
            stem,
            O.arrange(choices, brief.rng, numeric=numeric),
            [fact.source, *(other.source for _, other in asked.others)],
            basis=[_row_text(fact), *(_row_text(other) for _, other in asked.others)],
            difficulty=0.55 if situation else 0.4,
        )

    def _lookup_stem(self, fact: Fact, asked: _Lookup, brief: Brief) -> str:
        topic = O.topic(fact, brief)
        lead = f"关于{topic}，" if topic and len(asked.target) <= 2 else ""
        shown = [c for _, c in asked.conditions]
        if asked.target.endswith(_NAMING):
            # "…的行为名称为" is machine wording: a name is asked as what the case belongs to.
            kind = asked.target.removesuffix(_NAMING)
            return (
                f"{lead}{'，'.join(shown)}的{kind}属于（　）。"
                if kind
                else f"{lead}{'，'.join(shown)}，属于（　）。"
            )
        if len(shown) == 1:
            return f"{lead}{shown[0]}的{asked.target}为（　）。"
        return f"{lead}{'，'.join(shown)}的，{asked.target}为（　）。"

    def _lookup_judge(self, fact: Fact, asked: _Lookup, stem: str, brief: Brief, situation: str) -> Written:
        truth = brief.rng.random() < 0.5
        value, other = (asked.right, fact) if truth else asked.others[0]
        analysis = f"{_placed(fact, asked.column, asked.what)}为{asked.right}"
        analysis += (
            "，题干表述正确。" if truth else f"；{value}是{_placed(other, asked.column, asked.what)}。"
        )
        rows = [fact] if truth else [fact, other]
        judged = stem.replace("（　）。", f"{value}。（　）")
        return O.judge(
            [fact.id],
            judged,
            truth,
            analysis,
            [r.source for r in rows],
            basis=[_row_text(r) for r in rows],
            difficulty=0.45 if situation else 0.3,
        )

    def _case_lookup(self, fact: Fact, rows: list[Fact], brief: Brief) -> Written | None:
        """The row's conditions with a concrete figure in place of its bound, when the figure falls in
        this row alone, told as a client's situation."""
        asked = _lookup(fact, rows, brief.rng, what_of(fact, brief))
        bounded = [(i, c) for i, c in asked.conditions if i and bounds(c)] if asked else []
        if asked is None or not bounded:
            return None
        index, shown = bounded[0]
        bound = bounds(shown)[0]
        value = case_value(bound, meets=True, rng=brief.rng)
        if value is None:
            return None
        for other in rows[1:]:
            rest = all(
                O.key(other.items[i]) == O.key(fact.items[i]) for i, _ in asked.conditions if i != index
            )
            theirs = bounds(other.items[index])
            if rest and (not theirs or any(b.unit == bound.unit and b.contains(value) for b in theirs)):
                return None
        case = "，".join(concrete(shown, bound, value) if i == index else c for i, c in asked.conditions)
        return self._lookup(fact, rows, brief, situation=f"{scenes.person(brief.rng)}的情况为：{case}。")

    def _cases(self, row: Fact, rows: list[Fact], asked: _Lookup) -> list[str]:
        """The row's conditions with a concrete figure in place of its bound that no row of the same other
        conditions covers ("首套，建筑面积120㎡"), or as written when none is bounded."""
        conditions = _conditions(row, asked.column)
        bounded = [(i, c) for i, c in conditions if i and bounds(c)]
        if not bounded:
            return ["，".join(c for _, c in conditions)]
        index, shown = bounded[0]
        if len(bounds(shown)) != 1:
            return []  # "90平方米以上、140平方米及以下" would keep one bound beside the case's figure
        bound = bounds(shown)[0]
        rivals = [
            b
            for other in rows
            if other is not row
            and all(O.key(other.items[i]) == O.key(row.items[i]) for i, _ in conditions if i != index)
            for b in bounds(other.items[index])
            if b.unit == bound.unit
        ]
        return [
            "，".join(concrete(shown, bound, value) if i == index else c for i, c in conditions)
            for value in case_values(bound, True)
            if not any(b.contains(value) for b in rivals)
        ]

    def _situations(self, fact: Fact, rows: list[Fact], brief: Brief) -> Written | None:
        """People whose cases fall in this row and in other rows, asked which get this row's value: every row
        with the same value is right ("首套，建筑面积120㎡" and "第二套，建筑面积100㎡" both pay 1%). Each row
        is told once, as two cases of one row test the same thing; each case is a person's, as a case
        question is about people, not about the table's rows."""
        rng = brief.rng
        asked = _lookup(fact, rows, rng, what_of(fact, brief))
        if asked is None or not any(i and bounds(c) for i, c in asked.conditions):
            return None  # rows told apart by their labels alone are categories, not cases
        unit = _column(fact.header[asked.column])[1]
        right_key = O.key(fact.items[asked.column])
        right, wrong = [], []
        for row in rows:
            cases = self._cases(row, rows, asked)
            if cases and O.key(row.items[asked.column]) == right_key:
                right.append((rng.choice(cases), row))
            elif cases and not _blank(row.items[asked.column]):
                wrong.append((cases[0], row))
        if brief.task.qtype == "multi":
            mixed = multi_answers(right, wrong, rng)
            if mixed is None:
                return None
            picked = [(*case, correct) for case, correct in mixed]
        else:
            own = [case for case, row in right if row is fact]
            if not own or len(wrong) < 3:
                return None
            picked = [(rng.choice(own), fact, True), *((*case, False) for case in rng.sample(wrong, 3))]
        if len({O.key(case) for case, _, _ in picked}) < len(picked):
            return None
        choices, taken = [], set()
        for case, row, correct in picked:
            name = scenes.plain_name(rng, taken)
            taken.add(name)
            value = _value(row.items[asked.column], unit)
            why = f"属于“{_situation(row, asked.column)}”的情形，{asked.target}为{value}"
            choices.append(O.Option(f"{name}的情况为：{case}", correct, why))
        when = O.case_date(rng, fact.source)
        ending = "有" if brief.task.qtype == "multi" else "是"
        stem = f"{when}，下列人员中，适用的{asked.target}为{asked.right}的{ending}（　）。"
        return O.choice(
            [fact.id],
            brief.task.qtype,
            stem,
            O.arrange(choices, rng),
            [row.source for _, row, _ in picked],
            basis=[_row_text(row) for row in dict.fromkeys(row for _, row, _ in picked)],
            difficulty=0.55,
        )

    # -- recognition: a description given, the row's label asked --------------------------------------

    def _description(self, fact: Fact, rows: list[Fact]) -> int | None:
        """The descriptive column that tells the rows apart: text rather than a figure, different per row."""
        best = None
        for index in range(1, len(fact.header)):
            cell = fact.items[index]
            if fact.header[index].startswith(_YES_NO):
                continue  # "是否纳入监管为…" reads as a machine's key and value, not as a description
            if _blank(cell) or bounds(cell) or len(cell) < _DESCRIPTION_MIN or _BARE_NUMBER.search(cell):
                continue  # a cell with figures ("1%（北上广深3%）") is a value of the row, not a description
            if any(O.key(r.items[index]) == O.key(cell) for r in rows[1:]):
                continue
            if best is None or len(cell) > len(fact.items[best]):
                best = index
        return best

    @staticmethod
    def _said_otherwise(cell: str, other: str) -> bool:
        """Whether two descriptions differ only in a short head after one qualifier (see `_QUALIFIER_MIN`)."""
        a, b = O.key(cell), O.key(other)
        opening = O.shared_opening(a, b)
        return opening >= _QUALIFIER_MIN and max(len(a), len(b)) - opening <= _HEAD_MAX

    def _recognition_stem(self, fact: Fact, description: str) -> str:
        """The description and the name of what the rows are ("…的登记类型是"); "" when the first column
        names a way of dividing rather than a kind ("按房屋的用途分类划分", "按税种划分"): a stem pasted
        from such a header reads as the table, not as a question."""
        first = fact.header[0].strip()
        if first in _GENERIC_LABELS:
            return f"{description}，属于（　）。"
        if first.startswith("按") or first.endswith(_DIVIDING):
            return ""
        return f"{description}的{first}是（　）。"

    def _recognition(
        self, fact: Fact, rows: list[Fact], brief: Brief, stem: str = "", column: int | None = None
    ) -> Written | None:
        column = self._description(fact, rows) if column is None else column
        if column is None:
            return None
        description = fact.items[column].strip().rstrip("。；;")
        header = _column(fact.header[column])[0]
        if header not in _VAGUE_COLUMNS and len(description) <= _VALUE_MAX and "，" not in description:
            description = f"{header}为{description}"
        stem = stem or self._recognition_stem(fact, description)
        if not stem:
            return None
        label = fact.items[0].strip()
        if len(label) > _LABEL_MAX or O.gives_away(label, stem):
            return None
        others = {
            O.key(r.items[0]): r
            for r in rows[1:]
            if len(r.items[0].strip()) <= _LABEL_MAX
            and not O.gives_away(r.items[0].strip(), stem)
            and not self._said_otherwise(fact.items[column], r.items[column])
        }
        others.pop(O.key(label), None)
        picked = brief.rng.sample(list(others.values()), min(3, len(others)))
        if len(picked) < (2 if brief.task.qtype == "judge" else 3):
            return None  # a single choice has four options, as the field's papers print it

        def why(row: Fact) -> str:
            return f"“{row.items[0].strip()}”的{header}是{row.items[column].strip()}"

        if brief.task.qtype == "judge":
            truth = brief.rng.random() < 0.5
            shown = fact if truth else picked[0]
            analysis = f"{why(fact)}，题干表述正确。" if truth else f"{why(fact)}；{why(shown)}。"
            judged = stem.replace("（　）。", f"{shown.items[0].strip()}。（　）")
            rows = list(dict.fromkeys([fact, shown]))
            sources, basis = [r.source for r in rows], [_row_text(r) for r in rows]
            return O.judge([fact.id], judged, truth, analysis, sources, basis=basis, difficulty=0.35)
        choices = [O.Option(label, True, why(fact))]
        choices += [O.Option(row.items[0].strip(), False, why(row)) for row in picked]
        return O.choice(
            [fact.id],
            "single",
            stem,
            O.arrange(choices, brief.rng),
            [fact.source, *(row.source for row in picked)],
            basis=[_row_text(row) for row in [fact, *picked]],
            difficulty=0.45,
        )


RECIPE = Table()
