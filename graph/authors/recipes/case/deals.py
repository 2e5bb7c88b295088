"""The deals a 案例题 is told about: what one transaction's parties agreed, how it reads as a situation, and
how each calculator the chapter's worked examples use reads its inputs off it.

A deal kind lists the figures it can ask (calculator and result, in the order a paper asks them); a chapter
is asked those whose calculator it has a worked example of, so every sub-question rests on its own textbook.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import calc
from graph.authors import scenes
from graph.authors.calc_text import (
    AREAS,
    Case,
    Mistake,
    Names,
    TransactionCosts,
    money,
    percent,
    vat_rate,
    yuan,
)
from retrieval.facts import Fact
from vocabulary.kinds import Mode

Ask = tuple[str, str]


@dataclass(frozen=True)
class Party:
    """The people of a case: buyer and seller, and the broker who brought them together."""

    names: Names
    agent: str
    agency: str

    @classmethod
    def drawn(cls, rng: random.Random, mode: Mode) -> Party:
        """Plain 周某 names in a 严谨 case, 周先生 / 李女士 in a 灵活 one; nobody shares a name."""
        pick = scenes.person if mode == "flexible" else scenes.plain_name
        buyer = pick(rng)
        seller = pick(rng, {buyer})
        return cls(Names(buyer=buyer, seller=seller), pick(rng, {buyer, seller}), scenes.agency(rng))


class Deal(Protocol):
    asks: ClassVar[tuple[Ask, ...]]

    def tells(self, example: Fact) -> bool: ...

    def chosen(self, asks: list[Ask], rng: random.Random) -> list[Ask]: ...

    def make(self, examples: dict[str, Fact], rng: random.Random, today: dt.date) -> Case | None: ...

    def situation(self, deal: Case, party: Party, rng: random.Random) -> str: ...

    def inputs(self, calculator: str, deal: Case) -> Case: ...

    def lead(self, calculator: str) -> str: ...

    def mistakes(self, calculator: str, field: str, deal: Case) -> tuple[Mistake, ...]: ...

    def derived(self, calculator: str, deal: Case) -> str: ...


def only(args: dict[str, Any], calculator: str) -> dict[str, Any]:
    """The deal's figures a calculator takes."""
    accepted = calc.REGISTRY[calculator].parameters["properties"]
    return {key: value for key, value in args.items() if key in accepted and value is not None}


def _deposit(price: float) -> str:
    return money(max(10_000.0, round(price * 0.02 / 10_000) * 10_000))


