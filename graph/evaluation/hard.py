"""Hard seeded defects: wrong questions that look right. Each keeps the question consistent with itself (the
explanation agrees with the key, every option is a well-formed statement), so only a critic that checks
the key against the textbook, or recomputes from the stem, can catch it. Each is made from the question's
own textbook material — the slice its key rests on, then the rest of its chapter — the way the field's
papers make their traps."""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

import calc
from calc.reading import read_arguments, same_value
from graph.evaluation.falsify import Falsehood, falsehoods, figures, only_figure
from graph.evaluation.rekey import move_key
from graph.evaluation.restate import restate
from graph.format import same_number
from graph.grounding.statements import frame_of
from graph.grounding.text import bare, coverage, grams
from graph.schemas import BLANK
from retrieval.facts import Fact
from retrieval.models import Slice
from vocabulary.records import Calculation, Question

# Fact kinds whose source sentence states one rule on its own: material for a true option.
_STATING = ("modal", "threshold", "definition", "statement")
# A true sentence put in as an option: long enough to say something, short enough to be an option.
_TRUE_OPTION = (8, 50)
# A true sentence that covers this much of the keyed option restates the key (another defect kind).
_RESTATES = 0.6
# A list item longer than this is a sentence of its own, not an option.
_MAX_ITEM = 20
# How much of a true sentence must be about the stem and key, and how fully a stem must name a list.
_ON_TOPIC = 0.2
_NAMED = 0.6
# A stem whose options are statements ("说法正确的是"), not arrangements or cases that happen to comply.
_ASKS_STATEMENTS = re.compile(r"说法|表述|叙述|观点|理解")
# Formulas, headings and worked cases are not statements an option makes.
_NOT_AN_OPTION = re.compile(r"[=×÷：:|【（(\n]|\d{4}年")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_EXAMPLE = re.compile(r"【例|【解|例如|如：")


@dataclass(frozen=True)
class Material:
    """The textbook around a question: the slices its key was grounded in first, then the rest of its
    chapter, and their facts in the same order."""

    slices: tuple[Slice, ...]
    facts: tuple[Fact, ...]

    def texts(self) -> list[str]:
        """What the slices state as rules (prose, tables, rules); a worked example states a case, not a
        rule, so prose from 【例】 on is left out."""
        parts = [part for s in self.slices for part in (s.text, *s.tables, *s.rules) if part]
        return [_EXAMPLE.split(line)[0] for part in parts for line in part.splitlines()]

    def siblings(self, statement: str) -> list[str]:
        """The sibling values the threshold and table facts of the statement's figures list."""
        shown = {f.text for f in figures(statement)}
        return [
            sibling
            for fact in self.facts
            if fact.kind in ("threshold", "table_row")
            and (fact.value_text in shown or shown & set(fact.items))
            for sibling in fact.siblings
        ]

    def falsehoods(self, statement: str, taken: Sequence[str] = ()) -> list[Falsehood]:
        return falsehoods(statement, self.siblings(statement), self.texts(), taken)


HardDefect = Callable[[Question, Material], Question | None]


def _pick(found: Sequence[Falsehood], q: Question) -> Falsehood | None:
    """One of the candidate changes, the same one every run for the same question."""
    return found[zlib.crc32(q.stem.encode()) % len(found)] if found else None


def _with_option(q: Question, index: int, text: str) -> Question | None:
    if not text or text in q.options:
        return None
    options = list(q.options)
    options[index] = text
    return q.model_copy(update={"options": options})


def _first_unkeyed(q: Question) -> int | None:
    return next((i for i in range(len(q.options)) if chr(65 + i) not in q.answer), None)


def key_moved(q: Question, _material: Material) -> Question | None:
    return move_key(q)


def fact_falsified(q: Question, material: Material) -> Question | None:
    """The keyed option's fact falsified (a sibling figure, a comparator or a modal turned round): a single
    question is left with no true option, a multiple one keys a false option. An option that completes the
    stem with a case ("家庭唯一住房，面积85平方米") has its figures changed only when it is nothing but the
    figure asked for: a case's figure may move and the case still qualify."""
    kind, asks_false = frame_of(q.stem) if q.qtype != "judge" else ("", False)
    if q.qtype == "judge" or q.calculation is not None or asks_false:
        return None  # a computed key is the calculation defects' business; a key claimed false stays false
    for index in q.correct_indexes:
        option = q.options[index]
        others = [o for i, o in enumerate(q.options) if i != index]
        found = material.falsehoods(option, others)
        if kind == "fill" and not only_figure(option):
            found = [f for f in found if f.kind == "modal"]
        chosen = _pick(found, q)
        if chosen is not None:
            return _with_option(q, index, chosen.text)
    return None


def judge_falsified(q: Question, material: Material) -> Question | None:
    """A true judge statement falsified, the key 正确 kept. Only the sentence that holds the answer blank is
    changed: the sentences before it set a scene whose figures are a case, not the rule."""
    if q.qtype != "judge" or q.answer != ["A"] or q.calculation is not None:
        return None
    blank = q.stem.find(BLANK)
    end = blank - 1 if blank > 0 else len(q.stem) - 1  # the full stop just before the blank is its own
    cut = max(q.stem.rfind(mark, 0, end) for mark in "。\n") + 1
    scene, statement = q.stem[:cut], q.stem[cut:]
    chosen = _pick(material.falsehoods(statement), q)
    return q.model_copy(update={"stem": scene + chosen.text}) if chosen else None


