"""How calculator numbers are rounded, in one place so every calculator agrees.

- Money and areas: Decimal, 0.01, half-up (the cent on a tax form, the hundredth of a square metre).
- Rates and ratios: Decimal fractions, 0.0001, half-up (0.0305, never 3.05): four places keep every statutory
  rate exact (0.0005 stamp duty, 0.015 deed tax) and are finer than any exam option.
- A tax base is rounded before its rate is applied, as on a tax form, so `tax = round2(base × rate)` can be
  re-derived from the printed figures; VAT separated from an inclusive price is the one chain, price ÷
  (1 + rate) × rate, rounded once at the end as a reader works it (166,761.90, not 166,761.91 from a base
  rounded first). Loan figures are computed exactly and rounded once at the end, because
  the textbook's total interest uses the unrounded monthly payment.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
RATIO_STEP = Decimal("0.0001")
ZERO = Decimal("0.00")


def round2(value: Decimal) -> Decimal:
    """Money or area to the cent / hundredth."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def round4(value: Decimal) -> Decimal:
    """A rate or ratio as a fraction to four places."""
    return value.quantize(RATIO_STEP, rounding=ROUND_HALF_UP)