class Sale:
    """A second-hand home sold: the buyer's deed tax, the seller's VAT, surcharges and income tax, and the
    whole bill."""

    asks: ClassVar[tuple[Ask, ...]] = (
        ("deed_tax", "tax"),
        ("resale_vat", "vat"),
        ("resale_vat", "surcharges"),
        ("personal_income_tax", "tax"),
        ("transaction_costs", "total"),
    )
    _KEYS = (
        "price",
        "years_held",
        "only_home",
        "original_price",
        "costs",
        "deemed_rate",
        "urban_rate",
        "date",
    )

    def tells(self, example: Fact) -> bool:
        return True

    def chosen(self, asks: list[Ask], rng: random.Random) -> list[Ask]:
        """All the figures or all but one, in the order a paper asks them, so two sale cases of one chapter
        do not ask the same set."""
        if len(asks) <= 3 or rng.random() < 0.3:
            return asks
        left_out = rng.randrange(len(asks))
        return [ask for index, ask in enumerate(asks) if index != left_out]

    def make(self, examples: dict[str, Fact], rng: random.Random, today: dt.date) -> Case | None:
        """An example's sale retold with new figures; what it leaves open (the buyer's homes, the seller's
        other homes, the area) chosen to make the sale whole."""
        anchor = examples[rng.choice(sorted({calculator for calculator, _ in self.asks} & set(examples)))]
        args: dict[str, Any] = {
            "years_held": rng.choice((1, 3, 6)),
            "only_home": rng.random() < 0.5,
            **{key: value for key, value in anchor.args.items() if key in self._KEYS},
            "home_order": rng.choice((1, 1, 2)),
            "area": rng.choice(AREAS),
        }
        return TransactionCosts().vary(args, rng, today)

    def situation(self, deal: Case, party: Party, rng: random.Random) -> str:
        """The sale as a broker's file tells it, in one of several framings: who brought the parties
        together, then the sale, then what the contract settles (a deposit paid, or the taxes each side
        bears, or the online signing)."""
        names = party.names
        story = TransactionCosts().story(deal, names, "total")
        opening = rng.choice(
            (
                f"{party.agency}的经纪人{party.agent}促成了一笔存量住房买卖。",
                f"经{party.agency}的经纪人{party.agent}居间介绍，{names.buyer}看中了{names.seller}出售的一套住房。",
                f"{names.seller}委托{party.agency}出售名下住房，由经纪人{party.agent}负责接待买方。",
            )
        )
        closing = rng.choice(
            (
                f"双方签订了房屋买卖合同，{names.buyer}已支付定金{_deposit(deal.args['price'])}，"
                "合同约定交易税费由买卖双方按照法律规定各自承担。",
                "双方签订了房屋买卖合同，约定交易税费由买卖双方按照法律规定各自承担。",
                f"双方在{party.agent}的协助下签订了房屋买卖合同并完成网签，约定各自依法缴纳应由本方承担的税费。",
            )
        )
        return f"{opening}{story}{closing}"

    def inputs(self, calculator: str, deal: Case) -> Case:
        """The deed tax is levied on the price net of the seller's VAT, which its telling explains from the
        VAT-inclusive price the contract states."""
        args = deal.args
        if calculator != "deed_tax":
            return Case(only(args, calculator))
        base = calc.run("personal_income_tax", only(args, "personal_income_tax"))["base"]
        taxed = args["years_held"] < 2 and vat_rate(args)
        extras = {"gross": args["price"], "held": args["years_held"]} if taxed else {}
        bought = {"price": base, "area": args["area"], "home_order": args["home_order"], "date": args["date"]}
        return Case(bought, extras)

    def lead(self, calculator: str) -> str:
        return ""

    def mistakes(self, calculator: str, field: str, deal: Case) -> tuple[Mistake, ...]:
        return ()

    def derived(self, calculator: str, deal: Case) -> str:
        return ""


