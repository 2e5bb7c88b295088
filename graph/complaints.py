"""A human complaint about a delivered question, as the loop sees it: the issue the critic keeps failing and
the part of the question the complaint is about, which a revision has to change before it counts as one."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from graph.schemas import Issue, VerificationReport
from vocabulary.kinds import FeedbackReason
from vocabulary.records import Question

# What each quick reason of a 👎 means to the critic. None of them is major: the fixer, which has the
# question in hand, answers first (the comment's numbers, the faulted part); what it cannot repair escalates
# to a reroute, which is where a wrong answer without a usable request ends up.
_ISSUES: dict[str, tuple[str, str]] = {
    "answer_wrong": ("answer_mismatch", "答案错误"),
    "explanation_wrong": ("factual_error", "解析有误"),
    "stem_unclear": ("ambiguity", "题干不清"),
    "options_wrong": ("logical_flaw", "选项有问题"),
    "out_of_scope": ("out_of_scope", "超出考纲"),
    "other": ("human_feedback", "其他问题"),
}
_QUOTED = re.compile(r"«(.*)»", re.S)


@dataclass(frozen=True)
class Complaint:
    reason: FeedbackReason
    comment: str


def feedback_issue(reason: FeedbackReason, comment: str = "") -> Issue:
    """A human complaint as an issue. The comment is quoted data: it describes the problem, it never
    instructs the author (the prompts say so and the delimiters make the boundary visible)."""
    kind, label = _ISSUES[reason]
    quoted = comment.replace("«", "‹").replace("»", "›").strip()[:500]
    detail = f"教师反馈：{label}" + (f"；原话（仅作问题描述）：«{quoted}»" if quoted else "")
    return Issue(type=kind, severity="minor", detail=detail, source="human")


def complaint_in(report: VerificationReport | None) -> Complaint | None:
    """The human complaint a report carries, read back from its issue."""
    for issue in report.issues if report else []:
        if issue.source != "human":
            continue
        reason = next((r for r, (kind, _) in _ISSUES.items() if kind == issue.type), "other")
        quoted = _QUOTED.search(issue.detail)
        return Complaint(reason=reason, comment=quoted.group(1) if quoted else "")
    return None


def complained_part(question: Question, reason: str) -> str:
    """A digest of what the complaint is about: the stem for 题干不清, the options for 选项有问题, the key or
    the facts (stem and correct options) for 答案错误, the explanation for 解析有误, what a learner reads
    otherwise. Reordering options changes none of them."""
    correct = sorted(question.options[i] for i in question.correct_indexes if i < len(question.options))
    # a judge question's options are its statement: 正确/错误 themselves never change
    judged = question.qtype == "judge"
    parts = {
        "stem_unclear": [question.stem],
        "options_wrong": [question.stem] if judged else sorted(question.options),
        "answer_wrong": [question.stem, *correct],
        "explanation_wrong": [question.explanation],
    }
    shown = parts.get(reason) or [question.fingerprint()]
    return hashlib.sha256(json.dumps(shown, ensure_ascii=False).encode()).hexdigest()[:16]


def revision_update(latest: dict[str, Any], reason: FeedbackReason, comment: str = "") -> dict[str, Any]:
    """The state a finished thread re-enters the critic with: its latest version as the draft, the complaint
    as the report to answer, and the loop's counters reset for the new round."""
    question = Question.model_validate(latest["question"])
    issue = feedback_issue(reason, comment)
    return {
        "draft": latest["question"],
        "slice_id": latest["slice_id"],
        "report": VerificationReport.from_issues([issue]).model_dump(),
        "pending_human": {
            "issues": [issue.model_dump()],
            "reason": reason,
            "part": complained_part(question, reason),
        },
        "critic_failures": 0,
        "reroutes": 0,
        "best": None,
        "outcome": None,
        "failure": "",
        "escalate": False,
    }
