"""Holding-period thresholds → 灵活 cases told with the deed's date and a sale date, as the field's papers
set them: "2024年3月18日，周女士缴纳契税并取得一套住房的不动产权证书；2026年1月10日，她对外销售这套住房时
免征增值税。"
The learner works out how long the home was held and compares it with the bound
(满2年, 5年以上, 不满2年).

The trap sits at the bound: a sale a month or two short of the anniversary, or just past it, rather than
3/4/5年 against 1年. Only a rule whose condition reads as one acquisition, one bound and one sale
("个人将购买2年以上（含2年）的住房对外销售", "个人销售持有满2年的住房", "购买经济适用住房满5年上市转让")
is told: any further condition (唯一住房, a city, a policy date before which it held) would be a fact the
case leaves out.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, replace

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.threshold import (
    Bound,
    bounds,
    consequence,
    tangled,
    usable,
)
from retrieval.facts import Fact, FactKind
from vocabulary.kinds import QuestionType

_PARTIES = ("个人", "卖方", "出售人", "出卖人", "售房人", "购房人", "业主", "纳税人", "房屋所有人")
_ACQUIRE = ("购买", "购置", "购入", "持有", "取得")
_SELL = ("对外销售", "对外出售", "上市转让", "上市交易", "上市出售", "销售", "出售", "转让")
_HOMES = ("房", "住宅", "公寓")
_OBJECT = re.compile(r"[\u4e00-\u9fff]{1,10}")
# A rule in force only from a year on ("2026年起，…"): its cases are sold in that year or later.
_SINCE = re.compile(r"^自?(\d{4})年(?:\d{1,2}月(?:\d{1,2}日)?)?起，?")
_YEAR = re.compile(r"\d{4}年")
_YEAR_NUMBER = re.compile(r"(\d{4})年")
_BOUND_NOTE = re.compile(r"^[（(]含[^）)]*[）)]")
# Comparators that leave the anniversary itself outside ("超过2年"): a sale days after it is no clear case.
_OPEN_LOWER = ("超过", "高于", "多于", ">", "＞")
_CLOSED_UPPER = ("不超过", "以下", "以内", "之内", "≤")
_MODAL = ("可以", "应当", "有权", "必须", "不得")
# A seller named before a bare holding bound ("卖方持有不满2年的"): the rule is of a home's sale.
_SELLERS = ("卖方", "出售人", "出卖人", "售房人")
# How the textbook counts a holding period ("持有年限自契税完税凭证上注明的时间…起算，至出售之日止").
_COUNTED = re.compile(
    r"[^。；\n]*(?:持有|购房|购买)[^。；，\n]{0,4}(?:年限|期限|时间)(?:自|从)[^。；\n]{4,80}?起算[^。；\n]*"
)
# A consequence said of a party outright ("缴纳增值税及附加"), not a clause about some other sum.
_VERDICTS = ("缴纳", "免征", "征收", "不征", "应当", "需要", "无需", "可以")
# A consequence that already says what the rule makes of the seller ("可以上市转让").
_OWN_MODAL = ("应当", "必须", "需要", "无需", "可以", "有权", "不得", "不能")
# How a choice among sellers opens: one year's sales, told in several ways so a paper's questions differ.
FRAMES = (
    "{year}年，某房地产经纪门店促成了几宗二手{home}交易。下列卖方中，{asked}的是（　）。",
    "某税务窗口整理了{year}年办理的几笔个人{home}{sell}业务。下列卖方中，{asked}的是（　）。",
    "{year}年，几位业主分别{sell}了名下的{home}。下列卖方中，{asked}的是（　）。",
    "某小区的几户业主于{year}年先后{sell}了自己的{home}。下列业主中，{asked}的是（　）。",
)
_MULTI = 5


@dataclass(frozen=True)
class Sale:
    """The rule told as a sale: what is bought, how its sale is said, and the bound in months."""

    home: str
    sell: str
    months: int
    lower: bool  # the consequence holds from the bound on (满2年), not below it (不满2年)
    exact: bool  # a sale just past the anniversary falls clearly on one side
    since: int
    bound: str  # the anniversary's distance: 2年


@dataclass(frozen=True)
class Held:
    """One seller's dates and where the holding period falls."""

    bought: dt.date
    sold: dt.date
    meets: bool
    certified: dt.date | None = None  # the certificate's day when it came after the deed tax was paid

    def period(self) -> str:
        months = (self.sold.year - self.bought.year) * 12 + self.sold.month - self.bought.month
        months -= self.sold.day < self.bought.day
        years, rest = divmod(months, 12)
        text = (f"{years}年" if years else "") + (f"{rest}个月" if rest else "")
        days = (self.sold - _shift(self.bought, months, self.bought.day)).days
        if days and not rest:  # just past an anniversary: the days say the bound was passed, not missed
            text += f"零{days}天"
        return text or "不到1个月"


