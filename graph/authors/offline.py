"""The embedded author: questions written from the knowledge base's compiled facts by recipes — no model,
no network — so a fresh clone produces questions an examiner can sign.

The author only chooses: which fact of the slice (another one each time the chat meets the slice again, and
another on a reroute) and which recipe turns it into the requested type and mode. The recipes write.
A 灵活 request looks through the whole chapter for a fact that can be told as a case whose details decide
the answer, and is declined when there is none: a fixed frame (`FALLBACK`: an act in a sale, a rule with a
name in it) is never delivered as 灵活.
Every question's difficulty is measured on what the recipe wrote (graph/authors/difficulty.py), and a
learner's band is met by choosing among the recipes and facts that fit.
Same seed, slice and visit, same question.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

from graph.authors.amend import amend
from graph.authors.base import Authored, AuthorError, CalcChoice, Choice, Review, Task
from graph.authors.difficulty import rated
from graph.authors.recipes import CALCULATION, CASES, FALLBACK, MIMIC, RECIPES, Recipe
from graph.authors.recipes.base import Brief, Written
from graph.complaints import complaint_in
from graph.format import JUDGE_OPTIONS, LETTERS, short_explanation, with_blank
from graph.schemas import Draft, VerificationReport
from retrieval.facts import Fact, FactBase
from vocabulary.kinds import EASY_AT_MOST, HARD_ABOVE, Difficulty, level_of
from vocabulary.records import Question

_NAMES = {"single": "单选", "multi": "多选", "judge": "判断"}
# Questions written for a learner's band before settling for the closest: each is the next fact in turn,
# so a few tries reach the slice's other kinds of fact without walking the whole chapter.
BAND_TRIES = 6
_BANDS = {"easy": (0.0, EASY_AT_MOST), "medium": (EASY_AT_MOST, HARD_ABOVE), "hard": (HARD_ABOVE, 1.0)}


class OfflineAuthor:
    name = "offline"

    def _brief(self, task: Task, purpose: str) -> Brief:
        rng = random.Random(f"{task.seed}|{task.slice.id}|{task.qtype}|{task.mode}|{purpose}")
        return Brief(task=task, facts=task.facts, rng=rng)

    def _facts_in_turn(self, task: Task, slice_id: str, kinds: tuple[str, ...] | None = None) -> list[Fact]:
        """A slice's facts in a fixed order per slice, started where this chat's last visit left off (and
        one further per reroute), so the same fact is not asked again while others remain."""
        facts = [f for f in task.facts.of_slice(slice_id) if kinds is None or f.kind in kinds]
        random.Random(slice_id).shuffle(facts)
        if not facts:
            return []
        start = (task.visit + task.attempt) % len(facts)
        return facts[start:] + facts[:start]

    def _recipes_for(self, fact: Fact, task: Task, brief: Brief, recipes: tuple[Recipe, ...]) -> list[Recipe]:
        if fact.kind == "example":
            return []  # calculations are the finance expert's, with its calculator run in the trace
        fitting = [r for r in recipes if fact.kind in r.kinds and task.qtype in r.qtypes]
        brief.rng.shuffle(fitting)  # vary the question's shape between visits
        if task.mode == "flexible":
            fitting.sort(key=lambda r: r not in CASES)  # a dated case before a looser telling of the fact
        return fitting

    def _slices(self, task: Task) -> list[str]:
        """The slice, then its neighbours (same section, then chapter); a 灵活 request then the rest of the
        chapter, since few slices hold a condition a case can meet or miss."""
        slices = [task.slice.id, *(s.id for s in task.neighbours)]
        if task.mode == "flexible":
            slices += [f.slice_id for f in task.facts.of_chapter(task.slice.chapter)]
        return list(dict.fromkeys(slices))

    def _recipes(self, task: Task) -> tuple[Recipe, ...]:
        """Every recipe for 严谨; for 灵活 only those telling a case whose details decide the answer, since
        examiners strike a fixed frame (`FALLBACK`) every time it is delivered as a 灵活 question."""
        if task.mode != "flexible":
            return RECIPES
        return tuple(r for r in RECIPES if r not in FALLBACK)

    def _written(self, recipe: Recipe, fact: Fact, task: Task, brief: Brief) -> Written | None:
        """The recipe's question with its difficulty measured on what came out (graph.authors.difficulty),
        not the recipe's flat guess, so a band can be aimed at by choosing."""
        written = recipe.write(fact, brief)
        if written is None:
            return None
        slices = [task.facts.by_id[i].slice_id for i in written.fact_ids if i in task.facts.by_id]
        draft = rated(
            written.draft,
            written.qtype,
            task.mode,
            task.facts,
            slices,
            asked=written.fact_ids,
            calculation=written.calculation,
        )
        return replace(written, draft=draft)

    def _write(self, task: Task, brief: Brief) -> Written:
        """The slice's own facts first; a slice too thin for the requested type lends the question to its
        neighbours, and the question is then filed under the neighbour. Facts the chat was asked lately come
        last, so nothing is asked again while anything else can be. A 灵活 request that finds no case in its
        chapter is declined with that reason rather than answered with a fixed frame."""
        slices = self._slices(task)
        recipes = self._recipes(task)
        for fresh in (True, False):
            for slice_id in slices:
                for fact in self._facts_in_turn(task, slice_id):
                    if (fact.id in task.avoid) == fresh:
                        continue
                    written = self._best_of_fact(fact, task, brief, recipes)
                    if written is not None:
                        return written
        if task.mode == "flexible":
            raise AuthorError(
                f"知识点“{task.slice.title}”所在章节中没有能写成灵活{_NAMES[task.qtype]}题的案例"
                "（由案情细节决定答案的情形、条件、步骤或材料），请改选严谨模式或其他题型"
            )
        raise AuthorError(f"知识点“{task.slice.title}”中没有能写成{_NAMES[task.qtype]}题的知识")

    def _best_of_fact(
        self, fact: Fact, task: Task, brief: Brief, recipes: tuple[Recipe, ...]
    ) -> Written | None:
        """The first question a fitting recipe writes; for a learner's band, each fitting recipe's question
        until one is in the band, else the closest (a fact told as a dated case is often harder than
        the same fact asked plainly)."""
        off_band: list[Written] = []
        for recipe in self._recipes_for(fact, task, brief, recipes):
            written = self._written(recipe, fact, task, brief)
            if written is None:
                continue
            if task.difficulty is None or level_of(written.draft.difficulty) == task.difficulty:
                return written
            off_band.append(written)
        band = task.difficulty
        return (
            min(off_band, key=lambda w: _off_band(w.draft.difficulty, band), default=None) if band else None
        )

    def _write_in_band(self, task: Task) -> Written:
        """The learner's band (易/中/难) is met by choosing, not by rewriting: the facts after this one in
        turn are written as well until a question's estimate falls in the band, and after BAND_TRIES the
        closest is kept. Without a band, the first question, as always."""
        written = self._write(task, self._brief(task, "draft"))
        band = task.difficulty
        if band is None:
            return written
        candidates = [written]
        for turn in range(1, BAND_TRIES):
            if level_of(candidates[-1].draft.difficulty) == band:
                return candidates[-1]
            later = replace(task, visit=task.visit + turn)
            try:
                candidates.append(self._write(later, self._brief(later, f"draft-{turn}")))
            except AuthorError:
                break
        return min(candidates, key=lambda w: _off_band(w.draft.difficulty, band))

    def _calculation_fits(self, task: Task, calculation: Written) -> bool:
        """For a learner's band a calculation gives way to the concept question the author would write
        instead when that one is nearer the band (the finance node then drafts it)."""
        if task.difficulty is None:
            return True
        try:
            concept = self._write_in_band(task)
        except AuthorError:
            return True
        off = _off_band(calculation.draft.difficulty, task.difficulty)
        return off <= _off_band(concept.draft.difficulty, task.difficulty)

    async def draft(self, task: Task) -> Authored:
        return _authored(self._write_in_band(task), task.facts)

    def _calculation(self, task: Task, candidates: list[str]) -> Written | None:
        brief = self._brief(task, "calc")
        recipes = [r for r in (MIMIC, CALCULATION) if task.qtype in r.qtypes]
        examples = self._facts_in_turn(task, task.slice.id, ("example",))
        examples.sort(key=lambda fact: fact.id in task.avoid)  # stable: fresh examples first, then asked
        for fact in examples:
            if fact.calculator not in candidates:
                continue
            for recipe in recipes:  # a variant of an aligned past question first, when there is one
                written = self._written(recipe, fact, task, brief)
                if written is not None and written.calculation is not None:
                    return written
        return None

    async def choose_calculation(self, task: Task, candidates: list[str]) -> Choice:
        written = self._calculation(task, candidates)
        if written is None or written.calculation is None or not self._calculation_fits(task, written):
            return Choice(choice=None)
        calculation = written.calculation
        return Choice(choice=CalcChoice(calculator=calculation.calculator, args=dict(calculation.args)))

    async def draft_calculation(self, task: Task, choice: CalcChoice, result: dict[str, Any]) -> Authored:
        """The recipe already computed its key with the same calculator; the node's own run must agree, or
        the question is not written (the critic would reject it anyway)."""
        written = self._calculation(task, [choice.calculator])
        if written is None or written.calculation is None or written.calculation.args != choice.args:
            raise AuthorError(f"计算器{choice.calculator}的题目无法按所选参数重写")
        value = result.get(written.calculation.field)
        if not isinstance(value, int | float) or abs(float(value) - (written.calculation.value or 0)) > 0.005:
            raise AuthorError(f"计算器{choice.calculator}复核结果与题目不一致")
        return _authored(written, task.facts)

    async def fix(self, task: Task, question: Question, report: VerificationReport) -> Authored | None:
        """Repairs what is mechanical (blank, judge options, duplicate or empty distractors, explanation fit),
        and answers a human's complaint where the question's own fact allows (see `amend`); a wrong fact
        is left for a reroute."""
        complaint = complaint_in(report)
        if complaint is not None:
            amended = amend(task, question, complaint)
            if amended is None:
                return None
            authored = _authored(amended.written, task.facts)
            authored.notes = amended.notes
            return authored
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


def _off_band(difficulty: float, band: Difficulty) -> tuple[bool, float]:
    """How far a question is from a band: outside it at all, then by how much."""
    low, high = _BANDS[band]
    return level_of(difficulty) != band, max(low - difficulty, difficulty - high, 0.0)


def _authored(written: Written, facts: FactBase) -> Authored:
    first = facts.by_id.get(written.fact_ids[0]) if written.fact_ids else None
    return Authored(
        draft=written.draft,
        qtype=written.qtype,
        calculation=written.calculation,
        fact_ids=list(written.fact_ids),
        slice_id=first.slice_id if first else None,
    )


def _restate_conclusion(explanation: str, letters: str) -> str:
    return re.sub(r"(本题选|选)\s*[A-L]+", lambda m: f"{m.group(1)}{letters}", explanation, count=1)
