"""Reading a calculator's arguments from the text a learner reads (a stem, a case, a worked example).

The critic must not trust an author's own arguments: it reads the figures a learner sees and recomputes, and
it asks which assumptions the answer depends on that the text never states (市区 or 县城, 核定 or 差额, which
home, which date). A number is bound to an argument by the words that name it ("建筑面积89平方米") and by its
unit, never by its position; the subject's words live here, beside the calculators, not in graph/.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from calc import land, policy, taxes
from calc.errors import CalcError
from calc.labels import value_words
from calc.registry import REGISTRY, lookup, run
from calc.schema import DATE_FORMAT

MONEY, AREA, FRACTION, YEARS, AGE, COUNT, TIMES, NUMBER, UNIT_PRICE, MONTHS = (
    "money",
    "area",
    "fraction",
    "years",
    "age",
    "count",
    "times",
    "number",
    "unit_price",
    "months",
)
_BREAKS = "。；;\n"
_CLAUSE = "，,。；;：:\n"
_MAX_GAP = 14  # characters between a label and its number ("合同约定王某于签约当日向李某支付定金" is too far)
LOWEST_DOWN_PAYMENT = 0.15  # 商业贷款最低首付比例 (calc registry: down_payment)

# ---------------------------------------------------------------- numbers and units

_ARABIC = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_CHINESE = r"[零〇一二两三四五六七八九十百千]+"
_CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_POWERS = {"十": 10, "百": 100, "千": 1000}
# (spelling, kind, multiplier), longest spelling first so 万平方米 wins over 万 and 元/平方米 over 元.
_UNITS: tuple[tuple[str, str, int | str], ...] = (
    (r"元\s*/\s*(?:平方米|㎡|平米)|元每平方米", UNIT_PRICE, 1),
    (r"万平方米", AREA, 10_000),
    (r"平方米|平米|㎡|m²", AREA, 1),
    (r"亿元|亿", MONEY, 100_000_000),
    (r"万元|万(?!分)", MONEY, 10_000),
    (r"元", MONEY, 1),
    (r"%|％", FRACTION, "0.01"),
    (r"成(?![交本员立功熟果就品为])", FRACTION, "0.1"),
    (r"周岁|岁", AGE, 1),
    (r"个月", MONTHS, 1),
    (r"年期|年", YEARS, 1),
    (r"倍", TIMES, 1),
    (r"本", COUNT, 1),
)
_UNIT_RE = [(re.compile(spelling), kind, Decimal(str(factor))) for spelling, kind, factor in _UNITS]
_QUANTITY = re.compile(
    r"(?P<pre>不满|不足|未满|已满|满|超过|不超过|不低于|不少于)?\s*"
    rf"(?P<num>{_ARABIC}|(?<![第唯统单同每之万任逐其另]){_CHINESE})\s*"
    rf"(?P<unit>{'|'.join(spelling for spelling, _, _ in _UNITS)})?"
    r"(?P<post>以上|以下|以内|内)?"
)
_HALF_YEAR = re.compile(
    rf"(?P<pre>不满|不足|未满|已满|满|超过)?\s*(?:(?P<num>{_ARABIC}|{_CHINESE})\s*年半|半年)"
)
_SHARE_OF = re.compile(rf"(?P<denom>百|千|万)分之(?P<num>{_ARABIC}|{_CHINESE})")
_FACTOR = re.compile(rf"[×xX*]\s*(?P<num>{_ARABIC})(?!\s*(?:%|％|万|元|平|年|\d))")
_DATE = re.compile(
    r"(?P<y>(?:19|20)\d{2})\s*年(?:\s*(?P<m>\d{1,2})\s*月(?:\s*(?P<d>\d{1,2})\s*[日号])?)?"
    r"|(?P<iy>(?:19|20)\d{2})[-/](?P<im>\d{1,2})[-/](?P<id>\d{1,2})"
)


def chinese_number(text: str, digit_runs: bool = True) -> Decimal | None:
    """一百四十 → 140, 两 → 2, 八五 → 85 (as in 八五成); None for anything that is not a numeral.

    `digit_runs=False` reads two digits in a row as a list ("一二"), not a number: a textbook's prose has
    such lists, a stem's 八五成 does not."""
    if not text or any(ch not in _CN_DIGITS and ch not in _CN_POWERS for ch in text):
        return None
    if digit_runs and all(ch in _CN_DIGITS for ch in text):
        return Decimal("".join(str(_CN_DIGITS[ch]) for ch in text))
    total, digit = 0, None
    for ch in text:
        if ch in _CN_DIGITS:
            if digit is not None and not digit_runs:
                return None
            digit = _CN_DIGITS[ch]
        else:
            total += (1 if digit is None else digit) * _CN_POWERS[ch]
            digit = None
    return Decimal(total + (digit or 0))


def parse_number(text: str) -> Decimal | None:
    """An Arabic ("4,400,000", "3.05") or Chinese ("三", "一百四十") number, exactly."""
    try:
        return Decimal(text.replace(",", "").strip())
    except InvalidOperation:
        return chinese_number(text.strip())


@dataclass(frozen=True)
class Quantity:
    """A number with what its unit makes it: a kind (money, area, fraction …) and the value in base units
    (元, ㎡, a fraction); `bound` keeps 满 / 不满 / 以上 as ge / lt / gt / le."""

    kind: str
    value: Decimal
    start: int
    end: int
    bound: str = ""


def _bound(pre: str | None, post: str | None) -> str:
    if pre in ("不满", "不足", "未满"):
        return "lt"
    if pre in ("满", "已满", "不低于", "不少于") or post == "以上":
        return "ge"
    if pre == "超过":
        return "gt"
    if pre == "不超过" or post in ("以下", "以内"):
        return "le"
    return ""


def _unit_of(spelling: str) -> tuple[str, Decimal]:
    for pattern, kind, factor in _UNIT_RE:
        if pattern.fullmatch(spelling):
            return kind, factor
    return NUMBER, Decimal(1)


