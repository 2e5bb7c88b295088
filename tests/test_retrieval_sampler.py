import json
from collections import Counter

import pytest

from retrieval.models import Mastery, Slice
from retrieval.sampler import NoSlicesError, SliceSampler
from vocabulary.records import SamplerState

WEIGHTS = {"掌握": 6.0, "熟悉": 3.0, "了解": 1.0}
TAX = ("第四篇  交易税费", "第七章  买方税费")
LOAN = ("第五篇  贷款与公积金", "第十章  商业贷款")
AREA = ("第七篇  面积与规划指标", "第十五章  面积测算")


def knowledge(number: int, chapter: tuple[str, str], mastery: Mastery, formula: bool = False) -> Slice:
    return Slice(
        id=f"kb:{number}",
        path=(*chapter, "第一节", f"知识点{number}"),
        mastery=mastery,
        text=f"知识点{number}的内容。",
        formulas=("应纳税额 = 计税依据 × 税率",) if formula else (),
    )


def three_levels(chapter: tuple[str, str], start: int, each: int) -> list[Slice]:
    levels: tuple[Mastery, ...] = ("掌握", "熟悉", "了解")
    return [
        knowledge(start + i * 3 + n, chapter, level) for i in range(each) for n, level in enumerate(levels)
    ]


SLICES = [
    *three_levels(TAX, 0, 2),
    knowledge(100, LOAN, "掌握", formula=True),
    knowledge(101, LOAN, "了解"),
    knowledge(102, LOAN, "熟悉", formula=True),
    knowledge(200, AREA, "了解"),
]


def test_first_draws_follow_the_mastery_weights() -> None:
    sampler = SliceSampler(three_levels(TAX, 0, 5), WEIGHTS, seed=7)
    drawn = Counter(sampler.draw(f"chat{n}").mastery for n in range(6000))
    assert drawn["掌握"] / 6000 == pytest.approx(0.6, abs=0.03)
    assert drawn["熟悉"] / 6000 == pytest.approx(0.3, abs=0.03)
    assert drawn["了解"] / 6000 == pytest.approx(0.1, abs=0.02)


def test_configured_weights_change_the_odds() -> None:
    sampler = SliceSampler(three_levels(TAX, 0, 5), {"掌握": 1, "熟悉": 1, "了解": 8}, seed=7)
    drawn = Counter(sampler.draw(f"chat{n}").mastery for n in range(3000))
    assert drawn["了解"] / 3000 == pytest.approx(0.8, abs=0.03)


def test_zero_weight_level_is_never_drawn() -> None:
    sampler = SliceSampler(SLICES, {"掌握": 1, "熟悉": 1, "了解": 0})
    assert all(sampler.draw("chat").mastery != "了解" for _ in range(30))


def test_draws_stay_in_the_chosen_chapters() -> None:
    sampler = SliceSampler(SLICES, WEIGHTS)
    assert {sampler.draw("chat", {LOAN, AREA}).chapter for _ in range(20)} == {LOAN, AREA}


def test_no_repeat_until_the_chapters_are_exhausted_then_a_new_cycle() -> None:
    sampler = SliceSampler(SLICES, WEIGHTS, seed=3)
    tax_ids = {s.id for s in SLICES if s.chapter == TAX}
    first = [sampler.draw("chat", {TAX}).id for _ in tax_ids]
    assert set(first) == tax_ids
    second = [sampler.draw("chat", {TAX}).id for _ in tax_ids]
    assert set(second) == tax_ids


def test_a_new_cycle_in_one_chapter_keeps_the_history_of_others() -> None:
    sampler = SliceSampler(SLICES, WEIGHTS, seed=3)
    loan_first = sampler.draw("chat", {LOAN}).id
    for _ in range(2 * len(SLICES)):
        sampler.draw("chat", {AREA})
    loan_rest = {sampler.draw("chat", {LOAN}).id for _ in range(2)}
    assert loan_first not in loan_rest


