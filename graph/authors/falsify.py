"""Turning a true one-sentence rule into a false one by changing exactly one fact.

Used by the offline author for false true/false statements and for distractors. A change is either a number
(a rate, a count of days or years, an area) or a word swapped for its opposite; the explanation can then name
precisely what was altered.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from decimal import Decimal

# Opposites that flip the meaning of a rule sentence in Chinese exam language.
OPPOSITES: tuple[tuple[str, str], ...] = (
    ("不得", "可以"),
    ("无需", "必须"),
    ("不需要", "需要"),
    ("不超过", "超过"),
    ("不低于", "低于"),
    ("以上", "以下"),
    ("高于", "低于"),
    ("增加", "减少"),
    ("之前", "之后"),
    ("免征", "征收"),
    ("不包括", "包括"),
    ("无效", "有效"),
    ("买方", "卖方"),
    ("买受人", "出卖人"),
    ("共同", "单独"),
    ("应当", "无需"),
    ("双倍", "等额"),
    ("全额", "减半"),
)
# The other party, bound or form of the same rule: wrong on one concept, in the rule's own polarity. Kept
# apart from OPPOSITES, which grounding also reads as contradictions: in a true statement these words can
# stand for each other's sides ("出租人与承租人"), so only a writer turning one rule may use them.
CONCEPTS: tuple[tuple[str, str], ...] = (
    ("出租人", "承租人"),
    ("抵押权人", "抵押人"),
    ("委托人", "受托人"),
    ("转让方", "受让方"),
    ("按份共有", "共同共有"),
    ("固定利率", "浮动利率"),
    ("书面", "口头"),
    ("最高", "最低"),
    ("最长", "最短"),
    ("上限", "下限"),
    ("大于", "小于"),
    ("多于", "少于"),
    ("延长", "缩短"),
    ("提高", "降低"),
    ("全部", "一半"),
    ("全部", "部分"),
    ("长于", "短于"),
    ("早于", "晚于"),
    ("较高", "较低"),
    ("较大", "较小"),
    ("较多", "较少"),
    ("较长", "较短"),
    ("全体", "半数以上"),
)
_NEGATORS = "不得无未非"
# Words where a swap would break a compound rather than flip a rule: (word, text that may not follow it).
_COMPOUNDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("等额", ("本",)),
    ("共同", ("共有", "借款人", "申请人")),
    ("全体", ("成员",)),
    ("征收", ("率",)),
    ("应当", ("预见", "知道")),
)
_NOT_AFTER: dict[str, tuple[str, ...]] = {"免征": ("暂",), "以上": tuple("0123456789一二两三四五六七八九十")}
# Words that swap only where they bound a figure or an act or close the clause ("取各项约束中的最低值",
# "以…为上限"), not where they open a term: "最低首付比例"
# turned "最高首付比例" names a thing the textbook has none of, "在全国上限的基础上确定更高的比例"
# contradicts itself; "口头授权委托书" and a contract "采用口头形式订立" are struck by examiners as
# eliminated at sight, while "口头通知" is a trap a reader must think about.
_ONLY_BEFORE: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("最高", "最低", "最长", "最短", "上限", "下限"), (*"0123456789为不可是", "值", "")),
    **dict.fromkeys(("书面", "口头"), ("通知", "告知", "提出")),
    **dict.fromkeys(("双倍", "等额"), ("返还", "赔偿", "支付")),
}
# The parties of a transaction: a swap of one for the other changes who acts, which the rule can refute.
_PARTIES = frozenset(
    (
        "买方",
        "卖方",
        "买受人",
        "出卖人",
        "出租人",
        "承租人",
        "抵押权人",
        "抵押人",
        "委托人",
        "受托人",
        "转让方",
        "受让方",
    )
)
# What makes a party the party it is: the other one told as doing it ("出卖人取得房屋后", "买方出售房屋")
# describes no possible act, and is ruled out at sight.
_ROLE_ACTS: dict[str, re.Pattern[str]] = {
    **dict.fromkeys(
        ("买方", "买受人", "受让方", "承租人"),
        re.compile(r"^[^，。；]{0,4}?(?:取得|购买|买受|受让|承租|租用)"),
    ),
    **dict.fromkeys(
        ("卖方", "出卖人", "转让方", "出租人"), re.compile(r"^[^，。；]{0,4}?(?:出售|出卖|卖出|转让|出租)")
    ),
}
# Acts only ever done for a buyer: what is offered to a buyer, not a seller.
_BUYERS = frozenset(("买方", "买受人", "购房人", "客户"))
_SHOWN = re.compile(r"^[^，。；]{0,2}?(?:介绍|推荐|展示|带看)(?:房源|房屋)?")
# The highest or lowest of several limits: one limit binds only as the lowest of the upper bounds.
_EXTREMES = frozenset(("最高", "最低"))
_OF_LIMITS = re.compile(r"(?:约束|限制|限额|上限|条件)[^，。；]{0,4}中的最[高低]")
_BOTH_SIDES = re.compile(r"双方|各方|两方|多方")
# The agent of a commission named in its own right ("中介人应当向委托人报告"): it is the 受托人, so turning
# 委托人 into 受托人 has it report to, or be paid by, itself.
_AGENT = re.compile(r"中介人|经纪机构|经纪人员|代理人")
_COMMISSION = frozenset(("委托人", "受托人"))
_COUNTS = tuple("两一二三四五六七八九十")
# A permission bounded by whose guidance or consent it needs ("在房地产经纪人的指导下", "经抵押权人同意"):
# the examiner's trap is the permission without its bound ("协理可以独立执业"), not its denial.
_GUIDED = re.compile(r"在[^，。；]{1,16}?(?:指导|监督)下")
_CONSENT = re.compile(r"(?<!未)经(?=[^，。；]{1,12}?(?:同意|批准|许可))")
# Misconduct no reader would take for something allowed: a prohibition of it stated as a permission is
# eliminated at sight.
MISCONDUCT = (
    "泄露", "侵占", "挪用", "欺骗", "欺诈", "隐瞒", "虚构", "捏造", "虚假", "夸大", "不正当", "擅自", "违法",
    "损害", "牟利", "操纵", "串通", "私自", "截留", "冒充", "规避", "随意", "任意", "故意", "恶意", "非法",
    "阴阳合同", "偷税", "逃税", "骗取", "伪造", "变造", "贿赂", "回扣", "胁迫", "误导", "强迫", "压低",
)  # fmt: skip
# A prohibition lifted is a trap only where the act is allowed in some other case: the ban holds in a case
# ("…的，"), for a time ("共有关系存续期间", "签约前", "15日内") or without a consent ("未经…同意"), and the
# permitted twin is what a reader may confuse it with. A bare ban of improper conduct lifted ("可以代替当事人
# 签字", "可以收取任何未予标明的费用") is ruled out at sight.
_BOUNDED_BAN = re.compile(r"的，$|期间|届满|之日起|(?<!提)[之以]?前|以内|[日月年]内")

# Duties no reader takes for needless: to tell the truth, to answer for one's papers, to keep to what was
# agreed or what the law says. Told as "无需" they are eliminated at sight.
_CORE_DUTY = re.compile(r"如实|真实|负责|约定|依法|法律规定")
# A duty to pay (a fee, a tax, a deposit back, damages), told from its first words, possibly to whom.
# A case of fault ("违约不卖的", "隐瞒抵押…的"): that the party at fault owes nothing is no one's belief.
_FAULT = re.compile(r"违约|隐瞒|过错|欺诈|欺骗|恶意|故意|虚假|擅自")
_PAYMENT = re.compile(r"^(?:向[^，。；]{1,12})?(?:支付|缴纳|交纳|补缴|返还|赔偿|承担)")
# An act that a step is timed against: "在签约前", "在办理转移登记后", "依法取得不动产权证书后，" (not
# "在此前", "3日后", "然后", "之前": a count of days or a connective, and 之前/之后 turn as words).
_TIMING = re.compile(
    r"在([\u4e00-\u9fff]{2,8}?)(以?[前后])(?![\u4e00-\u9fff]?[者期台])"
    r"|(?<![\u4e00-\u9fff])([\u4e00-\u9fff]*?[取办签交付缴登过][\u4e00-\u9fff]{1,10}?)(以?[前后])(?=，)"
)
_RANGE = re.compile(r"(\d+(?:\.\d+)?)\s*[%％]?\s*(?:至|到|~|－|—)\s*(\d+(?:\.\d+)?)")

_NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d.,])")


@dataclass(frozen=True)
class Falsified:
    """`source` is the true statement it was made from."""

    text: str
    original: str
    altered: str
    source: str = ""


_UNITS = r"^(个工作日|工作日|个月|平方米|[个年月日天周㎡%％元倍层岁万亿千百])*"
_UPPER_BEFORE = ("不超过", "未满", "不满", "不足", "低于", "少于", "≤", "<")
_LOWER_BEFORE = ("满", "超过", "超出", "不低于", "至少", "高于", "多于", "≥", ">")
_UPPER_AFTER = ("以下", "以内", "内", "及以下", "以前", "之内")
_LOWER_AFTER = ("以上", "及以上", "之后")


def _bounds_a_figure(word: str, following: str) -> bool:
    """Whether the word stands where it may swap (see `_ONLY_BEFORE`); "" allows it closing the clause
    ("以扣除首付款后的金额为上限")."""
    allowed = _ONLY_BEFORE[word]
    closing = "" in allowed and (not following or following[0] in "，。；,;")
    return closing or following.startswith(tuple(a for a in allowed if a))


def _bound(rule: str, start: int, end: int) -> str | None:
    """Which way a threshold points: moving it the other way would make a still-true statement (a rule whose
    consequence is negated, "满2年…不能免征", stays true either way: data should avoid that form).

    "满2年免征" stays true at 满4年, so a lower bound may only move down; "15日内起诉" stays true at
    10日, so an upper bound may only move up.
    """
    before = rule[max(0, start - 3) : start]
    after = re.sub(_UNITS, "", rule[end : end + 10])
    bound = None
    if any(before.endswith(word) for word in _UPPER_BEFORE) or after.startswith(_UPPER_AFTER):
        bound = "upper"
    elif any(before.endswith(word) for word in _LOWER_BEFORE) or after.startswith(_LOWER_AFTER):
        bound = "lower"
    return bound


def _is_date_part(rule: str, start: int, end: int) -> bool:
    """Month and day of a date (2027年12月31日) or a written date (2015-03-01): changing them gives an
    impossible date or a typo, not a wrong rule."""
    before, after = rule[max(0, start - 1) : start], rule[end : end + 1]
    return "-" in before + after or "/" in before + after or (before in "年月" and before and after in "月日")


def _ranges_ascend(text: str) -> bool:
    return all(float(low) < float(high) for low, high in _RANGE.findall(text))


def _number_variants(raw: str, bound: str | None) -> list[str]:
    grouped = "," in raw
    raw = raw.replace(",", "")
    value = Decimal(raw)
    decimals = len(raw.split(".")[1]) if "." in raw else 0
    step = Decimal(1).scaleb(-decimals) if decimals else Decimal(1)
    if value == 0:
        candidates = [Decimal(1), Decimal(2)]
    elif value <= 3 and decimals:
        candidates = [value * 2, value + Decimal("0.5"), value * Decimal("1.5")]
    else:
        candidates = [value * 2, value / 2, value * Decimal("1.5")]
        if not decimals and value < 1000:
            candidates.append(value + (10 if value >= 20 else 1))
    out = []
    for candidate in candidates:
        rounded = candidate.quantize(step) if decimals else candidate.to_integral_value()
        text = format(rounded.normalize(), "f") if decimals else str(int(rounded))
        if grouped:
            text = f"{rounded:,}"
        moves_safely = bound is None or (rounded > value) == (bound == "upper")
        if rounded > 0 and rounded != value and moves_safely and text not in out:
            out.append(text)
    return out


def falsifications(rule: str) -> list[Falsified]:
    """Every single-fact change of `rule`, numbers first (they make the sharpest distractors)."""
    found: list[Falsified] = []
    for match in _NUMBER.finditer(rule):
        raw = match.group(1)
        if _is_date_part(rule, match.start(1), match.end(1)):
            continue
        if len(raw) == 4 and raw.startswith(("19", "20")) and rule[match.end(1) : match.end(1) + 1] == "年":
            continue  # a year: changing it makes a date trap rather than a wrong rule
        for variant in _number_variants(raw, _bound(rule, match.start(1), match.end(1))):
            text = rule[: match.start(1)] + variant + rule[match.end(1) :]
            if _ranges_ascend(text):  # "5%至3%" is nonsense, not a wrong rule
                found.append(Falsified(text=text, original=raw, altered=variant, source=rule))
    for left, right in (*OPPOSITES, *CONCEPTS):
        for word, opposite in ((left, right), (right, left)):
            position = rule.find(word)
            if position < 0 or opposite in rule or rule.count(word) > 1:
                continue  # absent, both sides named ("买方…卖方") or the word twice: one swap garbles it
            if _NEGATORS[0] in opposite and any(
                ch in _NEGATORS for ch in rule[max(0, position - 3) : position]
            ):
                continue  # "不应不低于": a negation already stands before the word
            following = rule[position + len(word) :]
            if any(word == w and following.startswith(tails) for w, tails in _COMPOUNDS):
                continue
            if word in _ONLY_BEFORE and not _bounds_a_figure(word, following):
                continue
            if any(ch in _NOT_AFTER.get(word, ()) for ch in rule[max(0, position - 2) : position]):
                continue  # "两家以上" → "以下" moves the boundary case, it does not flip the rule
            if word in _PARTIES and following.startswith("的"):
                continue  # "卖方的户口" → "买方的户口" names what the other party does not have
            if word in _ROLE_ACTS and _ROLE_ACTS[word].search(following):
                continue
            if word in _EXTREMES and _OF_LIMITS.search(rule):
                continue  # "取各项约束中的最高值" contradicts what a constraint is
            if word in _BUYERS and _SHOWN.match(following):
                continue  # listings are shown to buyers: "向卖方介绍房源" describes no act of the trade
            if opposite == "单独" and _BOTH_SIDES.search(rule):
                continue  # "由买卖双方单独申请" contradicts itself
            if word in _COMMISSION and _AGENT.search(rule):
                continue
            if "一半" in (word, opposite) and not following.startswith("计"):
                continue  # a share of what is counted ("全部计入", "一半计入"), not of a right or a sum
            if word == "部分" and rule[max(0, position - 1) : position] in _COUNTS:
                continue  # "两部分" counts parts, it is no share
            text = rule[:position] + opposite + rule[position + len(word) :]
            found.append(Falsified(text=text, original=word, altered=opposite, source=rule))
            break
    found += _timing_turned(rule)
    unique: dict[str, Falsified] = {}
    for item in found:
        if item.text != rule:
            unique.setdefault(item.text, item)
    return list(unique.values())


def _timing_turned(rule: str) -> list[Falsified]:
    """An act set before another moved after it ("应当在交房前结清" → "在交房后结清"), or the reverse:
    whether a step comes before or after is what a reader must know. Only a rule with one timing: in
    "在签约前和申请转移登记前各查询一次" one side turned may still be good practice."""
    match = _TIMING.search(rule)
    if match is None or rule.count("前") + rule.count("后") > 1:
        return []
    group = 2 if match.group(2) else 4
    said = match.group(group)
    turned = said.replace("前", "后") if "前" in said else said.replace("后", "前")
    text = f"{rule[: match.start(group)]}{turned}{rule[match.end(group) :]}"
    return [Falsified(text=text, original=match.group(), altered=turned, source=rule)]


def modal_turn(modal: str, consequence: str, lead: str = "", subject: str = "") -> str | None:
    """The modal a false statement of a rule takes, or None when every turn of it is eliminated at sight.
    A duty or a permission denied ("…无需将转让条件及时通知其他共有人", "…无需由估价师签名", "可以请求
    损害赔偿" → "不得") is struck by examiners as a mechanical flip a reader rules out without the rule,
    whether it is a formality, a qualification or a duty of a case. The one duty a reader does doubt is a
    payment owed in a case ("绕开经纪机构直接与卖方订立合同的，无需向经纪机构支付报酬"): whether the case
    makes it owed is what the rule settles. A needless act made a duty stays a trap, and so does a
    prohibition lifted where it is bounded (see `_BOUNDED_BAN`) and its act is no misconduct."""
    if modal in ("应当", "必须"):
        owed = lead.endswith("的，") and _PAYMENT.match(consequence) is not None and not _FAULT.search(lead)
        return "无需" if owed and not _CORE_DUTY.search(consequence) and "及时" not in consequence else None
    if modal == "不得":
        # A consent bounds the act told before it ("未经抵押权人同意，抵押人不得…", "不得未经…转让"); deep
        # inside the act it names what is banned ("不得发布未经产权人书面委托的房源").
        consent = "未经" in f"{lead}{subject}" or consequence.startswith("未经")
        bounded = consent or _BOUNDED_BAN.search(lead) or _BOUNDED_BAN.search(f"{subject}{consequence}")
        improper = any(word in consequence for word in MISCONDUCT) or _FAULT.search(lead)
        return "可以" if bounded and not improper else None
    return {"无需": "应当"}.get(modal)


def unbounded(rule: str) -> str | None:
    """A permission told without the guidance or consent that bounds it ("可以在经纪人的指导下从事" →
    "可以独立从事", "经抵押权人同意，可以转让" → "未经抵押权人同意，可以转让"), or None when it has none."""
    if "可以" not in rule:
        return None
    guided = _GUIDED.search(rule)
    if guided:
        return f"{rule[: guided.start()]}独立{rule[guided.end() :]}"
    consent = _CONSENT.search(rule)
    return f"{rule[: consent.start()]}未经{rule[consent.end() :]}" if consent else None


def falsify(rule: str, rng: random.Random) -> Falsified | None:
    options = falsifications(rule)
    if not options:
        return None
    numeric = [o for o in options if _NUMBER.fullmatch(o.original)]
    pool = numeric if numeric and rng.random() < 0.7 else options
    return rng.choice(pool)
