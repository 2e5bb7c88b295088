"""Modal rules: who must, may or must not do what, under which condition.

Textbooks vary the wording ("应" and "应当", "须" and "必须", "不需要" and "无需", "禁止" and "不得"); a
fact carries the canonical modal of `retrieval.facts.MODALS`, so a falsifier flips 应当 to 不得 whatever the
book wrote. A modal that only bounds a number ("不得超过三年") is left to the threshold fact of the same
clause, and a modal inside a condition ("不能提供原值凭证的") states no rule.
"""

from __future__ import annotations

import re

from retrieval.compiler.clauses import bracket_depths, joined, rules, strip_clause
from retrieval.compiler.enumerations import has_numbered_list
from retrieval.compiler.phrases import clean_subject, is_pronoun, is_time, split_time, topic_noun
from retrieval.compiler.quantities import find_quantities
from retrieval.facts import Fact

_CANONICAL: dict[str, str] = {
    "应当": "应当",
    "应该": "应当",
    "应": "应当",
    "必须": "必须",
    "须": "必须",
    "不得": "不得",
    "不应当": "不得",
    "不应该": "不得",
    "不应": "不得",
    "禁止": "不得",
    "严禁": "不得",
    "不准": "不得",
    "不允许": "不得",
    "不能": "不得",
    "不可": "不得",
    "可以": "可以",
    "可": "可以",
    "无需": "无需",
    "无须": "无需",
    "毋须": "无需",
    "不需要": "无需",
    "不需": "无需",
    "不必": "无需",
}
# Guards keep the characters out of words that only contain them: 应纳税额, 相应, 须知, 许可, 可能 …
_MODAL = re.compile(
    r"不需要|不允许|不应当|不应该|不应|应当|应该|必须|不得|禁止|严禁|不准|不能|不可|可以|无需|无须|毋须|不需|不必"
    r"|(?<![相对反响供适理答回效呼])应(?!纳税|税|收|付|得|有|急|对|用|聘|届|变|还本|还款|还利息)"
    r"|(?<![必无毋])须(?!知)"
    r"|(?<![许认即方尚宁])可(?=按|向|由|申请|选择|办理|要求|自行|提取|享受|续|通过|委托|继续|在|于|作为|用于|适用"
    r"|减|免|凭|予|获得|直接|分|一次性|同时|随时|不)"
)
_BOUND = re.compile(r"^(?:超过|低于|少于|高于|多于|小于|大于)")
_NOT_A_RULE = re.compile(r"^(?:以)?(?:分为|分成|划分|说|见|能|知|想而知)")  # 可分为, 可见: no permission
_DEADLINE = re.compile(r"(?:以内|之内|内)")
# "职业道德是…应当遵循的行为准则", "列举了…不得从事的行为": the modal sits inside a noun phrase.
_RELATIVE = re.compile(r"(?:是|了|为)")
_SHORT_RELATIVE = re.compile(r"^[^的，,]{1,3}的")
_PREPOSITION_END = re.compile(r"(?:为|对|向|给|把|将|从|与|和|在)$")
# "应当公示下列内容", "下列人员可以…", "同样须标明…": what the rule binds or asks is said elsewhere in the
# passage, so the clause alone states no rule a reader could check.
_POINTING = re.compile(r"下列|如下|上述|前述|同样")
# A list item's opening label before its clause: "（1）强制性，", "②互助性，".
_ITEM_OPENING = re.compile(r"(?:[（(]\d{1,2}[）)]|[①-⑳])(?P<label>[^，,；;。：:]{1,8})[，,]\s*$")
_CONDITION_ENDS = ("的", "时", "后", "前")


def _outside_brackets(text: str) -> list[re.Match[str]]:
    depths = bracket_depths(text)
    return [match for match in _MODAL.finditer(text) if depths[match.start()] == 0]


def _states_rule(prefix: str, consequence: str, listed: bool) -> bool:
    if len(consequence) < 2 or _NOT_A_RULE.match(consequence):
        return False
    if _BOUND.match(consequence) and find_quantities(consequence):
        return False  # "不得超过三年": the threshold fact states it
    if any(_DEADLINE.match(consequence[q.end :]) for q in find_quantities(consequence)):
        return False  # "应当在5个工作日内撤销": so does the deadline's
    if _RELATIVE.search(prefix) and re.search(r"的[^的]{1,6}$", consequence):
        return False
    if _SHORT_RELATIVE.match(consequence) or _PREPOSITION_END.search(prefix):
        return False  # "可以申请的贷款年限", "为不得交易的房屋": the modal qualifies a noun
    if _POINTING.search(prefix) or _POINTING.search(consequence):
        return False
    return not (listed and not clean_subject(prefix))


def _labelled(sentence: str, clause: str) -> bool:
    """Whether the clause follows a label in its list item ("（1）强制性，单位和职工都应当按规定缴存"): it
    leaves what it speaks of to the label and the list's head, and as a rule alone it is a fragment."""
    at = sentence.find(clause.strip())
    opening = _ITEM_OPENING.search(sentence[:at]) if at > 0 else None
    return opening is not None and not opening["label"].endswith(_CONDITION_ENDS)


def extract_modals(sentence: str) -> list[Fact]:
    facts: list[Fact] = []
    subject_before = ""
    listed = has_numbered_list(sentence)
    for rule in rules(strip_clause(sentence)):
        for clause in rule.main:
            matches = _outside_brackets(clause)
            if not matches:
                continue
            match = matches[0]
            consequence = strip_clause(clause[match.end() :].split("：")[0])  # a list after "：" is no part
            time, rest = split_time(clause[: match.start()])
            subject = clean_subject(rest)
            if is_time(subject):
                time, subject = subject, ""  # "核验产权时不得只看…": when, not who
            if is_pronoun(subject):
                opening = rule.main[0]
                subject = subject_before or (topic_noun(opening) if opening != clause else "")
            subject_before = subject
            if not _states_rule(clause[: match.start()], consequence, listed):
                continue
            if listed and _labelled(sentence, clause):
                continue
            facts.append(
                Fact(
                    id="",
                    kind="modal",
                    slice_id="",
                    source=sentence,
                    subject=subject,
                    modal=_CANONICAL[match.group()],
                    consequence=consequence,
                    condition=joined([*rule.conditions, time]),
                )
            )
    return facts
