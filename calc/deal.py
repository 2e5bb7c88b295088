"""The deal itself: how far the price moved in negotiation, and what earnest money is worth on default."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from calc.rounding import round2, round4

EARNEST_CAP_RATIO = Decimal("0.20")  # 民法典 586: the excess has no earnest effect


def price_diff_ratio(*, listing_price: Decimal, deal_price: Decimal) -> dict[str, Any]:
    return {"ratio": round4((listing_price - deal_price) / listing_price)}


def earnest_money(*, contract_price: Decimal, earnest: Decimal, defaulting_party: str) -> dict[str, Any]:
    """`refund` is what the payer gets back. The part above the 20% cap is plain money, not earnest, so it is
    returned whoever defaults: a defaulting payer loses only the effective earnest, a defaulting recipient
    returns double the effective earnest plus the excess (民法典 586–587)."""
    cap = round2(contract_price * EARNEST_CAP_RATIO)
    effective = min(round2(earnest), cap)
    excess = round2(earnest) - effective
    refund = {"payer": excess, "recipient": 2 * effective + excess, "none": round2(earnest)}[defaulting_party]
    return {"cap": cap, "effective_earnest": effective, "refund": refund}
