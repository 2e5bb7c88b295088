"""From the grounding of each statement to the critic's issues: an examiner's first question — is the keyed
answer true — asked of the textbook.

The rules (`issues`):
- a keyed statement must agree with the textbook: a key claimed true must be supported, a key claimed
  false (a judge keyed 错误, the key of a "错误的是" frame) must be contradicted. Contradiction of the key is
  a wrong answer (major answer_mismatch). A key the textbook can neither support nor contradict is not
  verified: major factual_error in strict mode; counted apart (`unknown_keys`) and not an issue in lenient
  mode, which is how past papers — written from no slice of ours — are measured.
- no unkeyed statement may agree with what the key claims of the keyed ones: an unkeyed option the
  textbook supports in a "正确的是" frame (or contradicts in a "错误的是" frame) is a second answer (major).
- every quoted source must occur in the knowledge base (major factual_error otherwise).
- when nothing above decides and the key is not verified, the options are compared: an option the key
  claims false that aligns with its closest sentence clearly better (OUTRANKS) than one it claims true
  makes the key suspect (major answer_mismatch); so does a judge statement keyed true whose closest
  sentence disagrees with it while none as close agrees. See `rank.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graph.grounding.classify import Finding
from graph.schemas import Issue

# How much better an option the key claims false must align with the textbook than the worst option it
# claims true before the key is suspect (calibrated on the bundled banks' real questions, none of which it
# rejects).
OUTRANKS = 0.3
# Below this alignment an option is one the textbook does not name at all.
NAMED = 0.1

_STATE = {"supported": "有依据", "contradicted": "与教材矛盾", "unknown": "无法在教材中找到依据"}


def _issue(kind: str, detail: str) -> Issue:
    return Issue(type=kind, severity="major", detail=detail, source="rule")


def _name(finding: Finding) -> str:
    return f"选项{finding.label}" if finding.label else "题干说法"


@dataclass
class Grounding:
    """The grounding of one question. `statements` has one Finding per option (one for a judge question);
    `calculated` marks a calculation question, whose key the calculator re-check verifies instead;
    `missing_sources` are quoted sources the knowledge base does not hold; `error` says why grounding could
    not be computed at all; `paths` maps slice ids to their paths for the evidence."""

    statements: list[Finding] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    qtype: str = "single"
    calculated: bool = False
    missing_sources: list[str] = field(default_factory=list)
    error: str = ""
    paths: dict[str, str] = field(default_factory=dict)

    def keyed(self, finding: Finding) -> bool:
        return finding.label in self.answer or (not finding.label and self.qtype == "judge")

    @property
    def unknown_keys(self) -> list[Finding]:
        """Keyed statements the textbook neither supports nor contradicts."""
        return [f for f in self.statements if self.keyed(f) and f.verdict == "unknown"]

    @property
    def verified(self) -> bool:
        """Every keyed statement agrees with the textbook (or the calculator verifies the key)."""
        keyed = [f for f in self.statements if self.keyed(f)]
        return not self.error and (self.calculated or (bool(keyed) and all(f.agrees for f in keyed)))

    def issues(self, strict: bool = True) -> list[Issue]:
        if self.error:
            return [_issue("incompleteness", f"无法完成教材核对：{self.error}")]
        found = [
            _issue("factual_error", f"所引教材原文在知识库中找不到：“{s}”") for s in self.missing_sources
        ]
        keyed = [f for f in self.statements if self.keyed(f)]
        for finding in keyed:  # what is wrong with the key first, then the other answers
            found += self._key_issues(finding, strict)
        for finding in self.statements:
            if finding not in keyed and finding.verdict == (
                "supported" if not finding.claims else "contradicted"
            ):
                found.append(self._second_answer(finding))
        return found or self._outranked() or self._denied()

    @property
    def gap(self) -> float | None:
        """How much better the best-aligned option the key claims false aligns than the worst one it claims
        true; None when the options are not compared."""
        ranks = [(f.claims, f.rank) for f in self.statements]
        if not ranks or any(rank is None for _, rank in ranks):
            return None
        true = [rank for claims, rank in ranks if claims]
        false = [rank for claims, rank in ranks if not claims]
        if true and min(true) < NAMED:
            return None  # the textbook names an option claimed true nowhere: nothing to compare it by
        return max(false) - min(true) if true and false else None

    def _outranked(self) -> list[Issue]:
        """A key no sentence verifies outright is still suspect when an option it claims false reads clearly
        closer to the textbook than one it claims true: the key moved with its explanation, or a true
        statement put in as a distractor."""
        gap = self.gap
        if gap is None or gap < OUTRANKS:
            return []
        worst = min((f for f in self.statements if f.claims), key=lambda f: f.rank or 0.0)
        best = max((f for f in self.statements if not f.claims), key=lambda f: f.rank or 0.0)
        detail = (
            f"选项{best.label}比选项{worst.label}明显更贴近教材（吻合程度{best.rank:.2f}对{worst.rank:.2f}），"
            "答案却把前者作为错误说法、后者作为正确说法，答案可疑"
        )
        return [_issue("answer_mismatch", detail)]

    def _key_issues(self, finding: Finding, strict: bool) -> list[Issue]:
        if finding.agrees:
            return []
        name = _name(finding)
        if finding.verdict == "unknown":
            if not strict:
                return []
            return [_issue("factual_error", f"答案无法在教材中找到依据：{name}（{finding.reason}）")]
        if finding.claims:
            return [_issue("answer_mismatch", f"{name}被作为正确说法，但与教材矛盾：{finding.reason}")]
        return [_issue("answer_mismatch", f"{name}被作为错误说法，但与教材一致：“{finding.source}”")]

    def _second_answer(self, finding: Finding) -> Issue:
        if finding.verdict == "supported":
            detail = f"选项{finding.label}未被选为答案，但与教材一致，也是正确说法：“{finding.source}”"
        else:
            detail = f"选项{finding.label}未被选为答案，但同样与教材矛盾：{finding.reason}"
        return _issue("answer_mismatch", detail)

    def _denied(self) -> list[Issue]:
        """A judge statement keyed true that no sentence verifies, while the sentence closest to it says
        otherwise (a figure, a modal, a negation or an opposite word) and none as close agrees with it. (An
        option is read this way only against the other options: alone, an option is a fragment that its
        closest sentence often words with other markers.)"""
        return [
            _issue(
                "answer_mismatch",
                f"{_name(f)}被作为正确说法，但教材中与它最接近的句子在数值、情态或否定上与它不同，答案可疑",
            )
            for f in self.statements
            if not f.label and f.claims and f.verdict == "unknown" and f.denied
        ]

    @property
    def evidence(self) -> list[str]:
        """One line per statement for the question's `evidence`: what the textbook says of it and where."""
        lines = [f"所引原文未在知识库中找到：“{s}”" for s in self.missing_sources]
        if self.error:
            lines.append(f"教材核对未完成：{self.error}")
        for finding in self.statements:
            state = _STATE[finding.verdict]
            if finding.verdict != "supported":
                state = f"{state}（{finding.reason}）"
            where = f"《{self.paths[finding.slice_id]}》" if finding.slice_id in self.paths else ""
            quote = f" —{where}“{finding.source}”" if finding.source and finding.verdict != "unknown" else ""
            lines.append(f"{_name(finding)}：{state}{quote}")
        return lines

    @property
    def basis(self) -> tuple[str, str]:
        """(slice path, sentence) the key rests on, for an explanation without 教材依据; empty if none."""
        ordered = sorted(self.statements, key=lambda f: not self.keyed(f))
        for finding in ordered:
            if finding.agrees and finding.source and (self.keyed(finding) or finding.verdict == "supported"):
                return self.paths.get(finding.slice_id, ""), finding.source
        return "", ""
