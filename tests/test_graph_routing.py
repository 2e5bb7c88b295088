"""The decision after the critic, case by case, and the expert choice."""

from graph.routing import after_critic, after_router, choose_expert

LIMITS = {"max_critic_failures": 3, "max_reroutes": 2}


def state(status: str, severities: list[str], failures: int = 1, reroutes: int = 0, escalate: bool = False):
    issues = [{"type": "format_error", "severity": s, "detail": "x"} for s in severities]
    return {
        "report": {"status": status, "issues": issues},
        "limits": LIMITS,
        "critic_failures": failures,
        "reroutes": reroutes,
        "escalate": escalate,
    }


def test_passed_goes_to_done():
    assert after_critic(state("passed", [], failures=0)) == "done"


def test_minor_issues_under_the_cap_go_to_the_fixer():
    assert after_critic(state("needs_revision", ["minor", "minor"])) == "fixer"


def test_a_major_issue_goes_back_to_the_router():
    assert after_critic(state("needs_revision", ["minor", "major"])) == "router"


def test_a_fixer_that_could_not_repair_escalates_to_the_router():
    assert after_critic(state("needs_revision", ["minor"], escalate=True)) == "router"


def test_fatal_reports_reroute_while_reroutes_remain():
    assert after_critic(state("fatal", ["major"], reroutes=1)) == "router"
    assert after_critic(state("fatal", ["major"], reroutes=2)) == "self_heal"


def test_the_caps_end_in_self_heal():
    assert after_critic(state("needs_revision", ["minor"], failures=3)) == "self_heal"
    assert after_critic(state("needs_revision", ["major"], reroutes=2)) == "self_heal"


def test_expert_choice():
    assert choose_expert(1, 1, 30, 1, False)[0] == "finance"
    assert choose_expert(0, 0, 5, 0, True)[0] == "specialist", "no calculator, nothing to verify numbers with"
    assert choose_expert(1, 0, 0, 2, True)[0] == "finance", "calculation-only requests use a calculator"
    assert choose_expert(1, 0, 0, 2, False)[0] == "specialist"
    assert after_router({"route": {"agent": "finance"}}) == "finance"
    assert after_router({"route": {"agent": "specialist"}}) == "specialist"


def test_an_unreachable_model_ends_the_loop_instead_of_rerouting():
    unreachable = state("fatal", ["major"], reroutes=0) | {"unavailable": True}
    assert after_critic(unreachable) == "self_heal"