def _strip_party(text: str) -> str:
    for party in _PARTIES:
        if text.startswith(party):
            return text.removeprefix(party).removeprefix("将")
    return text.removeprefix("将")


def sale_of(fact: Fact) -> Sale | None:
    """The rule's condition read as "acquire – bound – home – sell"; None when it says anything more."""
    condition = fact.condition.strip().rstrip("，,。；;").removesuffix("的")
    since_match = _SINCE.match(condition)
    condition = condition[since_match.end() :] if since_match else condition
    rule = replace(fact, condition=condition)  # the date it holds from is kept apart, below
    if not usable(rule) or not consequence(rule) or tangled(rule) or fact.unit not in ("年", "个月"):
        return None
    if any(word in fact.subject for word in ("但", "，")) or _YEAR.search(fact.subject):
        return None
    # the rule is told as in force: no sale dated before a year its source names ("自2026年1月1日起")
    since = max([0, *(int(y) for y in _YEAR_NUMBER.findall(fact.source) if 2000 <= int(y) <= 2035)])
    if _YEAR.search(condition) or "、" in condition:
        return None
    found = [b for b in bounds(condition) if fact.value in (b.low, b.high) and b.unit == fact.unit]
    if len(bounds(condition)) != 1 or not found:
        return None
    bound: Bound = found[0]
    before = _strip_party(condition[: bound.start])
    after = _BOUND_NOTE.sub("", condition[bound.end :])
    home, sell = _parts(before, after) if after else _sold(condition[: bound.start], fact.subject)
    if not home or not sell or not home.endswith(_HOMES):
        return None
    span = condition[bound.start : bound.end]
    lower = bound.low is not None
    exact = not span.startswith(_OPEN_LOWER) if lower else not any(w in span for w in _CLOSED_UPPER)
    months = int(fact.value or 0) * (12 if fact.unit == "年" else 1)
    if months < 3 or months != (fact.value or 0) * (12 if fact.unit == "年" else 1):
        return None
    return Sale(home, sell, months, lower, exact, since, f"{fact.value:g}{fact.unit}")


def _parts(before: str, after: str) -> tuple[str, str]:
    """(home, sale verb) of "购买|…的住房对外销售", "销售持有|…的住房" or "购买经济适用住房|…上市转让"."""
    sell = next((s for s in _SELL if before.startswith(s)), "")
    rest = before.removeprefix(sell)
    acquire = next((a for a in _ACQUIRE if rest.startswith(a)), "")
    if not acquire:
        return "", ""
    rest = rest.removeprefix(acquire)
    if rest:  # "购买经济适用住房" before the bound: the sale follows it
        tail = next((s for s in _SELL if after == s), "")
        return (rest, tail) if not sell and _OBJECT.fullmatch(rest) else ("", "")
    if not after.startswith("的"):
        return "", ""
    after = after.removeprefix("的")
    tail = next((s for s in _SELL if after.endswith(s)), "")
    home = after.removesuffix(tail)
    if bool(tail) == bool(sell) or not _OBJECT.fullmatch(home):
        return "", ""
    return home, sell or tail


def _sold(before: str, subject: str) -> tuple[str, str]:
    """(home, sale verb) of a seller's bare holding bound ("卖方持有不满2年的，缴纳增值税及附加"): the seller
    sells a home, and the consequence is one the seller bears."""
    if before.removeprefix("将") not in (f"{party}持有" for party in _SELLERS):
        return "", ""
    return ("住房", "出售") if subject.startswith(_VERDICTS) else ("", "")


def rule_lead(fact: Fact) -> str:
    """The rule as the textbook words it: a condition closes with 的 only where the source closes it so
    ("…的住房对外销售的，免征增值税", but "…持有2年以上（含2年）的住房，免征增值税")."""
    condition = fact.condition.strip().rstrip("，,。；;").removesuffix("的")
    closing = "的" if f"{condition}的" in fact.source else ""
    return f"教材规定，{condition}{closing}，{fact.subject}。"


