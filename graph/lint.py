"""The examiner's reject reasons a pattern can see (EXAM-QUALITY.md, D3–D9), run on every draft whoever wrote
it. Each rule names one concrete fault in Chinese and is minor: the draft goes to the fixer, it is not thrown
away. Rules are tuned to stay silent on the field's own papers — a rule that flags good questions teaches the
author the wrong thing."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graph.format import ANALYSIS, explanation_parts, numbers_in, same_number
from graph.schemas import Issue, IssueType
from retrieval.facts import COMPARATORS, MODALS
from vocabulary.records import Question

SPREAD_LIMIT = 8.0
DOUBLINGS = (2.0, 0.5)
DECIMAL_SLIPS = (10.0, 0.1)
SAME_FACT_MIN_CHARS = 4
KEY_CORE_MIN_CHARS = 3

_PAIR = re.compile(r"^\s*[^：:，,。；;“”]{1,15}[：:]\s*[^：:]+$")
# A quoted name, not quoted data: "按“LPR减45个基点”定价" gives the figures a calculation needs.
_NAMED_RULE = re.compile(r"(?:按照|依照|根据|依据|适用|按)\s*[“「\"]([^”」\"\d]{2,30})[”」\"]")
_CLASSIFYING = re.compile(r"属于|称为|叫做|认定为|归为|哪一类|哪种|何种")
_NUMERIC_OPTION = re.compile(r"\s*约?\s*(\d[\d,，]*(?:\.\d+)?)\s*([^\d\s]{0,3})\s*")
_MONEY_UNITS = ("元", "万元", "万")
_NEGATIONS = ("不", "未", "没有")
# Stems whose options are statements (a rule said right or wrong), not situations or values to pick from.
_ASKS_STATEMENTS = re.compile(r"说法|表述|叙述|观点|答复|回答|解释")
_VARIABLE = re.compile(
    "|".join(
        [
            r"\d[\d,，.]*%?",
            r"[一二两三四五六七八九十百]+(?=[年个月日天倍套层成])",
            *sorted(
                (*MODALS, *COMPARATORS, *_NEGATIONS, "需要", "无须", "不必", "须", "应"),
                key=len,
                reverse=True,
            ),
        ]
    )
)
_PUNCTUATION = re.compile(r"[\s，,。；;：:、“”\"'（）()]")
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
# A situation names someone (王某, 个人甲, 某家庭) or something particular (某住宅楼, 这套, 该房屋, a
# marriage); a case's figures (a dated event, an amount) count too unless a frame supplied the rest. Role
# words alone (买方, 借款人) and policy dates ("2027年12月31日前") are how rules are stated, not situations.
_PARTY = re.compile(
    rf"[{_SURNAMES}](?:某某?|先生|女士|小姐|夫妇|老师|师傅|阿姨)|个人[甲乙丙丁]|[甲乙丙丁](?:公司|企业)"
    r"|某(?![一些种])[\u4e00-\u9fff]|(?:(?<!第)[一两二三四五六七八九十]|这)(?:套|间|笔|宗|处|栋|辆|份)"
    r"|(?<!应)该(?!当)[\u4e00-\u9fff]|名下|已婚|离婚|未婚|再婚|去世|病故"
)
_FIGURES = re.compile(
    r"\d{4}年\d{1,2}月(?:\d{1,2}日)?(?![^，。；]{0,2}(?:前|起|至|以前|以后|之前|之后))"
    r"|\d[\d,，.]*\s*(?:万元|元|万|平方米|㎡|公里|千米|米|吨|件)"
)
# Frames that paste a name (and a date) in front of a textbook sentence: what they wrap is no situation.
_FRAMES = re.compile(
    r"[^，。；！？]*?向[^，。；“]{0,10}(?:咨询|解释|请教|询问)[^“。]{0,15}“[^”]*”[^。，；（]*"
    r"|[^，。；！？]*?在(?:实际)?业务中需要(?:确认|了解)"
    r"|(?:\d{4}年\d{1,2}月(?:\d{1,2}日)?，?)?在[^，。；]{1,8}(?:办理|经手|负责)的(?:这|该)笔业务中"
    r"|[\u4e00-\u9fff]{2,4}的下列(?:答复|回答|解释)中"
)
_ARITHMETIC_SLIP = re.compile(
    r"重复计算|多算了?一倍|少算了?一半|算了一半|计算了一半|小数点|[乘除]以(?:2|10)(?!\d)"
)
_MAKING = re.compile(r"[把将]“[^”]{1,30}”(?:改|换|替换)|改成了?|替换[为成]|篡改")


def _option(q: Question, letter: str) -> str | None:
    index = ord(letter) - 65
    return q.options[index] if 0 <= index < len(q.options) else None


def _keys(q: Question) -> list[str]:
    return [o for o in (_option(q, letter) for letter in q.answer) if o is not None]


def _numeric_options(q: Question) -> list[float] | None:
    """The options' values when every option is one number with one kind of unit (30万元 and 300000元
    are the same kind), else None."""
    if q.qtype == "judge" or len(q.options) < 2:
        return None
    values, kinds = [], set()
    for option in q.options:
        match = _NUMERIC_OPTION.fullmatch(option)
        if not match:
            return None
        unit = match.group(2)
        kinds.add("money" if unit in _MONEY_UNITS else unit)
        values.append(numbers_in(option)[0])
    return values if len(kinds) == 1 else None


def parameter_dump(q: Question) -> str | None:
    """D4: a stem written as "键：值；键：值", a calculator's arguments listed instead of a situation."""
    pairs = sum(bool(_PAIR.match(segment)) for segment in re.split(r"[；;]", q.stem))
    if pairs >= 2:
        return f"题干是“项目：数值”式的参数罗列（{pairs}组），应写成考生读得懂的业务情境"
    return None


