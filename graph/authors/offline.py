"""The embedded author: deterministic questions from the knowledge base's own rules, parameters and
worked calculations — no model, no network — so a fresh clone produces verifiable questions.

Same seed and slice, same question; the router bumps the seed on a reroute to get a different one.
"""

from __future__ import annotations

import random
import re
from typing import Any

import calc
from calc.labels import final_figure
from graph.authors import phrases as P
from graph.authors.base import Authored, AuthorError, CalcChoice, Choice, Review, Task
from graph.authors.calc_text import calc_mistakes, describe_facts, describe_value, number_variants
from graph.authors.falsify import Falsified, falsifications, falsify
from graph.format import (
    JUDGE_OPTIONS,
    LETTERS,
    OPTION_LIMIT,
    compose_explanation,
    short_explanation,
    with_blank,
)
from graph.schemas import Calculation, Draft, Question, VerificationReport
from retrieval.models import PATH_SEPARATOR, KeyParam, Slice

_ORDINAL = re.compile(r"^(第[一二三四五六七八九十百]+[篇章节]|[一二三四五六七八九十]+、|\d+[.、])\s*")


def topic_of(level: str) -> str:
    return _ORDINAL.sub("", level).strip() or level


def _sentence(text: str) -> str:
    return text.strip().rstrip("。；;")


def statements(slice_: Slice) -> list[str]:
    """The slice's checkable facts as sentences short enough to be options."""
    found = [_sentence(rule) for rule in slice_.rules]
    for param in slice_.key_params:
        if is_example_figure(param):
            continue
        found.append(f"{param.name}为{describe_param(param.value, param.unit)}")
    return [s for s in dict.fromkeys(found) if s and len(s) <= OPTION_LIMIT]


def is_example_figure(param: KeyParam) -> bool:
    """A worked example's figure ("示例…") is not a textbook rule: asked alone it cannot be answered."""
    return param.name.startswith(("示例", "例："))


def describe_param(value: float | str, unit: str) -> str:
    if isinstance(value, str):
        return value
    if unit in ("比例", "税率", "利率", "比率"):
        return f"{value * 100:g}%"  # stored as a fraction
    if unit in ("%", "％"):
        return f"{value:g}%"
    return f"{value:g}{unit}"