def find_quantities(text: str) -> list[Quantity]:
    """Every number in `text` with its unit; calendar dates are left to `find_dates`."""
    masked = _DATE.sub(lambda m: " " * len(m.group()), text)
    found: list[Quantity] = []
    taken: set[int] = set()
    for match in _SHARE_OF.finditer(masked):
        value = parse_number(match["num"])
        if value is not None:
            scale = {"百": 100, "千": 1000, "万": 10_000}[match["denom"]]
            found.append(Quantity(FRACTION, value / scale, match.start(), match.end()))
            taken.update(range(match.start(), match.end()))
    for match in _HALF_YEAR.finditer(masked):
        whole = parse_number(match["num"]) if match["num"] else Decimal(0)
        if whole is not None:
            bound = _bound(match["pre"], None)
            found.append(Quantity(YEARS, whole + Decimal("0.5"), match.start(), match.end(), bound))
            taken.update(range(match.start(), match.end()))
    for match in _FACTOR.finditer(masked):
        factor = parse_number(match["num"])
        if factor is not None:  # "60×1,560×1%" is arithmetic, not a multiple
            found.append(Quantity(TIMES, factor, match.start(), match.end()))
            taken.update(range(match.start(), match.end()))
    for match in _QUANTITY.finditer(masked):
        if match.start("num") in taken:
            continue
        raw, unit = match["num"], match["unit"]
        arabic = raw[0].isdigit()
        if not arabic and not unit:
            continue  # a bare Chinese numeral is a word (一套, 两人), not a figure
        value = parse_number(raw)
        if value is None:
            continue
        kind, factor = _unit_of(unit) if unit else (NUMBER, Decimal(1))
        if kind == FRACTION and unit.startswith("成") and not arabic and len(raw) == 2 and "十" not in raw:
            value = value / 10  # 八五成 is 8.5成
        found.append(
            Quantity(kind, value * factor, match.start(), match.end(), _bound(match["pre"], match["post"]))
        )
    return sorted(found, key=lambda q: q.start)


# ---------------------------------------------------------------- dates


@dataclass(frozen=True)
class DateMention:
    """A calendar date as precise as the text gives it: "2026年3月" is the whole of March."""

    first: dt.date
    last: dt.date
    start: int
    end: int
    role: str  # event, acquired, purchase, completion, grant, reference


def _period(year: int, month: int | None, day: int | None) -> tuple[dt.date, dt.date] | None:
    try:
        if month is None:
            return dt.date(year, 1, 1), dt.date(year, 12, 31)
        if day is None:
            following = dt.date(year + month // 12, month % 12 + 1, 1)
            return dt.date(year, month, 1), following - dt.timedelta(days=1)
        day_itself = dt.date(year, month, day)
    except ValueError:
        return None
    return day_itself, day_itself


_ROLE_AFTER = (
    ("reference", re.compile(r"\s*(?:以前|之前|以后|之后|前|后|起|至今|止)")),
    ("completion", re.compile(r"[^，,。；]{0,6}?(?:竣工|建成|建造|落成)")),
    ("grant", re.compile(r"[^，,。；]{0,10}?出让")),
    ("acquired", re.compile(r"[^，,。；]{0,12}?(?:购入|买下|买入|购得|取得|购置)")),
    ("purchase", re.compile(r"[^，,。；]{0,12}?(?:购买|购房|买房)")),
)
_ROLE_BEFORE = (
    ("completion", re.compile(r"(?:竣工|建成)(?:年份|时间|日期|年代)?(?:为|是|于|在)?\s*$")),
    ("grant", re.compile(r"出让(?:年份|时间|日期)?(?:为|是|于|在)?\s*$")),
    ("acquired", re.compile(r"(?:购入|取得|购房)(?:年份|时间|日期)(?:为|是|于|在)?\s*$")),
)


def find_dates(text: str) -> list[DateMention]:
    """Calendar dates with what happened on them, read from the words of their clause."""
    found = []
    for match in _DATE.finditer(text):
        year = int(match["y"] or match["iy"])
        month = match["m"] or match["im"]
        day = match["d"] or match["id"]
        period = _period(year, int(month) if month else None, int(day) if day else None)
        if period is None:
            continue
        after = text[match.end() :]
        clause_start = max(text.rfind(mark, 0, match.start()) for mark in _CLAUSE) + 1
        before = text[clause_start : match.start()]
        role = next((name for name, pattern in _ROLE_BEFORE if pattern.search(before)), "")
        role = role or next((name for name, pattern in _ROLE_AFTER if pattern.match(after)), "event")
        found.append(DateMention(period[0], period[1], match.start(), match.end(), role))
    return found


def _transaction_and_acquisition(dates: list[DateMention]) -> tuple[DateMention | None, DateMention | None]:
    """The deal's date is the latest plain event; a purchase is the seller's acquisition when a later event
    follows it (张某2024年购买…2025年卖出) and the deal itself when nothing does (2026年刘某购买…)."""
    events = [d for d in dates if d.role == "event"]
    purchases = [d for d in dates if d.role == "purchase"]
    deal = max(events, key=lambda d: d.first, default=None)
    if deal is None and purchases:
        deal = max(purchases, key=lambda d: d.first)
        purchases = [d for d in purchases if d is not deal]
    acquired = [d for d in dates if d.role == "acquired"]
    acquired += [d for d in purchases if deal is None or d.first < deal.first]
    return deal, max(acquired, key=lambda d: d.first, default=None)


def _full_years(since: dt.date, until: dt.date) -> int:
    return until.year - since.year - ((until.month, until.day) < (since.month, since.day))


# ---------------------------------------------------------------- labels

# Words that name a figure, per argument (or per intermediate figure a price is chosen from). The label comes
# before its number unless marked `after` ("以300万元成交"). Foils name figures no calculator takes
# (违约金, 地下建筑面积): they stop a label from reaching past them and never bind a number themselves.
_VAT = r"(?:(?:不)?含(?:增值)?税(?:的)?)?"
_LABELS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("tax_price", r"(?:核定(?:的)?)?计税价(?:格)?|计税依据", (MONEY,)),
    (
        "deal",
        rf"(?:网签(?:的)?)?{_VAT}(?:网签|实际|合同)?(?:成交|交易|出售|转让|售)(?:价格?|总价)|"
        rf"(?:网签(?:的)?)?{_VAT}网签价(?:格)?|(?:房屋)?总价(?:款)?|(?:合同)?(?:总)?价款|合同总价|标的额|房款|"
        r"转让收入|售价|(?:网签(?:的)?)?(?:不)?含(?:增值)?税(?:的)?价(?:格|款)",
        (MONEY,),
    ),
    ("appraised", r"评估(?:该房|房屋)?(?:的)?(?:价值|价格|价|值)", (MONEY,)),
    ("listing", r"挂牌(?:价格|价)?", (MONEY,)),
    (
        "original_price",
        r"(?:房屋)?原值|原(?:购房|购置|购买|购)(?:价款|价格|价|款)|原购房款|(?:购入|买入)价(?:格)?|原价|花",
        (MONEY,),
    ),
    (
        "costs",
        r"(?:合理|相关|可扣除(?:的)?)[^，。；=]{0,20}?费用(?:凭证)?(?:共计|合计|总计)?",
        (MONEY,),
    ),
    (
        "balance_co_applicant",
        r"(?:配偶|妻子|丈夫|共同借款人|共同申请人)(?:的)?(?:公积金)?(?:账户)?余额",
        (MONEY,),
    ),
    ("balance_applicant", r"(?:借款人|申请人)?(?:的)?(?:公积金)?(?:账户)?余额", (MONEY,)),
    ("multiple", r"倍数", (TIMES, NUMBER)),
    ("year_coefficient", r"(?:缴存)?(?:年限)?系数", (NUMBER, TIMES)),
    ("cap", r"最高(?:贷款)?(?:额度|限额)|贷款上限|额度上限", (MONEY,)),
    (
        "principal",
        r"贷款本金|(?:商业|公积金|组合)?贷款(?:部分)?(?:金额|额度)?|(?:部分)?借款(?:金额)?",
        (MONEY,),
    ),
    ("annual_rate", r"(?:贷款)?年利率|(?:首套|二套)?(?:贷款)?利率", (FRACTION,)),
    ("years", r"(?:贷款|还款)期限|贷款年限|期限", (YEARS,)),
    ("ratio", r"(?:最低)?首付(?:款)?(?:比例)?", (FRACTION,)),
    ("loan_ratio", r"贷款成数|成数|(?:贷款|放贷)比例|孰低(?:值|者)?的", (FRACTION,)),
    ("inner_area", r"套内建筑面积|套内面积", (AREA,)),
    ("usable_area", r"(?:套内)?使用面积", (AREA,)),
    ("wall_area", r"(?:套内)?墙体(?:水平投影)?面积", (AREA,)),
    (
        "balcony_area",
        r"(?:未)?封闭(?:式)?阳台(?:的)?(?:建筑|水平投影)?面积|阳台(?:的)?(?:建筑|水平投影)?面积|水平投影面积",
        (AREA,),
    ),
    ("shared_area", r"(?:分摊(?:的)?)?(?:共有建筑|公摊(?:建筑)?)面积|分摊面积", (AREA,)),
    ("registered_area", r"(?:产权)?登记面积|实测面积|产权面积", (AREA,)),
    ("contract_area", r"合同[^，。；]{0,6}?面积", (AREA,)),
    ("total_building_area", r"地上(?:总)?建筑(?:总)?面积|总建筑面积", (AREA,)),
    ("land_area", r"(?:项目)?(?:建设)?(?:用地|宗地|土地|占地)(?:总)?(?:面积|规模)?", (AREA,)),
    ("green_area", r"绿地(?:总)?面积|绿化(?:用地)?面积", (AREA,)),
    ("footprint_area", r"(?:建筑物?)?基底(?:总)?面积(?:合计)?|建筑占地面积", (AREA,)),
    ("area", r"(?:房屋|住房|住宅)?建筑面积", (AREA,)),
    ("earnest", r"定金", (MONEY,)),
    ("deemed_rate", r"核定(?:征收)?(?:税)?率|核定(?=\s*\d)", (FRACTION,)),
    ("urban_rate", r"城(?:市维护建设|建)税(?:的)?(?:适用)?(?:税率)?", (FRACTION,)),
    ("extra_certificates", r"加发|增发|多发|另发|多领", (COUNT,)),
    ("borrower_age", r"借款人(?:的)?年龄|年龄", (AGE,)),
    ("years_held", r"持有(?:年限|时间|期)?|已持有", (YEARS,)),
    ("total_years", r"(?:土地)?(?:出让|使用)(?:合同约定的)?(?:使用)?年限|总年限", (YEARS,)),
    ("cost_price", r"成本价", (UNIT_PRICE,)),
    ("foil", r"违约金|地下(?:总)?建筑面积|佣金|中介费|首付款", ()),
)
_AFTER_LABELS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("deal", r"(?:的价格)?(?:转手|顺利)?(?:成交|出售|售出|卖出|转让)", (MONEY,)),
    ("original_price", r"(?:的价格)?(?:购入|买下|买入|购得|购置)", (MONEY,)),
    ("loan_ratio", r"(?:向[^，。；]{0,6})?(?:发放|放贷)", (FRACTION,)),
    ("deemed_rate", r"(?:的(?:比例|征收率))?核定", (FRACTION,)),
)
_AFTER_GAP = 2
# Figures an argument is chosen or derived from, read whatever the calculator.
_INTERMEDIATE = {
    "deal",
    "appraised",
    "listing",
    "tax_price",
    "usable_area",
    "wall_area",
    "balcony_area",
    "cost_price",
    "years_held",
    "area",
    "foil",
}
_AFTER_VAT = re.compile(r"\s*[（(]\s*(?:不)?含(?:增值)?税\s*[)）]")