def test_one_chat_does_not_change_what_another_draws() -> None:
    alone = SliceSampler(SLICES, WEIGHTS, seed=2)
    expected = [alone.draw("two", {TAX, LOAN}).id for _ in range(6)]
    shared = SliceSampler(SLICES, WEIGHTS, seed=2)
    drawn = []
    for _ in range(6):
        shared.draw("one", {TAX, LOAN})
        drawn.append(shared.draw("two", {TAX, LOAN}).id)
    assert drawn == expected


def test_same_seed_same_sequence_other_seed_other_sequence() -> None:
    def sequence(seed: int) -> list[str]:
        sampler = SliceSampler(SLICES, WEIGHTS, seed=seed)
        return [sampler.draw("chat").id for _ in range(len(SLICES))]

    assert sequence(1) == sequence(1)
    assert any(sequence(1) != sequence(seed) for seed in range(2, 6))


def test_a_chat_resumes_from_its_saved_state() -> None:
    uninterrupted = SliceSampler(SLICES, WEIGHTS, seed=5)
    expected = [uninterrupted.draw("chat").id for _ in range(8)]

    before = SliceSampler(SLICES, WEIGHTS, seed=5)
    drawn = [before.draw("chat").id for _ in range(4)]
    saved = json.dumps(before.states["chat"].to_dict())
    after = SliceSampler(SLICES, WEIGHTS, seed=5)
    after.states["chat"] = SamplerState.from_dict(json.loads(saved))
    drawn += [after.draw("chat").id for _ in range(4)]
    assert drawn == expected


def test_calculation_only_draws_slices_with_formulas() -> None:
    sampler = SliceSampler(SLICES, WEIGHTS)
    assert {sampler.draw("chat", calculation_only=True).id for _ in range(6)} == {"kb:100", "kb:102"}


def test_empty_selection_names_the_chapters() -> None:
    sampler = SliceSampler(SLICES, WEIGHTS)
    with pytest.raises(NoSlicesError, match=r"no calculation slices to draw from in 第七篇.*第十五章"):
        sampler.draw("chat", {AREA}, calculation_only=True)
    with pytest.raises(NoSlicesError, match="第九篇  不存在 > 第九十章  无"):
        sampler.draw("chat", {("第九篇  不存在", "第九十章  无")})


def test_empty_selection_mentions_levels_weighted_zero() -> None:
    sampler = SliceSampler(SLICES, {"掌握": 1, "熟悉": 1})
    with pytest.raises(NoSlicesError, match=r"weighted 0.*了解"):
        sampler.draw("chat", {AREA})


def test_malformed_saved_state_is_rejected_with_the_field() -> None:
    with pytest.raises(ValueError, match="'used'"):
        SamplerState.from_dict({"used": "kb:1", "draws": 1})
    with pytest.raises(ValueError, match="'draws'"):
        SamplerState.from_dict({"used": [], "draws": -1})
    with pytest.raises(ValueError, match="'visits'"):
        SamplerState.from_dict({"used": [], "draws": 0, "visits": {"kb:1": -1}})


def test_a_slice_met_again_counts_its_visits_across_cycles_and_restarts() -> None:
    sampler = SliceSampler(SLICES, WEIGHTS, seed=2)
    loan = {LOAN}
    for _ in range(3):  # one whole cycle of the three loan slices
        sampler.draw("chat", loan)
    assert sampler.states["chat"].visits == {s.id: 1 for s in SLICES if s.chapter == LOAN}
    saved = json.loads(json.dumps(sampler.states["chat"].to_dict()))
    restarted = SliceSampler(SLICES, WEIGHTS, seed=2)
    restarted.states["chat"] = SamplerState.from_dict(saved)
    again = restarted.draw("chat", loan)
    assert restarted.states["chat"].visits[again.id] == 2


def test_a_state_saved_before_visits_were_counted_still_loads() -> None:
    state = SamplerState.from_dict({"used": ["kb:1"], "draws": 1})
    assert state.visits == {}