def rule_named_in_stem(q: Question) -> str | None:
    """D5: a calculation or classification stem that quotes the rule or category deciding it
    ("按照“家庭第二套住房的契税税率”计算"): the examinee is told what the question tests."""
    named = _NAMED_RULE.search(q.stem)
    calculating = q.calculation is not None or _numeric_options(q) is not None
    if named and (calculating or _CLASSIFYING.search(q.stem)):
        return f"题干用“{named.group(1)}”点明了判定所依据的规则或类别，等于替考生做了关键一步"
    return None


def _shared_affixes(options: list[str]) -> tuple[int, int]:
    shortest = min(len(o) for o in options)
    prefix = 0
    while prefix < shortest and len({o[prefix] for o in options}) == 1:
        prefix += 1
    suffix = 0
    while suffix < shortest - prefix and len({o[-1 - suffix] for o in options}) == 1:
        suffix += 1
    return prefix, suffix


def _core(option: str, prefix: int, suffix: int) -> str:
    """What sets an option apart from its parallel siblings: the text between the affixes all options share,
    widened around a single character ("家庭第二套住房" → "第二套", not "二")."""
    start, end = prefix, len(option) - suffix
    if end - start < 2:
        start, end = max(start - 1, 0), min(end + 1, len(option))
    return option[start:end]


def key_words_in_stem(q: Question) -> str | None:
    """D5: the stem contains the words that set the key apart from a parallel set of options ("约定按日支付
    违约金，该约定属于" with 违约金条款 / 定金条款 / …). A whole key of four or more characters is the
    critic's give-away check; two-character cores (变更, 转移) are too often a situation's plain words."""
    if q.qtype == "judge" or _numeric_options(q) is not None or len(q.options) < 2:
        return None
    prefix, suffix = _shared_affixes(list(q.options))
    if not prefix and not suffix:
        return None  # not a parallel set: options that share nothing are the give-away check's business
    cores = {o: _core(o, prefix, suffix) for o in q.options}
    keys = set(_keys(q))
    if any(cores[o] in q.stem for o in q.options if o not in keys):
        return None  # the stem names a distractor's core too: it tells nothing apart
    for key in keys:
        core = cores[key]
        if len(core) >= KEY_CORE_MIN_CHARS and core in q.stem and not (len(key) >= 4 and key in q.stem):
            return f"题干中出现了正确选项“{key}”的区分词“{core}”，考生无须掌握知识即可选出答案"
    return None


def _fact_of(option: str) -> str:
    return _PUNCTUATION.sub("", _VARIABLE.sub("", option))


def same_fact_twice(q: Question) -> str | None:
    """D8: among statement options, two that are one sentence with only a number, a negation, a modal or a
    comparator changed — a true statement beside its own falsification, or two falsifications of one rule.
    Options that are situations ("持有满3年" / "持有满6年") may rightly differ in one number only."""
    if q.qtype == "judge" or not _ASKS_STATEMENTS.search(q.stem):
        return None
    seen: dict[str, int] = {}
    for index, option in enumerate(q.options):
        fact = _fact_of(option)
        if len(fact) < SAME_FACT_MIN_CHARS:
            continue
        if fact in seen:
            first, second = chr(65 + seen[fact]), chr(65 + index)
            return f"选项{first}与{second}是同一句话只改了数字或肯定否定，考的是找不同而非知识"
        seen[fact] = index
    return None


def _names(clause: str, letter: str, option: str, value: float) -> bool:
    if re.search(rf"(?<![A-Za-z]){letter}(?![A-Za-z])", clause):
        return True
    figure = _NUMERIC_OPTION.fullmatch(option).group(1)
    written = re.findall(r"(?<![\d.])\d[\d,]*(?:\.\d+)?(?![\d.])", clause)
    return figure in written or any(same_number(value, n) for n in numbers_in(clause))