@dataclass(frozen=True)
class _Label:
    target: str
    kinds: tuple[str, ...]
    start: int
    end: int
    after: bool


@dataclass(frozen=True)
class _Found:
    value: Any
    span: str
    start: int = -1
    bound: str = ""


def _labels(text: str, extra: Iterable[tuple[str, str, tuple[str, ...]]]) -> list[_Label]:
    """Every label in the text; where two overlap the leftmost-longest wins (套内建筑面积 over 建筑面积)."""
    candidates: list[_Label] = []
    for table, after in ((_LABELS, False), (tuple(extra), False), (_AFTER_LABELS, True)):
        for target, pattern, kinds in table:
            for match in re.finditer(pattern, text):
                if match.end() > match.start():
                    candidates.append(_Label(target, kinds, match.start(), match.end(), after))
    candidates.sort(key=lambda label: (label.start, label.start - label.end))
    chosen: list[_Label] = []
    for label in candidates:
        if not chosen or label.start >= chosen[-1].end:
            chosen.append(label)
    return chosen


def _bind(
    text: str, labels: list[_Label], quantities: list[Quantity], wanted: set[str]
) -> tuple[dict[str, list[_Found]], set[int]]:
    """Each label of a `wanted` figure takes the nearest number of its kind on its side, within the clause
    and before any other label; returns the figures per target and the numbers taken. Labels of figures
    this calculator does not take still stop a label from reaching past them."""
    found: dict[str, list[_Found]] = {}
    used: set[int] = set()
    for index, label in enumerate(labels):
        if label.target not in wanted:
            continue
        if label.after:
            previous_end = labels[index - 1].end if index else 0
            candidates = [q for q in quantities if q.end <= label.start and q.start >= previous_end]
            quantity = candidates[-1] if candidates else None
            if quantity is None or quantity.kind not in label.kinds or quantity.start in used:
                continue
            if len(_AFTER_VAT.sub("", text[quantity.end : label.start]).strip()) > _AFTER_GAP:
                continue
            start, end = quantity.start, label.end
        else:
            next_label = labels[index + 1].start if index + 1 < len(labels) else len(text)
            quantity = None
            for candidate in quantities:
                if candidate.start < label.end or candidate.start >= next_label:
                    continue
                gap = text[label.end : candidate.start]
                if len(gap) > _MAX_GAP or any(mark in gap for mark in _BREAKS):
                    break
                if candidate.kind in label.kinds and candidate.start not in used:
                    quantity = candidate
                    break
            if quantity is None:
                continue
            start, end = label.start, quantity.end
            vat = _AFTER_VAT.match(text, end)
            if vat:
                end = vat.end()
        if label.target == "foil":
            used.add(quantity.start)
            continue
        used.add(quantity.start)
        found.setdefault(label.target, []).append(
            _Found(quantity.value, text[start:end], start, quantity.bound)
        )
    return found, used


# ---------------------------------------------------------------- words that settle a category

