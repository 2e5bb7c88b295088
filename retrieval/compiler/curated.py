"""Hand-written `rules` and `key_params` as facts, each stated once.

A rule is read like a sentence of the prose (the caller does that: a list, a threshold, a modal rule …). A
numeric key_param is a `threshold` whose source is the rule (or
else the prose sentence) that states the same value; that rule is then not repeated as a statement, since a
key_param and the rule it restates are one fact (two options saying the same thing is a defect examiners
reject). A text key_param ("居间、代理") adds nothing a rule or sentence does not already say, and one that
no sentence states has no source to quote, so neither becomes a fact.
"""

from __future__ import annotations

from collections.abc import Sequence

from retrieval.compiler.quantities import canonical_unit, find_quantities, format_value
from retrieval.facts import Fact
from retrieval.models import KeyParam

_FRACTION_UNITS = frozenset({"比例", "比率", "税率", "rate"})


def _as_quantity(param: KeyParam) -> tuple[float, str, str] | None:
    """(value, canonical unit, text as a book writes it): a fraction 0.015 is "1.5%"."""
    if isinstance(param.value, str):
        return None
    if param.unit in _FRACTION_UNITS:
        percent = round(param.value * 100, 6)
        return percent, "%", f"{format_value(percent)}%"
    unit = canonical_unit(param.unit.strip())
    return param.value, unit, f"{format_value(param.value)}{param.unit.strip()}"


def _states(sentence: str, value: float, unit: str) -> bool:
    return any(q.unit == unit and abs(q.value - value) < 1e-9 for q in find_quantities(sentence))


def curated_facts(
    rules: Sequence[str], params: Sequence[KeyParam], sentences: Sequence[str]
) -> tuple[list[Fact], list[str]]:
    """The key_params as thresholds, and the rules no key_param restates (to be read as sentences)."""
    facts: list[Fact] = []
    restated: set[str] = set()
    for param in params:
        quantity = _as_quantity(param)
        if quantity is None:
            continue
        value, unit, text = quantity
        source = next((r for r in rules if _states(r, value, unit)), None)
        if source is None:
            source = next((s for s in sentences if _states(s, value, unit)), None)
        if source is None:
            continue
        restated.add(source)
        facts.append(
            Fact(
                id="",
                kind="threshold",
                slice_id="",
                source=source,
                subject=param.name,
                comparator="为",
                value=value,
                unit=unit,
                value_text=next(
                    (q.text for q in find_quantities(source) if q.unit == unit and q.value == value), text
                ),
            )
        )
    return facts, [rule for rule in rules if rule not in restated]
