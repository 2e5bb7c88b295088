"""Critic: deterministic checks on every draft, then grounding — is the keyed answer true according to the
textbook — and the stem-side recomputation of a calculation, then, only if nothing major was found and a
model is configured, one blind solve and review. A human's complaint stays a failing issue in every draft
of the revision whose complained-about part is still as it was (a later reroute may write it again).

The model's blind solve can add issues but never verifies a key: a key the textbook does not support is a
major issue whatever the model answers. The grounding's evidence goes on the question, and a draft whose
explanation quotes no textbook gets the sentence its key rests on as 教材原文.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from graph.authors.base import AuthorError
from graph.checks import run_checks
from graph.complaints import complained_part
from graph.context import GenerationContext
from graph.format import (
    ANALYSIS,
    BASIS,
    CONCLUSION,
    compose_explanation,
    explanation_parts,
    short_explanation,
)
from graph.grounding import Grounding, ground_question
from graph.nodes.common import build_task, request_of, step
from graph.schemas import Issue, VerificationReport
from graph.state import GenerationState
from graph.stemcalc import check_stem_calculation
from vocabulary.records import Calculation, Question

# A 教材原文 that only names where the slice is ("《第四篇 > …》") quotes nothing.
_PATH_ONLY = re.compile(r"^《[^》]*》[：:]?$")


def _recompute(ctx: GenerationContext):
    def recompute(calculation: Calculation) -> float:
        return float(ctx.run_calculator(calculation.calculator, calculation.args)[calculation.field])

    return recompute


def _rank(report: VerificationReport) -> tuple[int, int]:
    return (sum(i.severity == "major" for i in report.issues), len(report.issues))


def _ground(question: Question, state: GenerationState, ctx: GenerationContext) -> Grounding:
    """Grounding never takes the loop down: whatever stops it is reported as the reason it is missing."""
    try:
        return ground_question(question, ctx.knowledge.get(state["slice_id"]), ctx)
    except Exception as exc:  # heuristics over arbitrary text: a fault costs this question, not the loop
        return Grounding(
            answer=list(question.answer), qtype=question.qtype, error=f"{type(exc).__name__}: {exc}"
        )


def _with_basis(question: Question, grounding: Grounding) -> Question:
    """The sentence the key rests on as 教材原文 when the draft quotes none."""
    parts = explanation_parts(question.explanation)
    path, sentence = grounding.basis
    if not sentence or (parts.get(BASIS) and not _PATH_ONLY.match(parts[BASIS].strip())):
        return question
    analysis = parts.get(ANALYSIS, "" if parts else question.explanation)
    where = f"《{path}》" if path else ""
    explanation = compose_explanation(f"{where}“{sentence}”", analysis, parts.get(CONCLUSION, ""))
    return question.model_copy(
        update={"explanation": explanation, "short_explanation": short_explanation(explanation)}
    )


def _untouched(pending: dict[str, Any], question: Question) -> bool:
    """Whether the part of the question a human complained about is still as it was (checkpoints written
    before complaints named their part compare the whole question)."""
    if "part" in pending:
        return pending["part"] == complained_part(question, pending["reason"])
    return pending["fingerprint"] == question.fingerprint()


async def critic(state: GenerationState, runtime: Runtime[GenerationContext]) -> dict[str, Any]:
    ctx = runtime.context
    request = request_of(state)
    update: dict[str, Any] = {}
    failures = state.get("critic_failures", 0)
    if not state.get("draft"):
        reason = state.get("failure") or "没有生成可校验的题目"
        report = VerificationReport(
            status="fatal",
            issues=[Issue(type="incompleteness", severity="major", detail=reason)],
        )
        return {"report": report.model_dump(), "critic_failures": failures + 1} | step(
            "critic", "fatal", reason
        )
    question = Question.model_validate(state["draft"])
    pending = state.get("pending_human")
    unchanged_since_complaint = bool(pending) and _untouched(pending, question)
    issues = run_checks(
        question,
        request.qtype,
        recompute=_recompute(ctx),
        duplicate_score=ctx.duplicate_score,
        duplicate_threshold=ctx.duplicate_threshold,
    )
    grounding = _ground(question, state, ctx)
    recomputed = check_stem_calculation(question, ctx.run_calculator)
    issues += grounding.issues(strict=True) + recomputed.issues
    if grounding.verified:
        question = _with_basis(question, grounding)
    question = question.model_copy(update={"evidence": grounding.evidence + recomputed.evidence})
    update["draft"] = question.model_dump()
    if unchanged_since_complaint:
        issues += [Issue.model_validate(i) for i in pending["issues"]]
    suggestions: list[str] = []
    if not any(i.severity == "major" for i in issues):
        try:
            review = await ctx.author.review(build_task(state, ctx), question)
        except AuthorError as exc:
            review = None
            issues.append(
                Issue(
                    type="incompleteness", severity="minor", detail=f"模型复核未完成：{exc}", source="model"
                )
            )
        if review is not None:
            update["usage"] = review.usage
            if "".join(sorted(review.answer.upper())) != question.answer_text:
                detail = f"盲答结果{review.answer or '无'}与答案{question.answer_text}不一致"
                issues.append(Issue(type="answer_mismatch", severity="major", detail=detail, source="model"))
            issues += review.issues
            suggestions = review.suggestions
    report = VerificationReport.from_issues(issues, suggestions)
    update["report"] = report.model_dump()
    if report.status != "passed":
        update["critic_failures"] = failures + 1
        best = state.get("best")
        # The question a human complained about is never "the best version": self-heal must not return it.
        candidate = not report.has_major and not unchanged_since_complaint
        if candidate and (best is None or _rank(report) < _rank(VerificationReport(**best["report"]))):
            update["best"] = {"question": question.model_dump(), "report": report.model_dump()}
    verdict = report.status
    return update | step("critic", verdict, report.summary())