_KEYWORDS: dict[str, tuple[tuple[str, Any], ...]] = {
    "home_order": (
        (r"(?:已有|已拥有|名下有)(?:两|2|三|3)套(?:及以上|以上)?(?:住房|住宅)", 3),
        (r"首套|第一套|首次购(?:房|买)|名下(?:没有|无)(?:住房|住宅|房产)", 1),
        (r"第?二套|第2套", 2),
        (r"第?三套(?:及以上|以上)?|第3套", 3),
    ),
    "residential": (
        (r"非住宅|商铺|门面房?|商业用房|写字楼|办公(?:用房|楼)|厂房|商业公寓|酒店式公寓|车位|车库", False),
        (r"住宅|住房|公寓", True),
    ),
    "ordinary": ((r"非普通(?:住宅|住房)", False), (r"普通(?:住宅|住房)", True)),
    "urban_rate": ((r"市区", 0.07), (r"县城|(?<![城乡])镇(?!江)|乡镇", 0.05), (r"农村|乡村", 0.01)),
    "rule": ((r"公积金贷款", "provident_fund"), (r"商业贷款|商贷|房龄", "commercial")),
    "kind": ((r"一类经(?:济)?适(?:用)?(?:住)?房", 1), (r"二类经(?:济)?适(?:用)?(?:住)?房", 2)),
    "core_district": (
        (
            r"非城六区|城六区(?:以外|之外)|远郊|郊区|通州|顺义|昌平|大兴|房山|门头沟|怀柔|平谷|密云|延庆",
            False,
        ),
        (r"城六区|东城|西城|朝阳|海淀|丰台|石景山", True),
    ),
    "bought_before_2008_04_11": (
        (r"2008\s*年\s*4\s*月\s*11\s*日(?:以前|之前|前)", True),
        (r"2008\s*年\s*4\s*月\s*11\s*日(?:以后|之后|后|起)", False),
    ),
}
_ONLY_HOME = (
    (
        r"(?:不是|并非|非|不属于)(?:其|该|卖方)?(?:家庭)?(?:的)?唯一(?:住房|住宅)|(?:另有|还有|已有)(?:一|1|其他)?套?(?:住房|住宅)"
        r"|名下(?:还有|另有)",
        False,
    ),
    (r"满五唯一|唯一(?:一套)?(?:住房|住宅)", True),
)
_KNOWN_COST = re.compile(
    r"(?:无法|不能|未能)提供(?:房屋)?原值|无(?:房屋)?原值|原值(?:凭证)?(?:不详|无法|缺失)|核定征收|核定\s*\d|\d\s*[%％]\s*核定"
)
# Words that make a clause about the seller's home (唯一住房 then means only_home) or about the buyer's.
_SELLER_WORDS = re.compile(r"卖方|出售|售房|业主|卖出|转让|取得|购入|持有|满五唯一")
_BUYER_WORDS = re.compile(r"买方|购买|购房|买家|买入")
_LAND_USES = (
    (r"住宅|居住", "residential"),
    (r"商业|商铺|商服|商场", "commercial"),
    (r"工业|厂房|仓储", "industrial"),
    (r"教育", "education"),
    (r"科技", "science"),
    (r"文化", "culture"),
    (r"卫生", "health"),
    (r"体育", "sports"),
    (r"旅游", "tourism"),
    (r"娱乐", "entertainment"),
    (r"综合", "mixed"),
)
_CITIES = (
    "北京|上海|广州|深圳|天津|重庆|杭州|南京|苏州|武汉|成都|西安|长沙|郑州|济南|青岛|沈阳|大连|哈尔滨|长春|"
    "福州|厦门|合肥|南昌|昆明|贵阳|南宁|海口|石家庄|太原|呼和浩特|兰州|西宁|银川|乌鲁木齐|拉萨|宁波|无锡|"
    "佛山|东莞|珠海|温州"
)
_PARTY = r"[\u4e00-\u9fa5]某|买方|卖方|买受人|出卖人|购房人|业主|[\u4e00-\u9fa5](?:先生|女士)"
_BUYERS = ("买方", "买受人", "购房人")
_SELLER_DEFAULTS = re.compile(
    r"不再出售|拒绝出售|拒绝交房|反悔不卖|另(?:售|卖)(?:给)?他人|(?:转)?卖给他人|一房二卖|卖方违约|出卖人违约"
)
_BUYER_DEFAULTS = re.compile(r"不再购买|拒绝购买|放弃购买|反悔不买|买方违约|买受人违约")
_NOBODY_DEFAULTS = re.compile(r"(?:均|都)按约(?:定)?履行|没有违约方|无人违约|无违约方|均未违约|没有违约")
# "3位共有人要求各自持有一本证书": every owner past the first gets an extra certificate.
_EACH_OWN_CERTIFICATE = re.compile(
    rf"(?P<count>\d+|{_CHINESE})\s*(?:位|名|个)?(?:共有人|人)[^。；]{{0,12}}?各(?:自)?(?:要求)?(?:持有|领取|办理)一本"
)
_INDIVIDUAL = re.compile(r"个人|某人|[\u4e00-\u9fa5]某|夫妇|家庭|先生|女士")
# A company or other body on either side of the sale (an agency that brokers it is neither).
_ORGANISATION = re.compile(r"(?:公司|企业|单位)(?=[^，。；]{0,6}(?:购买|出售|买入|卖出|转让|买卖))")
# Registration charges a garage, parking space or storeroom at the residential rate.
_FEE_AS_HOME = re.compile(r"车库|车位|储藏室")


def _first_keyword(text: str, choices: Iterable[tuple[str, Any]]) -> _Found | None:
    hits = [(m.start(), value, m.group()) for pattern, value in choices for m in re.finditer(pattern, text)]
    if not hits:
        return None
    start, value, words = min(hits, key=lambda hit: hit[0])
    return _Found(value, words, start)


def _any_keyword(text: str, choices: Iterable[tuple[str, Any]]) -> _Found | None:
    """The first choice that occurs anywhere (earlier choices are the more specific wording)."""
    for pattern, value in choices:
        match = re.search(pattern, text)
        if match:
            return _Found(value, match.group(), match.start())
    return None


def _defaulting_party(text: str) -> _Found | None:
    """Who broke the contract, as the earnest rule needs it: the payer or the recipient of the earnest."""
    nobody = _NOBODY_DEFAULTS.search(text)
    if nobody:
        return _Found("none", nobody.group(), nobody.start())
    payer = recipient = None
    paid = re.search(
        rf"({_PARTY})[^，。；]{{0,10}}?向({_PARTY})[^，。；]{{0,4}}?(?:支付|交付|给付)(?:了)?定金", text
    )
    if paid:
        payer, recipient = paid.group(1), paid.group(2)
    verdicts: list[_Found] = []
    for match in _SELLER_DEFAULTS.finditer(text):
        verdicts.append(_Found("recipient", match.group(), match.start()))
    for match in _BUYER_DEFAULTS.finditer(text):
        verdicts.append(_Found("payer", match.group(), match.start()))
    for match in re.finditer(r"违约(?!金)", text):
        clause_start = max(text.rfind(mark, 0, match.start()) for mark in _CLAUSE) + 1
        parties = list(re.finditer(_PARTY, text[clause_start : match.start()]))
        if not parties:
            continue
        who = parties[-1].group()
        span = text[clause_start + parties[-1].start() : match.end()]
        if who == payer or (payer is None and who in _BUYERS):
            verdicts.append(_Found("payer", span, clause_start))
        elif who == recipient or (recipient is None and who in ("卖方", "出卖人", "业主")):
            verdicts.append(_Found("recipient", span, clause_start))
    if not verdicts or len({verdict.value for verdict in verdicts}) > 1:
        return None
    return min(verdicts, key=lambda verdict: verdict.start)