class Purchase:
    """A home bought with a bank loan: what each repayment method costs the buyer, who weighs both. The down
    payment is not asked: the price times the share the situation states is arithmetic, not a rule."""

    asks: ClassVar[tuple[Ask, ...]] = (
        ("equal_installment", "monthly_payment"),
        ("equal_principal", "first_month"),
        ("equal_installment", "total_interest"),
        ("equal_principal", "total_interest"),
    )
    _LEADS: ClassVar[dict[str, str]] = {
        "equal_installment": "若采用等额本息方式还款，",
        "equal_principal": "若采用等额本金方式还款，",
    }

    def tells(self, example: Fact) -> bool:
        """A worked example of a 公积金 loan lends the fund's money at the fund's rate, within its ceiling: a
        bank loan can neither borrow its rate nor quote it, so a chapter whose loans are all the fund's gets
        no bank-loan case."""
        return "公积金" not in example.source

    def chosen(self, asks: list[Ask], rng: random.Random) -> list[Ask]:
        """Three of the figures, in the order a paper asks them, so two loan cases of one chapter do not
        ask the same set: all four would leave a total interest no distractor beside the other method's
        interest and the monthly payment its total repaid gives away."""
        if len(asks) <= 3:
            return asks
        kept = sorted(rng.sample(range(len(asks)), 3))
        return [asks[index] for index in kept]

    def make(self, examples: dict[str, Fact], rng: random.Random, today: dt.date) -> Case | None:
        """The examples' down-payment share and loan rate with a new price and term; a chapter without a
        loan example has no rate to lend the case."""
        loans = [examples[c] for c in ("equal_installment", "equal_principal") if c in examples]
        if not loans:
            return None
        loan = rng.choice(loans).args
        down = examples.get("down_payment")
        ratio = down.args["ratio"] if down else rng.choice((0.2, 0.3))
        price = float(rng.randrange(15, 60) * 100_000)
        principal = float(round(price * (1 - ratio), 2))
        args = {"price": price, "ratio": ratio, "principal": principal, "annual_rate": loan["annual_rate"]}
        args["years"] = rng.choice((15, 20, 25, 30))
        args["date"] = scenes.day_in(rng, today.year, today).isoformat()
        return Case(args)

    def situation(self, deal: Case, party: Party, rng: random.Random) -> str:
        """The purchase and its loan, the broker weighing the two repayment methods with the buyer, in one
        of several framings."""
        args, names = deal.args, party.names
        when = scenes.month_text(dt.date.fromisoformat(args["date"]))
        paid = f"首付款比例为{percent(args['ratio'])}，其余房款"
        loan = f"向银行申请个人住房贷款，贷款期限{args['years']}年，年利率{percent(args['annual_rate'])}。"
        opening = rng.choice(
            (
                f"{when}，经{party.agency}的经纪人{party.agent}居间，{names.buyer}与{names.seller}签订房屋买卖合同，"
                f"购买{names.seller}名下一套存量住房，成交价为{money(args['price'])}。",
                f"{when}，{names.buyer}通过{party.agency}看中{names.seller}名下一套存量住房，经纪人{party.agent}"
                f"协助双方签订了房屋买卖合同，成交价为{money(args['price'])}。",
            )
        )
        closing = rng.choice(
            (
                f"{party.agent}向{names.buyer}介绍了等额本息和等额本金两种还款方式，供其比较后选择。",
                f"{names.buyer}尚未决定还款方式，请{party.agent}按等额本息和等额本金两种方式分别测算。",
            )
        )
        return f"{opening}{names.buyer}{paid}{loan}{closing}"

    def inputs(self, calculator: str, deal: Case) -> Case:
        """A loan telling tells the purchase it pays for from the price and the down payment."""
        args = deal.args
        return Case(
            only(args, calculator), {"price": args["price"], "down": args["price"] - args["principal"]}
        )

    def lead(self, calculator: str) -> str:
        return self._LEADS.get(calculator, "")

    def mistakes(self, calculator: str, field: str, deal: Case) -> tuple[Mistake, ...]:
        """The loan is the price less the down payment only the share tells: a reader may borrow the whole
        price; a method's first month is not its last. Mistakes of the loan itself, so a distractor need
        not be a sibling sub-question's key."""
        args = deal.args
        if calculator not in self._LEADS:
            return ()
        own = only(args, calculator)
        whole = {**own, "principal": args["price"]}
        found = [Mistake("把成交价全额当作了贷款本金，没有扣除首付款", whole)]
        months, rate = own["years"] * 12, own["annual_rate"] / 12
        # a mistaken figure no field gives is that field of a loan scaled to give it
        if field == "monthly_payment":
            last = Mistake("误按等额本金方式计算，得到的是末月还款额", own, "last_month", "equal_principal")
            found.append(last)
        elif field == "first_month":
            # P × r alone is the first month, P ÷ n + P × r, of a loan scaled by r ÷ (1 ÷ n + r)
            interest = {**own, "principal": own["principal"] * rate / (1 / months + rate)}
            found += [
                Mistake("把末月还款额当作了首月还款额", own, "last_month"),
                Mistake("只计算了首月利息，漏加了当月应还的本金", interest),
            ]
        else:
            # P × r × n is 等额本金's interest, P × r × (n + 1) ÷ 2, on a loan scaled by 2n ÷ (n + 1)
            simple = {**own, "principal": own["principal"] * 2 * months / (months + 1)}
            why = "按首月利息乘以还款月数计算，忽略了本金逐月减少"
            found.append(Mistake(why, simple, "total_interest", "equal_principal"))
        return tuple(found)

    def derived(self, calculator: str, deal: Case) -> str:
        """The step the situation leaves to the reader before a loan figure: the loan from the price and the
        down-payment share."""
        if calculator not in self._LEADS:
            return ""
        args = deal.args
        return (
            f"贷款本金=成交价×(1−首付款比例)={yuan(args['price'])}×(1−{percent(args['ratio'])})"
            f"={yuan(args['principal'])}元；"
        )


DEALS: tuple[Deal, ...] = (Sale(), Purchase())