def _shift(day: dt.date, months: int, day_of: int) -> dt.date:
    total = day.year * 12 + day.month - 1 + months
    return dt.date(total // 12, total % 12 + 1, day_of)


def _held(sale: Sale, kind: str, rng: random.Random, year: int) -> Held:
    """A purchase and a sale in `year`: `exact` a few days past the anniversary, `short` one to three months
    before it, `over` well past it, `under` well before it."""
    sold = dt.date(year, rng.randint(1, 12), rng.randint(10, 28))
    early = rng.randint(1, sold.day - 1)
    back = {
        "exact": sale.months,
        "short": sale.months - rng.randint(1, 3),
        "over": sale.months + rng.randint(3, max(4, sale.months // 3)),
        "under": sale.months - rng.randint(max(3, sale.months // 4), max(4, sale.months // 2)),
    }[kind]
    day_of = early if kind == "exact" else rng.randint(1, 28)
    if kind == "short":
        day_of = min(28, sold.day + rng.randint(0, 28 - sold.day))
    bought = _shift(sold, -back, day_of)
    reached = sold >= _shift(bought, sale.months, bought.day)
    return Held(bought, sold, reached == sale.lower)


def _day(day: dt.date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def acquired(home: str) -> str:
    """How a case dates the start of holding. Tax rules count it from the 契税完税凭证 or the 不动产权证书,
    not from a purchase, so a case dated by 购买 leaves the key disputable; with both on one day it is
    the same whichever the textbook counts from."""
    return f"缴纳契税并取得一套{home}的不动产权证书"


def _certified(held: Held, sale: Sale, rng: random.Random) -> Held:
    """The certificate issued some weeks after the deed tax was paid, for a textbook that counts from the
    earlier of the two: a sale just past the deed's anniversary is then still short of the certificate's,
    the trap of counting from the later day."""
    past = (held.sold - _shift(held.bought, sale.months, held.bought.day)).days
    late = past + rng.randint(5, 30) if 0 <= past <= 60 else rng.randint(15, 60)
    return replace(held, certified=held.bought + dt.timedelta(days=late))


def _from_earlier(brief: Brief) -> bool:
    """Whether the textbook counts holding from the earlier of the deed-tax day and the certificate's."""
    rule = counted(brief)
    found = _COUNTED.search(rule.source) if rule is not None else None
    return found is not None and "较早" in found.group() and "契税" in found.group()


def _dated(held: Held, home: str, who: str = "") -> str:
    """The start of holding as the case tells it: one day for both, or the two days apart."""
    if held.certified is None:
        return f"{who}{acquired(home)}" if who else f"于{_day(held.bought)}{acquired(home)}"
    if who:
        return f"{who}缴纳契税，{_day(held.certified)}取得一套{home}的不动产权证书"
    return f"于{_day(held.bought)}缴纳契税，{_day(held.certified)}取得一套{home}的不动产权证书"


def counted(brief: Brief) -> Fact | None:
    """The textbook's own sentence on how a holding period is counted, when it has one."""
    return next((fact for fact in brief.facts if _COUNTED.search(fact.source)), None)


def counting_lead(fact: Fact, brief: Brief) -> tuple[str, list[str]]:
    """The rule, and the textbook's counting sentence after it, with the sources they quote."""
    rule = counted(brief)
    if rule is None or rule.source == fact.source:
        return rule_lead(fact), [fact.source]
    found = _COUNTED.search(rule.source)
    assert found is not None
    return f"{rule_lead(fact)}{found.group().strip('，')}。", [fact.source, rule.source]


def otherwise(subject: str, other: str | None) -> str:
    """What holds for a seller on the other side of the bound: the textbook's rule for that side when it has
    one ("免征增值税"), else the consequence turned as a reader says it ("不能免征增值税", "无需缴纳…")."""
    if other:
        return duty(other)
    for word, turned in (("免", "不能"), ("可以", "不能"), ("应当", "无需"), ("必须", "无需")):
        if subject.startswith(word):
            return f"{turned}{subject.removeprefix(word) if word in ('可以', '应当', '必须') else subject}"
    if subject.startswith(("缴纳", "征收", "按", "全额")):
        return f"无需{subject}"
    return f"不属于{duty(subject)}的情形"


def _opposite(fact: Fact, sale: Sale, brief: Brief) -> str | None:
    """The consequence of the textbook's rule for the other side of the same bound on the same sale."""
    for other in brief.facts:
        if other.id == fact.id or other.kind != "threshold" or not consequence(other):
            continue
        told = sale_of(other)
        if told and told.months == sale.months and told.lower != sale.lower and told.home == sale.home:
            return other.subject
    return None


def _reasoning(sale: Sale, held: Held, subject: str, other: str | None = None) -> str:
    reached = "已满" if held.meets == sale.lower else "不满"
    verdict = duty(subject) if held.meets else otherwise(subject, other)
    if held.certified is None:
        start = f"自{_day(held.bought)}完税并取得不动产权证书"
    else:
        start = f"自较早的契税完税日{_day(held.bought)}起算（不动产权证书{_day(held.certified)}才取得）"
    return f"{start}至{_day(held.sold)}{sale.sell}，持有{held.period()}，{reached}{sale.bound}，{verdict}"


def sale_year(sale: Sale, rng: random.Random) -> int:
    """The year a case's sales take place: one year for all sellers of a question, never before the rule."""
    return max(rng.choice((2025, 2026)), sale.since)


def frames(asked: str) -> list[str]:
    """The openings that fit the question: a tax office handles only the sales a tax rule is about."""
    return [frame for frame in FRAMES if "税" in asked or "税务" not in frame]


def duty(consequence: str) -> str:
    """The consequence as what the rule makes of a seller ("应当缴纳增值税及附加"): a duty told bare
    ("缴纳增值税及附加") reads as a fact of the story, not as the point to judge."""
    if consequence.startswith(_OWN_MODAL):
        return consequence
    if consequence.startswith(("缴纳", "征收", "按", "全额")):
        return f"应当{consequence}"
    return consequence  # "免征增值税" is already what the rule grants


def waived(consequence: str) -> str:
    """The other side of the bound, as a paper asks it and the critic reads it: "不属于应当缴纳增值税及附加
    情形" (a turned modal such as "无需缴纳" would read to the critic as a claim of its own)."""
    return f"不属于{duty(consequence)}情形"


class Holding:
    """The sale is told in the rule's own verb (对外销售, 上市转让): the critic reads the case against it."""

    name = "holding"
    kinds: tuple[FactKind, ...] = ("threshold",)
    qtypes: tuple[QuestionType, ...] = ("single", "multi", "judge")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible":
            return None
        sale = sale_of(fact)
        if sale is None:
            return None
        if brief.task.qtype == "judge":
            return self._judge(fact, sale, brief)
        return self._choice(fact, sale, brief)

    def _kinds(self, sale: Sale) -> tuple[list[str], list[str]]:
        """(kinds on the side where the consequence holds, kinds on the other), boundary kinds first."""
        past, before = ["exact", "over"] if sale.exact else ["over"], ["short", "under"]
        return (past, before) if sale.lower else (before, past)

    def _judge(self, fact: Fact, sale: Sale, brief: Brief) -> Written | None:
        rng = brief.rng
        meets, misses = self._kinds(sale)
        kind = rng.choice([meets[0], meets[0], misses[0], misses[0], *meets[1:], *misses[1:]])
        held = _held(sale, kind, rng, sale_year(sale, rng))
        if _from_earlier(brief) and rng.random() < 0.5:
            held = _certified(held, sale, rng)
        person = scenes.person(rng)
        pronoun = "她" if person.endswith("女士") else "他"
        stem = (
            f"{_day(held.bought)}，{_dated(held, sale.home, person)}；{_day(held.sold)}，{pronoun}"
            f"{sale.sell}这套{sale.home}时{duty(fact.subject)}。（　）"
        )
        lead, sources = counting_lead(fact, brief)
        analysis = f"{lead}{person}{_reasoning(sale, held, fact.subject, _opposite(fact, sale, brief))}。"
        return O.judge([fact.id], stem, held.meets, analysis, sources, difficulty=0.5)

    def _choice(self, fact: Fact, sale: Sale, brief: Brief) -> Written | None:
        rng = brief.rng
        meets, misses = self._kinds(sale)
        pool_meets = [meets[0], *meets, *meets]
        pool_misses = [misses[0], *misses, *misses]
        qtype = brief.task.qtype
        if qtype == "multi":  # five sellers, two to four of them on the asked side, boundary cases among both
            count = rng.randint(2, 4)
            right = [meets[0], *(rng.choice(pool_meets) for _ in range(count - 1))]
            wrong = [misses[0], *(rng.choice(pool_misses) for _ in range(_MULTI - count - 1))]
            picked = [(kind, True) for kind in right] + [(kind, False) for kind in wrong]
            wanted = True
        else:
            wanted = rng.random() < 0.6 or any(m in fact.subject for m in _MODAL)
            few, many = (meets, misses) if wanted else (misses, meets)
            picked = [(few[0], True)] + [(kind, False) for kind in (many[0], many[0], many[-1])]
        year = sale_year(sale, rng)
        taken: set[str] = set()
        choices = []
        other = _opposite(fact, sale, brief)
        earlier = _from_earlier(brief)
        for kind, right in picked:
            held = _held(sale, kind, rng, year)
            if earlier and rng.random() < 0.4:
                held = _certified(held, sale, rng)
            person = scenes.plain_name(rng, taken)
            taken.add(person)
            text = f"{person}{_dated(held, sale.home)}，{_day(held.sold)}{sale.sell}"
            choices.append(O.Option(text, right, f"：{person}{_reasoning(sale, held, fact.subject, other)}"))
        if len({c.text for c in choices}) < len(choices):
            return None
        asked = duty(fact.subject) if wanted else waived(fact.subject)
        stem = rng.choice(frames(asked)).format(year=year, home=sale.home, sell=sale.sell, asked=asked)
        rule, sources = counting_lead(fact, brief)
        return O.choice(
            [fact.id],
            qtype,
            stem,
            O.arrange(choices, rng),
            sources,
            lead=rule,
            difficulty=0.55,
        )


RECIPE = Holding()