# ---------------------------------------------------------------- composing the arguments


@dataclass(frozen=True)
class _Value:
    value: Any
    span: str
    low: Any = None
    high: Any = None


def _number(value: Any) -> Any:
    """JSON form of a figure: 3000000 rather than 3000000.0, 0.0305 without float noise; words stay words."""
    if not isinstance(value, Decimal | int | float) or isinstance(value, bool):
        return value
    exact = Decimal(str(value)).normalize()
    return int(exact) if exact == exact.to_integral_value() else float(exact)


def _first(found: dict[str, list[_Found]], target: str) -> _Found | None:
    items = found.get(target)
    return items[0] if items else None


def _held(
    found: dict[str, list[_Found]], deal: DateMention | None, acquired: DateMention | None, text: str
) -> _Value | None:
    """Years the seller has held the home: stated ("持有1年", "不满2年", "满五唯一") or between two dates."""
    stated = _first(found, "years_held")
    if stated is not None:
        years = Decimal(stated.value)
        if stated.bound == "lt":
            representative = max(years - 1, Decimal(0))
            return _Value(_number(representative), stated.span, 0, _number(years - Decimal("0.01")))
        return _Value(_number(years), stated.span)
    five = re.search(r"满五(?:年)?唯一|满五年", text)
    if five:
        return _Value(5, five.group())
    if deal is not None and acquired is not None and acquired.first <= deal.last:
        low = max(_full_years(acquired.last, deal.first), 0)
        high = _full_years(acquired.first, deal.last)
        span = f"{text[acquired.start : acquired.end]}…{text[deal.start : deal.end]}"
        return _Value(low, span, *((low, high) if low != high else (None, None)))
    return None


def _deal_price(found: dict[str, list[_Found]]) -> tuple[_Found, str] | None:
    """The transaction price and whether the text calls it VAT-inclusive ("incl"), exclusive ("excl") or
    neither (""); a VAT-inclusive figure is preferred where both are given."""
    prices = found.get("deal", [])
    if not prices:
        return None
    marked = [(price, _vat_standing(price.span)) for price in prices]
    return next((m for m in marked if m[1] == "incl"), marked[0])


def _vat_standing(words: str) -> str:
    if re.search(r"不含(?:增值)?税", words):
        return "excl"
    return "incl" if re.search(r"含(?:增值)?税", words) else ""


_PRICE_NAME = "以哪一个价格为计算依据"


def _rival_prices(found: dict[str, list[_Found]]) -> bool:
    """Two different transaction prices (网签价 350万, 成交价 380万) leave the base open, unless they are one
    price said with and without its VAT."""
    prices = found.get("deal", [])
    values = {price.value for price in prices}
    said_twice = len(values) == 2 and {_vat_standing(price.span) for price in prices} == {"incl", "excl"}
    return len(values) > 1 and not said_twice


def _exclusive(price: Decimal, held: _Value | None, date: _Value | None) -> Decimal | None:
    """The VAT-exclusive price of a VAT-inclusive one: the personal income tax base is exactly that
    (calc/taxes.py derives both in one place)."""
    if held is None:
        return None
    args: dict[str, Any] = {"price": _number(price), "years_held": held.value, "only_home": False}
    if date is not None:
        args["date"] = date.value
    try:
        return Decimal(str(run("personal_income_tax", args)["base"]))
    except CalcError:
        return None


def _acquisition_price(text: str, acquired: DateMention | None) -> _Found | None:
    """What the seller paid, said in the clause of the acquisition ("2010年以90万元购买"), for calculators
    whose original price matters."""
    if acquired is None:
        return None
    offset, end = _clause_bounds(text, acquired.end)
    clause = text[offset:end]
    for quantity in find_quantities(clause):
        if quantity.kind == MONEY and re.match(
            r"\s*(?:的价格)?(?:购买|购入|买下|买入|购得)", clause[quantity.end :]
        ):
            return _Found(quantity.value, text[offset + quantity.start : offset + quantity.end + 2])
    return None


def _land_use(text: str) -> _Found | None:
    for pattern, code in _LAND_USES:
        match = re.search(rf"(?:{pattern})(?:用途|用地)", text)
        if match:
            return _Found(code, match.group(), match.start())
    return _first_keyword(text, _LAND_USES)


def _city(text: str) -> _Found | None:
    match = re.search(rf"({_CITIES})(?:市)?", text) or re.search(
        r"(?<![某该本城都上])([\u4e00-\u9fa5]{2})市(?![场区民值价政])", text
    )
    return _Found(match.group(1), match.group(), match.start()) if match else None


def _compose(
    calculator: str, text: str, found: dict[str, list[_Found]]
) -> tuple[dict[str, _Value], list[str]]:
    """The calculator's arguments from the figures and words found, and the assumptions a derived argument
    depends on that are no argument themselves. Most are read directly; a few are chosen or derived the way
    the textbook does (the lower of valuation and price, the VAT-exclusive deed-tax base, 套内建筑面积 from
    its parts)."""
    properties = REGISTRY[calculator].parameters["properties"]
    values: dict[str, _Value] = {}
    for name in properties:
        item = _first(found, name)
        if item is not None:
            values[name] = _Value(_number(item.value), item.span)
    dates = find_dates(text)
    deal_date, acquired = _transaction_and_acquisition(dates)
    _dated(text, dates, deal_date, properties, values)
    held = _held(found, deal_date, acquired, text)
    if held is not None and "years_held" in properties:
        values["years_held"] = held
    open_ends = _prices(calculator, found, held, properties, values)
    _areas(text, found, properties, values)
    _categories(calculator, text, found, acquired, properties, values)
    _rest_borrowed(text, properties, values)
    return values, open_ends


# "总价260万元…按三成的比例支付首付款，其余…贷款": the sum borrowed is the price less that share.
_REST_BORROWED = re.compile(
    r"总价(?P<price>[^，。；]{1,16}?元)[^。]*?按(?P<share>[^，。；]{1,6}?)的比例支付首付款?，其余[^。]*?贷款"
)