class OfflineAuthor:
    name = "offline"

    def _rng(self, task: Task, purpose: str) -> random.Random:
        return random.Random(f"{task.seed}|{task.slice.id}|{task.qtype}|{task.mode}|{purpose}")

    def _person(self, rng: random.Random) -> str:
        return rng.choice(P.PERSONS)

    async def draft(self, task: Task) -> Authored:
        rng = self._rng(task, "draft")
        builders = {"judge": self._judge, "single": self._single, "multi": self._multi}
        draft = builders[task.qtype](task, rng)
        return Authored(draft=draft, qtype=task.qtype)

    def _basis(self, source: Slice | str, facts: list[str]) -> str:
        """Cite where the facts come from: the slice, or the section or chapter a widened pool spans."""
        path = source.path_text if isinstance(source, Slice) else source
        return P.BASIS.format(path=path, facts="；".join(facts[:3]) + "。")

    def _judge(self, task: Task, rng: random.Random) -> Draft:
        pool = statements(task.slice)
        if not pool:
            raise AuthorError(f"知识点“{task.slice.title}”没有可用于命题的规则或参数")
        statement = rng.choice(pool)
        wrong = falsify(statement, rng) if rng.random() < 0.5 else None
        shown = wrong.text if wrong else statement
        topic = topic_of(task.slice.title)
        if task.mode == "flexible":
            stem = P.JUDGE_FLEXIBLE.format(person=self._person(rng), topic=topic, statement=shown + "。")
        else:
            stem = P.JUDGE_STRICT.format(statement=shown)
        analysis = (
            P.ANALYSIS_FALSE_STATEMENT.format(original=wrong.original, altered=wrong.altered)
            if wrong
            else P.ANALYSIS_TRUE_STATEMENT
        )
        letter, verdict = ("B", P.VERDICT_FALSE) if wrong else ("A", P.VERDICT_TRUE)
        explanation = compose_explanation(
            self._basis(task.slice, [statement]),
            analysis,
            P.CONCLUSION_JUDGE.format(verdict=verdict, letter=letter),
        )
        return Draft(
            stem=stem, options=list(JUDGE_OPTIONS), answer=letter, explanation=explanation, difficulty=0.3
        )

    def _pools(self, task: Task) -> list[tuple[list[str], str, str]]:
        """Statement pools to build a choice question from, each with its topic and the path it spans: the
        slice alone, then widened to its section and then its chapter when one slice is too thin."""
        pools = [(statements(task.slice), topic_of(task.slice.title), task.slice.path_text)]
        for depth in (3, 2):
            if len(task.slice.path) <= depth:
                continue
            widened = list(pools[0][0])
            for other in task.neighbours:
                if other.path[:depth] == task.slice.path[:depth]:
                    widened += [s for s in statements(other) if s not in widened]
            spanned = PATH_SEPARATOR.join(task.slice.path[:depth])
            pools.append((widened, topic_of(task.slice.path[depth - 1]), spanned))
        return pools

    def _false_options(
        self, pool: list[str], shown_true: list[str], count: int, rng: random.Random
    ) -> list[Falsified]:
        """Distractors: falsified statements, one per source statement while there are enough, preferring
        sources not shown as true options (a true option beside its own negation gives the answer away)."""
        avoid = set(pool)
        variants_by_source = []
        for statement in pool:
            variants = [
                f for f in falsifications(statement) if f.text not in avoid and len(f.text) <= OPTION_LIMIT
            ]
            rng.shuffle(variants)
            if variants:
                variants_by_source.append((statement in shown_true, variants))
        rng.shuffle(variants_by_source)
        variants_by_source.sort(key=lambda item: item[0])  # stable: sources not shown as true come first
        ordered = [variants[0] for _, variants in variants_by_source]
        ordered += [extra for _, variants in variants_by_source for extra in variants[1:]]
        return ordered[:count]

    def _pick_statements(
        self, task: Task, rng: random.Random, true_count: int, false_count: int
    ) -> tuple[list[str], list[Falsified], str, str] | None:
        """True and false statements for the options: from the narrowest pool that needs no true option beside
        its own negation; failing that, the narrowest pool that has enough of both."""
        fallback = None
        for pool, topic, spanned in self._pools(task):
            if len(pool) <= true_count:
                continue
            truths = rng.sample(pool, true_count)
            falses = self._false_options(pool, truths, false_count, rng)
            if len(falses) < false_count:
                continue
            negated = {f.source for f in falses}
            if not negated & set(truths):
                return truths, falses, topic, spanned
            fallback = fallback or (truths, falses, topic, spanned)
        return fallback

    def _choice(
        self, task: Task, rng: random.Random, true_count: int, option_count: int, frame: str
    ) -> Draft:
        picked = self._pick_statements(task, rng, true_count, option_count - true_count)
        if picked is None:
            raise AuthorError(f"知识点“{task.slice.title}”及相邻知识点的规则不足以构成{option_count}个选项")
        truths, falses, topic, spanned = picked
        entries: list[tuple[str, Falsified | None]] = [(t, None) for t in truths] + [
            (f.text, f) for f in falses
        ]
        rng.shuffle(entries)
        letters = LETTERS[: len(entries)]
        picked_true = frame != "false"
        answer = "".join(
            letter
            for letter, (_, wrong) in zip(letters, entries, strict=True)
            if (wrong is None) == picked_true
        )
        notes = [
            P.ANALYSIS_OPTION_FALSE.format(letter=letter, original=wrong.original, altered=wrong.altered)
            if wrong
            else P.ANALYSIS_OPTION_TRUE.format(letter=letter)
            for letter, (_, wrong) in zip(letters, entries, strict=True)
        ]
        flexible = task.mode == "flexible"
        template = {
            ("true", False): P.CHOICE_TRUE_STRICT,
            ("false", False): P.CHOICE_FALSE_STRICT,
            ("multi", False): P.CHOICE_MULTI_STRICT,
            ("true", True): P.CHOICE_TRUE_FLEXIBLE,
            ("false", True): P.CHOICE_FALSE_FLEXIBLE,
            ("multi", True): P.CHOICE_MULTI_FLEXIBLE,
        }[(frame, flexible)]
        stem = template.format(topic=topic, person=self._person(rng))
        explanation = compose_explanation(
            self._basis(spanned, truths),
            "；".join(notes) + "。",
            P.CONCLUSION_CHOICE.format(letters=answer),
        )
        difficulty = 0.6 if frame == "multi" else 0.45
        return Draft(
            stem=stem,
            options=[text for text, _ in entries],
            answer=answer,
            explanation=explanation,
            difficulty=difficulty + (0.1 if flexible else 0),
        )

    def _param(self, task: Task, rng: random.Random) -> Draft | None:
        numeric = [
            p
            for p in task.slice.key_params
            if isinstance(p.value, int | float) and p.value > 0 and not is_example_figure(p)
        ]
        if not numeric:
            return None
        param = rng.choice(numeric)
        right = describe_param(param.value, param.unit)
        variants = [describe_param(v, param.unit) for v in number_variants(float(param.value))]
        wrong = [v for v in dict.fromkeys(variants) if v != right][:3]
        if len(wrong) < 3:
            return None
        entries = [right, *wrong]
        rng.shuffle(entries)
        letter = LETTERS[entries.index(right)]
        topic = topic_of(task.slice.title)
        frame = P.PARAM_FLEXIBLE if task.mode == "flexible" else P.PARAM_STRICT
        stem = frame.format(topic=topic, name=param.name, person=self._person(rng))
        explanation = compose_explanation(
            self._basis(task.slice, [f"{param.name}为{right}"]),
            P.ANALYSIS_PARAM.format(name=param.name, value=right),
            P.CONCLUSION_CHOICE.format(letters=letter),
        )
        return Draft(stem=stem, options=entries, answer=letter, explanation=explanation, difficulty=0.4)

    def _single(self, task: Task, rng: random.Random) -> Draft:
        roll = rng.random()
        if roll < 0.25:
            by_param = self._param(task, rng)
            if by_param is not None:
                return by_param
        frame = "false" if roll > 0.7 else "true"
        if frame == "false":
            try:
                return self._choice(task, rng, 3, 4, "false")
            except AuthorError:
                pass
        return self._choice(task, rng, 1, 4, "true")

    def _multi(self, task: Task, rng: random.Random) -> Draft:
        option_count = 5 if rng.random() < 0.4 else 4
        true_count = rng.choice([2, 3])
        try:
            return self._choice(task, rng, true_count, option_count, "multi")
        except AuthorError:
            return self._choice(task, rng, 2, 4, "multi")

    async def choose_calculation(self, task: Task, candidates: list[str]) -> Choice:
        examples = [e for e in task.slice.calc_examples if e.calculator in candidates]
        if not examples:
            return Choice(choice=None)
        rng = self._rng(task, "calc")
        example = rng.choice(examples)
        args = dict(example.args)
        if task.mode == "flexible" or task.attempt > 0:
            args = _vary_amounts(args, rng)
        return Choice(choice=CalcChoice(calculator=example.calculator, args=args))

    async def draft_calculation(self, task: Task, choice: CalcChoice, result: dict[str, Any]) -> Authored:
        rng = self._rng(task, "calc-draft")
        field = _target_field(task.slice, choice, result)
        value = float(result[field])
        facts = describe_facts(choice.calculator, choice.args)
        target = describe_value(choice.calculator, field, None)
        right = describe_value(choice.calculator, field, value)
        mistakes = [
            (describe_value(choice.calculator, field, wrong_value), label)
            for wrong_value, label in calc_mistakes(value, choice, field)
        ]
        mistakes = [(text, label) for text, label in dict(mistakes).items() if text != right]
        topic = topic_of(task.slice.title)
        formula = _formula_for(task.slice, target)
        steps = facts
        calculation = Calculation(calculator=choice.calculator, args=choice.args, field=field, value=value)
        if task.qtype == "judge" or len(mistakes) < 3:
            if task.qtype != "judge":
                raise AuthorError(f"计算器{choice.calculator}的结果无法构造足够的干扰项")
            wrong_text, wrong_label = mistakes[0] if mistakes and rng.random() < 0.5 else (None, None)
            shown = wrong_text or right
            stem = P.CALC_JUDGE.format(facts=facts, target=target, value=shown)
            letter, verdict = ("B", P.VERDICT_FALSE) if wrong_text else ("A", P.VERDICT_TRUE)
            analysis = (
                P.ANALYSIS_CALC_JUDGE_WRONG.format(
                    formula=formula,
                    steps=steps,
                    target=target,
                    value=right,
                    shown=wrong_text,
                    mistake=wrong_label,
                )
                if wrong_text
                else P.ANALYSIS_CALC_JUDGE_RIGHT.format(
                    formula=formula, steps=steps, target=target, value=right
                )
            )
            explanation = compose_explanation(
                self._basis(task.slice, list(task.slice.formulas[:1]) or [topic]),
                analysis,
                P.CONCLUSION_JUDGE.format(verdict=verdict, letter=letter),
            )
            draft = Draft(
                stem=stem, options=list(JUDGE_OPTIONS), answer=letter, explanation=explanation, difficulty=0.5
            )
            return Authored(draft=draft, qtype="judge", calculation=calculation)
        picked = mistakes[:3]  # misread arguments come first: they are the mistakes examinees really make
        entries = [(right, None), *picked]
        rng.shuffle(entries)
        letter = LETTERS[[text for text, _ in entries].index(right)]
        notes = "，".join(
            P.ANALYSIS_CALC_MISTAKE.format(letter=LETTERS[i], mistake=label)
            for i, (_, label) in enumerate(entries)
            if label
        )
        frame = P.CALC_FLEXIBLE if task.mode == "flexible" else P.CALC_STRICT
        stem = frame.format(facts=facts, topic=topic, target=target, person=self._person(rng))
        explanation = compose_explanation(
            self._basis(task.slice, list(task.slice.formulas[:1]) or [topic]),
            P.ANALYSIS_CALC.format(formula=formula, steps=steps, target=target, value=right, mistakes=notes),
            P.CONCLUSION_CHOICE.format(letters=letter),
        )
        draft = Draft(
            stem=stem,
            options=[text for text, _ in entries],
            answer=letter,
            explanation=explanation,
            difficulty=0.6 if task.mode == "flexible" else 0.5,
        )
        return Authored(draft=draft, qtype="single", calculation=calculation)

    async def fix(self, task: Task, question: Question, report: VerificationReport) -> Authored | None:
        """Repairs what is mechanical (blank, judge options, duplicate or empty distractors, explanation fit);
        anything that needs judgement — a human's complaint, a wrong fact — is left for a reroute."""
        if any(issue.source == "human" for issue in report.issues):
            return None
        options = list(question.options)
        answer = list(question.answer)
        if question.qtype == "judge":
            options = list(JUDGE_OPTIONS)
        else:
            keep: list[int] = []
            for index, option in enumerate(options):
                text = option.strip()
                duplicate = any(options[k].strip() == text for k in keep)
                if (text and not duplicate) or LETTERS[index] in answer:
                    keep.append(index)
            if len(keep) >= (4 if question.qtype == "multi" else 3):
                answer = [LETTERS[keep.index(ord(a) - 65)] for a in answer if ord(a) - 65 in keep]
                options = [options[k] for k in keep]
        stem = with_blank(question.stem)
        letters = "".join(answer)
        explanation = _restate_conclusion(question.explanation, letters)
        fixed = Draft(
            stem=stem,
            options=options,
            answer=letters,
            explanation=explanation,
            difficulty=question.difficulty,
        )
        unchanged = (
            fixed.stem == question.stem
            and fixed.options == question.options
            and fixed.answer == question.answer_text
            and fixed.explanation == question.explanation
            and short_explanation(fixed.explanation) == question.short_explanation
        )
        if unchanged:
            return None
        return Authored(draft=fixed, qtype=question.qtype, calculation=question.calculation)

    async def review(self, task: Task, question: Question) -> Review | None:
        return None


