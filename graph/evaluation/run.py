"""One evaluation of the critic on a bank: which known-good questions it rejects (and why), how often it
cannot verify a key, and how many seeded defects of each kind it catches. Defects are seeded only into
questions the critic accepts, so a catch is the defect's doing."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from graph.evaluation.bank import as_question
from graph.evaluation.critic import Library, review
from graph.evaluation.easy import EASY
from graph.evaluation.hard import HARD, Material
from graph.grounding.verdict import Grounding
from retrieval.models import MotherQuestion
from retrieval.sources import Sources
from vocabulary.records import Question

# What the critic must reach on a bank: hard and easy defects caught, at most this many known-good
# questions rejected, and at most this many accepted keys left unverified by the textbook.
TARGETS = {"hard": 0.90, "easy": 0.98, "false_rejections": 0.02, "unknown": 0.10}
# Misses kept per defect kind, to show what the critic lets through.
SHOWN_MISSES = 5
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」")
_FIGURE = re.compile(r"\d[\d,.]*")
_LETTER = re.compile(r"(?<![A-Za-z])[A-L]+(?![A-Za-z])")


def reason_kind(detail: str) -> str:
    """A rejection reason without its particulars (quotes, figures, letters), so that reasons count up."""
    general = _LETTER.sub("X", _FIGURE.sub("N", _QUOTED.sub("“…”", detail)))
    return re.split(r"[：:]", general, maxsplit=1)[0][:40]


@dataclass
class Tally:
    """Defects of one kind seeded and caught; `verified_*` count those seeded into questions whose key the
    textbook itself verified, which tells a weak grounding from a defect the critic cannot see at all."""

    caught: int = 0
    total: int = 0
    verified_caught: int = 0
    verified_total: int = 0
    misses: list[dict[str, str]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.caught / self.total if self.total else 1.0

    @property
    def verified_rate(self) -> float:
        return self.verified_caught / self.verified_total if self.verified_total else 1.0


@dataclass
class Evaluation:
    bank_size: int
    accepted: int = 0
    unknown: list[str] = field(default_factory=list)
    false_rejections: list[tuple[str, str]] = field(default_factory=list)
    easy: dict[str, Tally] = field(default_factory=dict)
    hard: dict[str, Tally] = field(default_factory=dict)

    @staticmethod
    def _overall(tallies: dict[str, Tally]) -> float:
        total = sum(t.total for t in tallies.values())
        return sum(t.caught for t in tallies.values()) / total if total else 1.0

    @property
    def easy_rate(self) -> float:
        return self._overall(self.easy)

    @property
    def hard_rate(self) -> float:
        return self._overall(self.hard)

    @property
    def false_rejection_rate(self) -> float:
        return len(self.false_rejections) / self.bank_size if self.bank_size else 0.0

    @property
    def unknown_rate(self) -> float:
        return len(self.unknown) / self.accepted if self.accepted else 0.0

    def top_reasons(self, limit: int = 5) -> list[tuple[str, int]]:
        return Counter(reason_kind(r) for _, r in self.false_rejections).most_common(limit)

    def meets(self) -> dict[str, bool]:
        return {
            "hard": self.hard_rate >= TARGETS["hard"],
            "easy": self.easy_rate >= TARGETS["easy"],
            "false_rejections": self.false_rejection_rate <= TARGETS["false_rejections"],
            "unknown": self.unknown_rate <= TARGETS["unknown"],
        }

    def as_json(self) -> dict[str, Any]:
        def table(tallies: dict[str, Tally]) -> dict[str, dict[str, Any]]:
            return {
                kind: {
                    "caught": t.caught,
                    "total": t.total,
                    "rate": round(t.rate, 4),
                    "on_verified_keys": {"caught": t.verified_caught, "total": t.verified_total},
                    "missed": t.misses,
                }
                for kind, t in tallies.items()
            }

        return {
            "bank_size": self.bank_size,
            "accepted": self.accepted,
            "false_rejections": len(self.false_rejections),
            "false_rejection_rate": round(self.false_rejection_rate, 4),
            "rejected": [{"question": q, "reason": r} for q, r in self.false_rejections],
            "top_reasons": [{"reason": r, "count": c} for r, c in self.top_reasons()],
            "unknown": len(self.unknown),
            "unknown_rate": round(self.unknown_rate, 4),
            "unknown_questions": self.unknown,
            "easy": table(self.easy),
            "hard": table(self.hard),
            "easy_rate": round(self.easy_rate, 4),
            "hard_rate": round(self.hard_rate, 4),
            "targets": TARGETS,
            "meets": self.meets(),
        }


def _material(mother: MotherQuestion, grounding: Grounding, library: Library) -> Material:
    """The slices the key was grounded in, then the rest of the aligned chapter."""
    keyed = [f.slice_id for f in grounding.statements if grounding.keyed(f) and f.slice_id]
    chapter = [s.id for s in library.knowledge.slices if mother.kb_chapter and s.chapter == mother.kb_chapter]
    ids = list(dict.fromkeys(keyed + chapter))
    slices = tuple(library.knowledge.by_id[i] for i in ids if i in library.knowledge.by_id)
    facts = tuple(f for i in ids for f in library.facts.of_slice(i))
    return Material(slices, facts)


def _seed(tally: Tally, where: str, broken: Question, caught: bool, verified: bool) -> None:
    tally.total += 1
    tally.caught += caught
    tally.verified_total += verified
    tally.verified_caught += caught and verified
    if not caught and len(tally.misses) < SHOWN_MISSES:
        options = " / ".join(f"{chr(65 + i)}.{o}" for i, o in enumerate(broken.options))
        tally.misses.append(
            {"question": where, "stem": broken.stem, "options": options, "answer": broken.answer_text}
        )


def evaluate(sources: Sources, library: Library) -> Evaluation:
    result = Evaluation(
        bank_size=len(sources.questions),
        easy={kind: Tally() for kind in EASY},
        hard={kind: Tally() for kind in HARD},
    )
    for mother in sources.questions:
        where = mother.source or mother.id
        question = as_question(mother, sources.calc_checks.get(mother.id))
        verdict = review(question, mother.qtype, library, mother.kb_chapter)
        if verdict.rejected:
            result.false_rejections.append((where, verdict.issues[0].detail))
            continue
        result.accepted += 1
        if verdict.unknown:
            result.unknown.append(where)
        for kind, defect in EASY.items():
            broken = defect(question)
            if broken is not None:
                caught = review(broken, mother.qtype, library, mother.kb_chapter).rejected
                _seed(result.easy[kind], where, broken, caught, not verdict.unknown)
        material = _material(mother, verdict.grounding, library)
        for kind, defect in HARD.items():
            broken = defect(question, material)
            if broken is not None:
                caught = review(broken, mother.qtype, library, mother.kb_chapter).rejected
                _seed(result.hard[kind], where, broken, caught, not verdict.unknown)
    return result
