"""The author's difficulty estimate, read off the finished question instead of set by hand per recipe.

A recipe knows how it tells a fact but not how the telling came out: how many keys a multiple choice got,
how close its figures fell, whether the case sits on a threshold. The estimate is measured here, on every
draft the offline author writes (and on the model author's drafts), so the 易 / 中 / 难 bands of
vocabulary.kinds can be aimed at by choosing among candidates.

The scale is the one progress.difficulty corrects with learners' answers: 0–1, the share of learners
expected to get the question wrong on first meeting it; ≤ 0.3 is 易, > 0.6 is 难. It starts from the
question's shape, where blind guessing sets the floor:

- 判断 0.20 (half are right by guessing); a plain statement — 严谨, no figure in it — 0.15;
- 单选 0.35 (four options); a plain question — 严谨, no figure in its stem — 0.25, the usual share for
  recalling one textbook sentence among four;
- 多选 0.50 with two keys, 0.10 more for each further key: every key must be found and the one wrong
  option left out, and a missed key loses the whole question.

Then each measurable demand the question makes catches a share of the learners who would still have got
it right (so demands compound without passing 1, and the fifth adds less than the first):

- 15 % a 灵活 question: a case the learner has to map to the rule before applying it;
- 20 % a calculation, 5 % more for each step after the first (an "=" in the analysis, at most 10 %), and
  5 % for each condition read from the case that chooses the rule or rate (an argument of the calculator
  that is not a figure: 首套 or not, 核心区 or not; at most 10 %);
- 15 % numeric distractors within 5 % of the key (8 % within 15 %): they cannot be told apart by a rough
  estimate, only by the exact rule;
- 10 % distractors that are each the result of a named mistake (the analysis says which: 误按首套税率,
  以含税价计税 …, for at least two of them): a learner who slips on the rule finds their answer offered;
- 15 % a figure of the case within 10 % of a threshold of the facts asked (an area near 90 ㎡, a price
  near a cap), or a period between two dates of the case within three months of a threshold in years (a
  sale just before or after 满二/满五): the case has to be read to the month;
- 8 % a negatively worded stem (不正确 / 不属于 / 不得 …), which readers misread;
- 15 % a case sub-question: the situation is read first and held while answering.

So a 2-key 多选 asked plainly is 中 (0.50) and a 4-key one 难 (0.70); a 单选 calculation told as a case
with its rate chosen by the case's area and close distractors is 难 (about 0.7); a 判断 stays 中 at most
unless several demands meet, since guessing alone gets half of them right. The result is kept within
0.05–0.95.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph.schemas import Draft
from retrieval.facts import Fact, FactBase
from vocabulary.kinds import Mode, QuestionType
from vocabulary.records import Calculation

_BASE = {"judge": 0.2, "single": 0.35, "multi": 0.5}
PLAIN_JUDGE = 0.15
PLAIN_SINGLE = 0.25
PER_EXTRA_KEY = 0.1
# Shares of the learners still right that each demand catches.
FLEXIBLE = 0.15
CALCULATION = 0.2
PER_STEP = PER_CONDITION = 0.05
AT_MOST_STEPS = AT_MOST_CONDITIONS = 0.1
CLOSE_DISTRACTOR, NEAR_DISTRACTOR = 0.15, 0.08
CLOSE_GAP, NEAR_GAP = 0.05, 0.15
NEAR_THRESHOLD = 0.15
THRESHOLD_GAP = 0.1
PERIOD_MONTHS = 3
NEGATIVE = 0.08
NAMED_MISTAKES = 0.1
CASE = 0.15
FLOOR, CEILING = 0.05, 0.95

_FIGURE = re.compile(r"^\s*(\d[\d,]*(?:\.\d+)?)\s*(万元|元|%|平方米|㎡|年|个月|月|倍)?\s*$")
_IN_TEXT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(万元|元|%|平方米|㎡|年(?!\d)|个月|日|天)")
_DATE = re.compile(r"((?:19|20)\d{2})年(?:(\d{1,2})月)?")
# "选项A（52,500元）是误按…计算的结果": the analysis tells which mistake leads to a distractor.
_MISTAKE = re.compile(r"选项[A-L]（[^）]*）是[^。；]*?结果")
_NEGATIVE = re.compile(r"不正确|错误的是|不属于|不包括|不符合|不得|不应|不能|不可以|无需")
_SAME_UNIT = {"㎡": "平方米", "个月": "月"}


def estimate(
    draft: Draft,
    qtype: QuestionType,
    mode: Mode,
    *,
    calculation: Calculation | None = None,
    facts: Iterable[Fact] = (),
    case: str = "",
) -> float:
    """`facts`: those the question asks and their slices' thresholds (for a case near one); `case`: the
    situation of a case sub-question. See the module docstring for the scale."""
    facts = list(facts)
    figures = _figures_in(draft.stem + case)
    demands = [
        FLEXIBLE if mode == "flexible" else 0.0,
        _distractors(draft),
        NEAR_THRESHOLD if _near_threshold(draft.stem + case, figures, facts) else 0.0,
        NEGATIVE if qtype != "judge" and _NEGATIVE.search(draft.stem) else 0.0,
        CASE if case else 0.0,
        NAMED_MISTAKES if len(_MISTAKE.findall(draft.explanation)) >= 2 else 0.0,
    ]
    if calculation is not None:
        demands += [CALCULATION, *_calculation_demands(draft.explanation, calculation)]
    right = 1 - _base(draft, qtype, mode, calculation is not None or bool(figures) or bool(case))
    for share in demands:
        right *= 1 - share
    return round(min(max(1 - right, FLOOR), CEILING), 2)


def rated(
    draft: Draft,
    qtype: QuestionType,
    mode: Mode,
    facts: FactBase,
    slice_ids: Iterable[str],
    *,
    asked: Iterable[str] = (),
    calculation: Calculation | None = None,
) -> Draft:
    """The draft with its difficulty estimated: `asked` are the ids of the facts the question asks, and
    the thresholds of `slice_ids` are those its case may sit near."""
    near = [*(facts.by_id[i] for i in asked if i in facts.by_id)]
    near += [fact for slice_id in dict.fromkeys(slice_ids) for fact in facts.of_slice(slice_id, "threshold")]
    value = estimate(draft, qtype, mode, calculation=calculation, facts=near)
    return draft.model_copy(update={"difficulty": value})


def _base(draft: Draft, qtype: QuestionType, mode: Mode, figured: bool) -> float:
    plain = mode == "strict" and not figured
    if qtype == "judge":
        return PLAIN_JUDGE if plain else _BASE["judge"]
    if qtype == "single" and plain:
        return PLAIN_SINGLE
    keys = len({letter for letter in draft.answer if letter.isalpha()})
    if qtype == "multi":
        return _BASE["multi"] + PER_EXTRA_KEY * max(keys - 2, 0)
    return _BASE[qtype]


def _calculation_demands(explanation: str, calculation: Calculation) -> tuple[float, float]:
    """Steps after the first, and conditions of the case that choose the rule."""
    steps = explanation.count("=")
    conditions = sum(isinstance(arg, bool | str) for arg in calculation.args.values())
    return min(PER_STEP * max(steps - 1, 0), AT_MOST_STEPS), min(
        PER_CONDITION * conditions, AT_MOST_CONDITIONS
    )


def _figure(text: str) -> tuple[float, str] | None:
    found = _FIGURE.match(text)
    if found is None:
        return None
    unit = found.group(2) or ""
    return float(found.group(1).replace(",", "")), _SAME_UNIT.get(unit, unit)


def _distractors(draft: Draft) -> float:
    """How close the nearest wrong figure is to a keyed one, relative to the key; nothing for options
    that are not all figures."""
    figures = [_figure(option) for option in draft.options]
    if len(figures) < 3 or any(f is None for f in figures):
        return 0.0
    keyed = {ord(letter) - 65 for letter in draft.answer if letter.isalpha()}
    gaps = [
        abs(other[0] - key[0]) / abs(key[0])
        for k, key in enumerate(figures)
        if k in keyed and key[0]
        for o, other in enumerate(figures)
        if o not in keyed and other[1] == key[1]
    ]
    if not gaps:
        return 0.0
    closest = min(gaps)
    return CLOSE_DISTRACTOR if closest <= CLOSE_GAP else NEAR_DISTRACTOR if closest <= NEAR_GAP else 0.0


def _figures_in(text: str) -> list[tuple[float, str]]:
    return [
        (float(number.replace(",", "")), _SAME_UNIT.get(unit, unit))
        for number, unit in _IN_TEXT.findall(text)
    ]


def _near_threshold(text: str, figures: list[tuple[float, str]], facts: list[Fact]) -> bool:
    thresholds = [
        (f.value, _SAME_UNIT.get(f.unit, f.unit)) for f in facts if f.kind == "threshold" and f.value
    ]
    for limit, unit in thresholds:
        told = [(v, u) for v, u in figures if u != "年" or v < 100]  # 2009年 is a date, not a period
        if any(u == unit and abs(v - limit) <= THRESHOLD_GAP * limit for v, u in told):
            return True
        if unit == "年" and any(abs(months - limit * 12) <= PERIOD_MONTHS for months in _periods(text, told)):
            return True
    return False


def _periods(text: str, told: list[tuple[float, str]]) -> list[float]:
    """Months between every two dated events of the case (a year alone is taken as its middle), and the
    periods told in months."""
    months = [int(year) * 12 + (int(month) if month else 6) for year, month in _DATE.findall(text)]
    spans = [abs(b - a) for i, a in enumerate(months) for b in months[i + 1 :]]
    return [*spans, *(v for v, u in told if u == "月")]