def _formula_for(slice_: Slice, target: str) -> str:
    """The slice's formula for the asked figure (one that names it), else the figure itself."""
    named = target.removeprefix("应纳").removeprefix("应缴")

    def names_it(formula: str) -> bool:
        left = formula.split("=")[0].strip()
        return bool(left) and (named in left or left in named)

    return next((f for f in slice_.formulas if names_it(f)), target)


def _restate_conclusion(explanation: str, letters: str) -> str:
    return re.sub(r"(本题选|选)\s*[A-L]+", lambda m: f"{m.group(1)}{letters}", explanation, count=1)


def _target_field(slice_: Slice, choice: CalcChoice, result: dict[str, Any]) -> str:
    """The result the textbook's example asks for; of several, the one the calculator lists last (its
    final figure, e.g. the tax rather than the base it is computed on)."""
    order = list(calc.REGISTRY[choice.calculator].results)
    for example in slice_.calc_examples:
        if example.calculator == choice.calculator:
            asked = sorted((f for f in example.expected if f in order), key=order.index, reverse=True)
            for field in asked:
                if (
                    isinstance(result.get(field), int | float)
                    and not isinstance(result[field], bool)
                    and result[field]
                ):
                    return field
    try:
        return final_figure(choice.calculator, result)
    except ValueError as exc:
        raise AuthorError(f"计算器{choice.calculator}没有可作为答案的数值结果") from exc


def _vary_amounts(args: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """灵活 mode and redrafts: the same rule applied to other realistic figures — money scaled and rounded to
    a 万, a year moved back a few years (areas, rates and codes keep their meaning and stay)."""
    varied = dict(args)
    for key, value in args.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if value >= 100_000:
            scaled = value * rng.choice([0.8, 0.9, 1.1, 1.2, 1.3])
            varied[key] = int(round(scaled / 10_000) * 10_000)
        elif isinstance(value, int) and 1950 <= value <= 2030 and key.endswith("year"):
            varied[key] = value - rng.randint(1, 6)
    return varied