def _rest_borrowed(text: str, properties: dict[str, Any], values: dict[str, _Value]) -> None:
    """A loan told as what remains after a down payment share of the price, with no sum of its own."""
    told = _REST_BORROWED.search(text)
    if "principal" not in properties or "principal" in values or told is None:
        return
    prices = [q for q in find_quantities(told["price"]) if q.kind == MONEY]
    shares = [q for q in find_quantities(told["share"]) if q.kind == FRACTION]
    if len(prices) == 1 and len(shares) == 1 and 0 < shares[0].value < 1:
        values["principal"] = _Value(_number(prices[0].value * (1 - shares[0].value)), told.group())


def _dated(
    text: str,
    dates: list[DateMention],
    deal: DateMention | None,
    properties: dict[str, Any],
    values: dict[str, _Value],
) -> None:
    """The transaction date (as a range when only its month or year is given) and the years of events."""
    if deal is not None:
        low, high = deal.first.isoformat(), deal.last.isoformat()
        span = text[deal.start : deal.end]
        if "date" in properties:
            values["date"] = _Value(low, span, *((low, high) if low != high else (None, None)))
        if "year" in properties:
            values["year"] = _Value(deal.first.year, span)
    for role, name in (("completion", "completion_year"), ("grant", "grant_year")):
        mention = next((d for d in dates if d.role == role), None)
        if mention is not None and name in properties:
            values[name] = _Value(mention.first.year, text[mention.start : mention.end])


def _prices(
    calculator: str,
    found: dict[str, list[_Found]],
    held: _Value | None,
    properties: dict[str, Any],
    values: dict[str, _Value],
) -> list[str]:
    """Which price each price argument takes: the transaction price, the VAT-exclusive base for deed tax, the
    lower of valuation and price for a loan, the listing price for the negotiation margin."""
    open_ends: list[str] = []
    deal = _deal_price(found)
    if _rival_prices(found):
        open_ends.append(_PRICE_NAME)
    if deal is not None:
        price, vat = deal
        for name in ("price", "contract_price", "deal_price"):
            if name in properties and name not in values:
                values[name] = _Value(_number(price.value), price.span)
        # A price said to include VAT, or a plain one beside the seller's holding ("成交价206万元，
        # 卖方持有不满2年"), becomes the VAT-exclusive deed-tax base; without the holding it stays open.
        converts = vat == "incl" or (vat == "" and held is not None)
        if calculator == "deed_tax" and converts and values["price"].span == price.span:
            del values["price"]
            exclusive = _exclusive(price.value, held, values.get("date"))
            if exclusive is not None:
                values["price"] = _Value(_number(exclusive), f"{price.span}；{held.span}" if held else "")
            else:
                open_ends.append(argument_label("resale_vat", "years_held"))
    tax_price = _first(found, "tax_price")
    if calculator == "deed_tax" and tax_price is not None:
        values["price"] = _Value(_number(tax_price.value), tax_price.span)
    appraised = _first(found, "appraised")
    quoted = [item for item in (appraised, deal[0] if deal else None) if item is not None]
    if "appraised_value" in properties and quoted:
        lowest = min(quoted, key=lambda item: item.value)
        values["appraised_value"] = _Value(_number(lowest.value), "；".join(item.span for item in quoted))
    listing = _first(found, "listing")
    if "listing_price" in properties and listing is not None:
        values["listing_price"] = _Value(_number(listing.value), listing.span)
    return open_ends


def _areas(
    text: str, found: dict[str, list[_Found]], properties: dict[str, Any], values: dict[str, _Value]
) -> None:
    """套内建筑面积 = 套内使用面积 + 墙体面积 + 阳台面积 (an unenclosed balcony counts half)."""
    usable = _first(found, "usable_area")
    if "inner_area" in properties and "inner_area" not in values and usable is not None:
        total = usable.value
        spans = [usable.span]
        for wall in found.get("wall_area", [])[:1]:
            total += wall.value
            spans.append(wall.span)
        for balcony in found.get("balcony_area", []):
            clause = text[slice(*_clause_bounds(text, balcony.start))]
            total += balcony.value / 2 if re.search(r"未封闭|不封闭", clause) else balcony.value
            spans.append(clause)
        values["inner_area"] = _Value(_number(total), "；".join(spans))
    area = _first(found, "area")
    if "building_area" in properties and area is not None:
        values["building_area"] = _Value(_number(area.value), area.span)


def _categories(
    calculator: str,
    text: str,
    found: dict[str, list[_Found]],
    acquired: DateMention | None,
    properties: dict[str, Any],
    values: dict[str, _Value],
) -> None:
    """Arguments a text settles in words: home order, 市区/县城, 核定 or not, who defaulted, land use …"""

    def setting(name: str, item: _Found | None) -> None:
        if item is not None and name in properties and name not in values:
            values[name] = _Value(_number(item.value), item.span)

    if "original_price" in properties:
        setting("original_price", _acquisition_price(text, acquired))
        unknown = _KNOWN_COST.search(text)
        if unknown is not None:
            setting("original_price", _Found(None, unknown.group()))
    if calculator == "registration_fee" and (garage := _FEE_AS_HOME.search(text)):
        setting("residential", _Found(True, garage.group()))
    cost_price = _first(found, "cost_price")
    core = {land.PUBLIC_HOUSING_COST_PRICE_CORE: True, land.PUBLIC_HOUSING_COST_PRICE_OTHER: False}
    if cost_price is not None and cost_price.value in core:
        setting("core_district", _Found(core[cost_price.value], cost_price.span))
    for name, choices in _KEYWORDS.items():
        if name in properties:
            # where a specific wording must win wherever it stands (非住宅 over 住宅), the table's order rules
            ordered = name in ("residential", "core_district", "ordinary")
            setting(name, _any_keyword(text, choices) if ordered else _first_keyword(text, choices))
    _homes(text, properties, values)
    if acquired is not None:
        boundary = dt.date(2008, 4, 11)
        if acquired.last < boundary or acquired.first >= boundary:
            span = text[acquired.start : acquired.end + 4]
            setting("bought_before_2008_04_11", _Found(acquired.last < boundary, span))
    if "total_years" not in values:
        setting("use", _land_use(text))
    setting("city", _city(text))
    if "defaulting_party" in properties:
        setting("defaulting_party", _defaulting_party(text))
    if "individual_housing" in properties:
        setting("individual_housing", _individual_housing(text))
    owners = _EACH_OWN_CERTIFICATE.search(text)
    count = parse_number(owners["count"]) if owners else None
    if count is not None and count >= 1:
        setting("extra_certificates", _Found(_number(count - 1), owners.group()))
    lowest = re.search(r"最低(?:首付(?:款)?)?比例", text)
    if lowest:
        setting("ratio", _Found(LOWEST_DOWN_PAYMENT, lowest.group()))


def _individual_housing(text: str) -> _Found | None:
    """Stamp duty spares individuals trading homes: a company or a non-residential property is not that."""
    organisation = _ORGANISATION.search(text)
    if organisation is not None:
        return _Found(False, organisation.group())
    residential = _any_keyword(text, _KEYWORDS["residential"])
    if residential is None or not residential.value:
        return residential
    person = _INDIVIDUAL.search(text)
    return _Found(True, f"{person.group()}…{residential.span}") if person else None