def _unexplained(q: Question, values: list[float]) -> list[int]:
    """Distractors the explanation does not trace to a mistake. The field names each one, by letter or by
    figure, with what the examinee got wrong ("D没有减半", "30000元是误用旧政策的结果"); naming only an
    arithmetic slip ("对应重复计算", "小数点错位") explains nothing in the subject's terms."""
    analysis = explanation_parts(q.explanation).get(ANALYSIS) or q.explanation
    clauses = [c for c in re.split(r"[。；;，,\n]", analysis) if c.strip()]
    unexplained = []
    for index, value in enumerate(values):
        letter, option = chr(65 + index), q.options[index]
        if letter in q.answer:
            continue
        reasons = [c for c in clauses if _names(c, letter, option, value)]
        if not any(not _ARITHMETIC_SLIP.search(reason) for reason in reasons):
            unexplained.append(index)
    return unexplained


def spread_too_wide(q: Question) -> str | None:
    """D3: numeric options so far apart (largest ≥ 8 × smallest) that the absurd ones eliminate themselves;
    a far-off figure the explanation traces to a real mistake is exempt."""
    values = _numeric_options(q)
    if values is None:
        return None
    shown = [*q.correct_indexes, *_unexplained(q, values)]
    kept = [values[i] for i in shown if i < len(values) and values[i] > 0]
    if len(kept) >= 2 and max(kept) / min(kept) >= SPREAD_LIMIT:
        return f"数值选项相差悬殊（最大值是最小值的{max(kept) / min(kept):.0f}倍），离谱的干扰项一眼可排除"
    return None


def _at_sibling_rate(q: Question, value: float) -> bool:
    """The value is one of the stem's amounts at a round rate (1%, 1.5%, 30%…): the same computation with
    the next row of a rate table, which is how the field's number traps are made — 2% beside 1% is a sibling
    rate, not a doubling. No rate table has a row ten times another, so ×10 is never excused this way."""
    for base in numbers_in(q.stem):
        if base > value > 0:
            half_percents = value / base * 200
            if round(half_percents) >= 1 and abs(half_percents - round(half_percents)) < 1e-6:
                return True
    return False


def arithmetic_twin(q: Question) -> str | None:
    """D3: a distractor that is the key ×2, ÷2, ×10 or ÷10 and that neither the explanation traces to a
    mistake nor a sibling rate produces — an arbitrary edit, not something an examinee gets by misreading."""
    values = _numeric_options(q)
    if values is None or len(q.answer) != 1 or _option(q, q.answer[0]) is None:
        return None
    key = values[ord(q.answer[0]) - 65]
    for index in _unexplained(q, values):
        value = values[index]
        if any(same_number(value, key * f) for f in DECIMAL_SLIPS) or (
            any(same_number(value, key * f) for f in DOUBLINGS) and not _at_sibling_rate(q, value)
        ):
            return f"干扰项{chr(65 + index)}恰为正确答案的2倍、一半或10倍、十分之一，不是考生真会犯的错误"
    return None


def scenario_missing(q: Question) -> str | None:
    """D9: a 灵活 question with no situation a broker meets: no person or party and nothing particular
    (a date, an amount, a house, a family fact). A frame such as "X向从业人员咨询“…”方面的问题",
    "X在办理业务时向同事解释" or "某日，在X办理的这笔业务中" is taken out first, and what it wrapped
    must then name someone or something particular: a textbook figure inside a frame is no case."""
    if q.mode != "flexible":
        return None
    rest, framed = _FRAMES.subn("", q.stem)
    if _PARTY.search(rest) or (not framed and _FIGURES.search(rest)):
        return None
    return "灵活题没有具体业务情境（人物、房屋、金额、日期或家庭情况），只是给教材知识点套了一个固定句式"


def explains_the_making(q: Question) -> str | None:
    """D6: an explanation that tells how an option was produced ("把“3”改成了“4”") instead of why it is
    wrong in the subject's terms."""
    analysis = explanation_parts(q.explanation).get(ANALYSIS) or q.explanation
    found = _MAKING.search(analysis)
    if found:
        return f"解析交代的是选项怎样改出来的（{found.group(0)}……），应说明依据教材它为什么错"
    return None


@dataclass(frozen=True)
class Rule:
    kind: IssueType
    find: Callable[[Question], str | None]


RULES: tuple[Rule, ...] = (
    Rule("format_error", parameter_dump),
    Rule("logical_flaw", rule_named_in_stem),
    Rule("logical_flaw", key_words_in_stem),
    Rule("ambiguity", same_fact_twice),
    Rule("logical_flaw", spread_too_wide),
    Rule("logical_flaw", arithmetic_twin),
    Rule("format_error", scenario_missing),
    Rule("logical_flaw", explains_the_making),
)


def lint(q: Question) -> list[Issue]:
    return [
        Issue(type=rule.kind, severity="minor", detail=detail, source="rule")
        for rule in RULES
        if (detail := rule.find(q))
    ]
