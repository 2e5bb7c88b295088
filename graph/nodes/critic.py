"""Critic: deterministic checks on every draft, then — only if those pass and a model is configured — one
blind solve and review. A human's complaint stays a failing issue until the question has actually changed."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.authors.base import AuthorError
from graph.checks import run_checks
from graph.context import GenerationContext
from graph.nodes.common import build_task, request_of, step
from graph.schemas import Calculation, Issue, Question, VerificationReport
from graph.state import GenerationState


def _recompute(ctx: GenerationContext):
    def recompute(calculation: Calculation) -> float:
        return float(ctx.run_calculator(calculation.calculator, calculation.args)[calculation.field])

    return recompute


def _rank(report: VerificationReport) -> tuple[int, int]:
    return (sum(i.severity == "major" for i in report.issues), len(report.issues))


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
            return_to="planning",
        )
        return {"report": report.model_dump(), "critic_failures": failures + 1} | step(
            "critic", "fatal", reason
        )
    question = Question.model_validate(state["draft"])
    issues = run_checks(
        question,
        request.qtype,
        recompute=_recompute(ctx),
        duplicate_score=ctx.duplicate_score,
        duplicate_threshold=ctx.duplicate_threshold,
    )
    pending = state.get("pending_human")
    unchanged_since_complaint = bool(pending) and pending["fingerprint"] == question.fingerprint()
    if unchanged_since_complaint:
        issues += [Issue.model_validate(i) for i in pending["issues"]]
    elif pending:
        update["pending_human"] = None
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