def _clause_bounds(text: str, position: int) -> tuple[int, int]:
    start = max(text.rfind(mark, 0, position) for mark in _CLAUSE) + 1
    ends = [i for i in (text.find(mark, position) for mark in _CLAUSE) if i >= 0]
    return start, min(ends) if ends else len(text)


def _homes(text: str, properties: dict[str, Any], values: dict[str, _Value]) -> None:
    """唯一住房 / 另有一套 speak of whoever their sentence is about: the seller's only home (an exemption) or
    the buyer's home order; a sentence naming neither speaks of the one the calculator asks about."""
    hits = sorted(
        (match.start(), value, match.group())
        for pattern, value in _ONLY_HOME
        for match in re.finditer(pattern, text)
    )
    for start, value, words in hits:
        sentence = text[max(text.rfind(mark, 0, start) for mark in _BREAKS) + 1 : start]
        seller = max((m.end() for m in _SELLER_WORDS.finditer(sentence)), default=-1)
        buyer = max((m.end() for m in _BUYER_WORDS.finditer(sentence)), default=-1)
        about_seller = seller > buyer if seller != buyer else "only_home" in properties
        if about_seller and "only_home" in properties:
            values.setdefault("only_home", _Value(value, words))
        elif not about_seller and "home_order" in properties:
            values.setdefault("home_order", _Value(1 if value else 2, words))


# ---------------------------------------------------------------- which arguments matter


def argument_label(calculator: str, name: str) -> str:
    """The Chinese name of an argument, from its schema description ("买方家庭购买的第几套住房")."""
    spec = lookup(calculator).parameters["properties"].get(name)
    if spec is None:
        return name
    head = re.split(r"[，：；,;:]", spec["description"], maxsplit=1)[0]
    return re.sub(r"（[^）]*）", "", head).strip() or name


def argument_kind(calculator: str, name: str) -> str:
    """The kind of figure an argument takes (money, area, years …), to bind a number someone wrote to it."""
    spec = lookup(calculator).parameters["properties"].get(name)
    return _kind(spec) if spec is not None else "word"


def _kind(spec: dict[str, Any]) -> str:
    """The kind of figure an argument takes, from its schema's unit words."""
    description = spec["description"]
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    if "元" in description:
        return MONEY
    if "㎡" in description:
        return AREA
    if "小数" in description:
        return FRACTION
    if "年龄" in description:
        return AGE
    if "本数" in description:
        return COUNT
    if "倍数" in description:
        return TIMES
    if "年份" in description or spec.get("format") == DATE_FORMAT:
        return "date"
    if "年" in description and ("number" in kinds or "integer" in kinds):
        return YEARS
    return NUMBER if kinds[0] in ("number", "integer") else "word"


def _threshold_probes(name: str) -> list[Any]:
    """Values on each side of every policy threshold an argument is compared with, so a missing figure that
    decides a rate (≤ 140㎡, 满 2 年) counts as an assumption rather than as a plain missing number."""
    if name == "years_held":
        limits = {rule.exempt_years for rule in policy.RESALE_VAT_RULES} | {taxes.PIT_EXEMPT_YEARS}
    elif name == "area":
        limits = {rule.area_threshold for rule in policy.DEED_TAX_RULES}
    else:
        return []
    return sorted({_number(limit + step) for limit in limits for step in (Decimal("-0.5"), Decimal("0.5"))})


# Sibling calculators that differ only in method, and the words naming each method.
_METHODS = {"equal_installment": "等额本息", "equal_principal": "等额本金"}
_METHOD_NAME = "还款方式是等额本息还是等额本金"
# A text that taxes the gain (据实, 差额) but gives no original price lacks a figure, not an assumption.
_ON_GAIN = re.compile(r"据实|差额|实际所得")

# Arguments whose default is what a text means by saying nothing: no cap, no deductible costs, no extra
# certificate, no co-borrower, and no city with rules of its own (a stem names 北上广深 when their old rules
# are in play). Silence about them is no open assumption.
_SILENCE_MEANS_DEFAULT = frozenset({"cap", "costs", "extra_certificates", "balance_co_applicant", "city"})


def _alternatives(name: str, spec: dict[str, Any], baseline: Any, today: str, fallback: Any) -> list[Any]:
    """The values an argument the text leaves open could take: each enum value, both booleans, null or a
    value, the bounds of a defaulted rate, each side of a policy threshold, today or the author's date; a
    plain figure is doubled, only to see whether the result depends on it at all."""
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    if spec.get("format") == DATE_FORMAT:
        return [today] + ([fallback] if isinstance(fallback, str) else [])
    if "enum" in spec:
        return list(spec["enum"]) + ([None] if "null" in kinds else [])
    if kinds[0] == "boolean":
        return [True, False]
    if "null" in kinds:
        return [None, fallback if fallback is not None else _placeholder(spec)]
    if "default" in spec and "minimum" in spec and "maximum" in spec:
        return [spec["minimum"], spec["default"], spec["maximum"]]
    probes = _threshold_probes(name)
    if probes:
        return probes
    if isinstance(baseline, int | float) and not isinstance(baseline, bool) and "maximum" not in spec:
        return [baseline * 2]
    return []


def _placeholder(spec: dict[str, Any]) -> Any:
    """A value inside the schema's bounds, only to complete a call while another argument is being probed."""
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    kind = _kind(spec)
    if "enum" in spec:
        return spec["enum"][0]
    if kinds[0] == "boolean":
        return False
    if kind == FRACTION:
        return 0.05
    if kind == MONEY:
        return 1_000_000
    if kinds[0] == "string":
        return None
    low = spec.get("minimum", spec.get("exclusiveMinimum", 0))
    return min(low + 20, spec.get("maximum", low + 20))


def _outcome(calculator: str, args: dict[str, Any], field: str | None) -> str | None:
    try:
        result = run(calculator, args)
    except CalcError:
        return None
    return json.dumps(result.get(field) if field else result, sort_keys=True)


# ---------------------------------------------------------------- the public reading


@dataclass
class Reading:
    """What a text says about a calculator call.

    `args`: the values read, typed as the schema wants them (3000000, 0.0305, "2026-03-01", True);
    `spans`: the words each was read from; `ranges`: (low, high) for a value stated only roughly ("2026年3月"
    is any day of March, "不满2年" any holding under two years), whose `args` entry is the low end;
    `unstated`: the assumptions the result depends on that the text leaves open, by their Chinese names;
    `missing`: arguments the result depends on that could not be read and are no such assumption (a figure
    the reader did not find); `filled`: values for the other unread arguments, which do not change the
    result (a shop's area for its 3% deed tax), so that `call_args()` runs; `conflicts`: what the text says
    against the calculator itself (等额本金 in a text read for 等额本息).
    """

    calculator: str
    args: dict[str, Any] = field(default_factory=dict)
    unstated: list[str] = field(default_factory=list)
    spans: dict[str, str] = field(default_factory=dict)
    ranges: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    filled: dict[str, Any] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)

    def agrees(self, name: str, value: Any) -> bool:
        """Whether `value` (an author's argument) is what the text says, or within what it says."""
        if name not in self.args:
            return True
        if name in self.ranges:
            low, high = self.ranges[name]
            try:
                return low <= value <= high
            except TypeError:
                return False
        return same_value(self.args[name], value)

    def call_args(self) -> dict[str, Any]:
        """The arguments read, completed with values that do not change the result."""
        return {**self.filled, **self.args}