def _changed(token: str, name: str) -> str:
    """A stem figure changed the way a careless edit changes it: a year moved back, a small count one up,
    anything else a fifth larger in its own precision."""
    plain = token.replace(",", "")
    value = Decimal(plain)
    if name.endswith("year") and len(plain) == 4:
        return str(int(value) - 3)
    if value == value.to_integral_value() and value < 20:
        return str(int(value) + 1)
    decimals = -value.as_tuple().exponent if "." in plain else 0
    return f"{(value * Decimal('1.2')).quantize(Decimal(1).scaleb(-decimals)):f}"


def _stem_inputs(stem: str, calculation: Calculation) -> list[tuple[str, int, int]]:
    """(argument, start, end) of each stem figure the calculator reads, in stem order."""
    reading = read_arguments(calculation.calculator, stem, defaults=calculation.args, field=calculation.field)
    found = []
    for name, span in reading.spans.items():
        value = reading.args.get(name)
        at = stem.find(span)
        if isinstance(value, bool) or not isinstance(value, int | float) or at < 0:
            continue
        number = _NUMBER.search(span)
        if number is not None:
            found.append((name, at + number.start(), at + number.end()))
    return sorted(found, key=lambda item: item[1])


def stem_input_changed(q: Question, _material: Material) -> Question | None:
    """A figure the calculator reads from the stem changed, the key kept: only a change that truly moves
    the keyed result counts (a deed-tax area that stays under 140㎡ changes nothing)."""
    calculation = q.calculation
    if calculation is None or calculation.calculator not in calc.REGISTRY:
        return None
    name, args, field = calculation.calculator, calculation.args, calculation.field
    try:
        keyed = float(calc.run(name, args)[field])
        inputs = _stem_inputs(q.stem, calculation)
    except Exception:  # a stem the reader cannot read has no input to change
        return None
    for argument, start, end in inputs:
        stem = q.stem[:start] + _changed(q.stem[start:end], argument) + q.stem[end:]
        try:
            reading = read_arguments(name, stem, defaults=args, field=field)
            if argument not in reading.args or same_value(reading.args[argument], args.get(argument)):
                continue
            truth = float(calc.run(name, {**args, argument: reading.args[argument]})[field])
        except Exception:  # an edit the reader or the calculator refuses is no defect to seed
            continue
        if not same_number(truth, keyed):
            return q.model_copy(update={"stem": stem})
    return None


def _restates(text: str, q: Question) -> bool:
    """The text says what an option already says."""
    said = grams(text)
    return any(coverage(o, said) >= _RESTATES or coverage(text, grams(o)) >= _RESTATES for o in q.options)


def _true_sentences(q: Question, material: Material) -> list[str]:
    """True sentences of the material that could stand as an option: stated rules of a fitting length (no
    formula, no worked case) on the question's topic that do not restate any option, the most on-topic
    first."""
    low, high = _TRUE_OPTION
    about = grams(q.stem + "".join(q.options[i] for i in q.correct_indexes))
    found: list[str] = []
    for fact in material.facts:
        sentence = fact.source.strip().rstrip("。")
        if fact.kind not in _STATING or not low <= len(sentence) <= high or _NOT_AN_OPTION.search(sentence):
            continue
        if len(_NUMBER.findall(sentence)) > 1 or coverage(sentence, about) < _ON_TOPIC:
            continue
        if not _restates(sentence, q) and sentence not in found:
            found.append(sentence)
    return sorted(found, key=lambda s: -coverage(s, about))


def _other_items(q: Question, material: Material) -> list[str]:
    """Items not among the options of a list the stem asks about ("下列属于X的有", X named in the stem)
    that holds the keyed option. A stem that asks which class a case is in ("…属于（　）") names no list:
    the other items of the class's list are wrong answers there."""
    keyed = {bare(q.options[i]) for i in q.correct_indexes}
    stem = grams(q.stem)
    for fact in material.facts:
        if fact.kind != "enumeration" or coverage(fact.subject, stem) < _NAMED:
            continue
        if keyed & {bare(item) for item in fact.items}:
            others = [i for i in fact.items if 2 <= len(i) <= _MAX_ITEM and not _restates(i, q)]
            if others:
                return others
    return []


def true_distractor(q: Question, material: Material) -> Question | None:
    """A distractor replaced by something the textbook says is so: under "说法正确的是" a true sentence of
    the slice, under "属于X的是" another item of X's list. The question then has two correct answers (a
    multiple one a correct option left unkeyed)."""
    if q.qtype == "judge":
        return None
    kind, asks_false = frame_of(q.stem)
    slot = _first_unkeyed(q)
    if asks_false or slot is None:
        return None
    if kind == "saying":
        candidates = _true_sentences(q, material) if _ASKS_STATEMENTS.search(q.stem) else []
    else:
        candidates = _other_items(q, material)
    return _with_option(q, slot, candidates[0]) if candidates else None


def option_restated(q: Question, _material: Material) -> Question | None:
    """A distractor replaced by a light restatement of the keyed option: two options state one fact, so
    two are right."""
    slot = _first_unkeyed(q)
    if q.qtype == "judge" or slot is None:
        return None
    restated = restate(q.options[q.correct_indexes[0]])
    return _with_option(q, slot, restated) if restated else None


HARD: dict[str, HardDefect] = {
    "key_moved_with_explanation": key_moved,
    "keyed_fact_falsified": fact_falsified,
    "judge_statement_falsified": judge_falsified,
    "stem_input_changed": stem_input_changed,
    "true_statement_as_distractor": true_distractor,
    "option_restated": option_restated,
}