def same_value(a: Any, b: Any) -> bool:
    """Equal as arguments: 3000000 and 3000000.0, "住宅" and "residential", 0.07 and 0.070."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(Decimal(str(a)) - Decimal(str(b))) <= Decimal("0.000001") * max(1, abs(Decimal(str(b))))
    if isinstance(a, str) and isinstance(b, str):
        return value_words(a.strip()) == value_words(b.strip())
    return a == b


def read_arguments(
    calculator: str, text: str, *, defaults: dict[str, Any] | None = None, field: str | None = None
) -> Reading:
    """Read `calculator`'s arguments from `text`.

    `defaults` stand in for arguments the text does not state (an author's own call, a textbook's date) while
    testing which of those the result depends on; they never count as read. `field` is the result the text
    asks for: an assumption matters only if it changes that figure (who defaulted does not change the earnest
    cap); without it, any change of the result counts.
    """
    properties: dict[str, dict[str, Any]] = lookup(calculator).parameters["properties"]
    text = text if isinstance(text, str) else ""
    labels = _labels(text, _schema_labels(calculator))
    found, used = _bind(text, labels, find_quantities(text), set(properties) | _INTERMEDIATE)
    values, open_ends = _compose(calculator, text, found)
    _by_unit(properties, text, values, used)
    reading = Reading(calculator)
    for name in properties:
        if name in values:
            value = values[name]
            reading.args[name] = value.value
            reading.spans[name] = value.span
            if value.low is not None:
                reading.ranges[name] = (value.low, value.high)
    if "original_price" in properties and "original_price" not in values and _ON_GAIN.search(text):
        reading.missing.append("original_price")  # 据实/差额 names the method but not the original price
    _settle_open(reading, defaults or {}, field)
    _method(reading, text)
    reading.unstated = list(dict.fromkeys(open_ends + reading.unstated))
    return reading


def _method(reading: Reading, text: str) -> None:
    """Calculators that differ only in method (等额本息, 等额本金) are told apart by the text's own words."""
    own = _METHODS.get(reading.calculator)
    if own is None:
        return
    named = [word for word in _METHODS.values() if word in text]
    if not named:
        reading.unstated.append(_METHOD_NAME)
    elif own not in named:
        reading.conflicts.append(f"题干为{'、'.join(named)}，计算却按{own}")


def _schema_labels(calculator: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """The schema's own labels ("贷款年利率：3.05%") are labels too, for texts that quote them."""
    extra = []
    for name, spec in REGISTRY[calculator].parameters["properties"].items():
        kind = _kind(spec)
        if kind in (MONEY, AREA, FRACTION, YEARS, AGE, COUNT, TIMES, NUMBER):
            label = argument_label(calculator, name)
            if len(label) >= 3:
                extra.append((name, re.escape(label), (kind, NUMBER) if kind == TIMES else (kind,)))
    return extra


_UNIT_DECIDES = (MONEY, AREA, FRACTION, YEARS, AGE, TIMES)


def _by_unit(
    properties: dict[str, dict[str, Any]], text: str, values: dict[str, _Value], used: set[int]
) -> None:
    """An argument that is the calculator's only one of its unit takes the text's only unlabelled figure of
    that unit ("偿还一笔90万元、10年期、年利率3.05%的住房贷款"): the unit, not the position, decides."""
    quantities = [q for q in find_quantities(text) if q.start not in used]
    by_kind: dict[str, list[str]] = {}
    for name, spec in properties.items():
        by_kind.setdefault(_kind(spec), []).append(name)
    for kind, names in by_kind.items():
        if len(names) != 1 or names[0] in values or kind not in _UNIT_DECIDES:
            continue
        if "default" in properties[names[0]]:
            continue  # a defaulted argument (a 1% deemed rate) is named when stated, never guessed
        matching = [q for q in quantities if q.kind == kind]
        if len(matching) == 1:
            quantity = matching[0]
            name = names[0]
            span = text[quantity.start : quantity.end]
            if name == "years_held" and quantity.bound == "lt":
                years = quantity.value
                values[name] = _Value(_number(max(years - 1, 0)), span, 0, _number(years - Decimal("0.01")))
            else:
                values[name] = _Value(_number(quantity.value), span)


def _settle_open(reading: Reading, defaults: dict[str, Any], field: str | None) -> None:
    """Probe every argument the text leaves open, or states only roughly, with its alternatives while the
    others keep their read (else the author's, else a neutral) values: if the result moves, the argument is
    an unstated assumption, or a missing figure when it is a plain number; if not, it is filled in."""
    properties: dict[str, dict[str, Any]] = REGISTRY[reading.calculator].parameters["properties"]
    today = dt.date.today().isoformat()
    baseline: dict[str, Any] = {}
    for name, spec in properties.items():
        if name in reading.args:
            baseline[name] = reading.args[name]
        elif name in reading.missing:
            baseline[name] = defaults[name] if defaults.get(name) is not None else _placeholder(spec)
        elif name in defaults:
            baseline[name] = defaults[name]
        elif "default" in spec:
            baseline[name] = spec["default"]
        elif spec.get("format") != DATE_FORMAT:
            probes = _threshold_probes(name)
            baseline[name] = probes[0] if probes else _placeholder(spec)
    base = _outcome(reading.calculator, baseline, field)
    for name, spec in properties.items():
        if (name in reading.args and name not in reading.ranges) or name in reading.missing:
            continue
        if name in reading.ranges:
            alternatives = list(reading.ranges[name])
        elif name in _SILENCE_MEANS_DEFAULT:
            alternatives = [spec.get("default")]  # open only if the author assumed otherwise
        else:
            alternatives = _alternatives(name, spec, baseline.get(name), today, defaults.get(name))
        outcomes = {base} | {
            _outcome(reading.calculator, {**baseline, name: alt}, field) for alt in alternatives
        }
        outcomes.discard(None)
        plain = "enum" not in spec and _kind(spec) not in ("word", "date") and not _threshold_probes(name)
        if len(outcomes) > 1 and plain and "default" not in spec and "null" not in spec["type"]:
            reading.missing.append(name)
        elif len(outcomes) > 1:
            reading.unstated.append(argument_label(reading.calculator, name))
        elif name not in reading.args and name in baseline and "default" not in spec:
            reading.filled[name] = baseline[name]
