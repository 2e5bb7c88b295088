"""Cleaning the phrase before a verb into a subject a question can name.

The words a clause puts between its subject and its predicate ("一般", "最长", "但", "签约时") belong to
neither: a subject keeps the noun phrase, and a leading time phrase ("签约时经纪人员…") becomes part of the
condition instead of the subject.
"""

from __future__ import annotations

import re

_LEADING = re.compile(
    r"^(?:而且|而|并且|并|且|但是|但|同时|此外|另外|其中|因此|所以|因而|故|即|则|也|又|还|另|再|以及|是否|都|均|仍)"
)
# "《住宅设计规范》规定住宅层高…", "七部门意见要求…": who says it is not what it is about.
_AUTHORITY = re.compile(
    r"^(?:(?:按照|根据|依照|依据)?《[^》]*》)?(?:[^，,。；]{0,16}?(?:规定|要求|明确|指出)(?!的)了?)?(?=\S{2,})"
)
# Single characters that also end common words (供应, 许可, 原则, 平均, 偿还, 目的) are guarded.
_TRAILING = re.compile(
    r"(?:一般|通常|原则上|一律|(?<![平人])均|(?<!首)都|也|亦|(?<![规原准法细总])则|(?<!立)即|仍|仍然|只能|才|就"
    r"|(?<![偿归退返送])还|再|最长|最短|最多|最少|最高|最低|依法|及时|应当|应该|(?<![供相对反响适理答])应"
    r"|(?<![必无毋])须|必须|可以|(?<![许认])可|不得|需要|(?<![必所])需|(?<![重主需必只紧])要"
    r"|(?<![协机社学工委大])会|将|已|已经|可能|大致|大约|(?<![违节制公契预合大协])约|统一|宜|同时|(?<!目)的)$"
)
_ASIDE = re.compile(r"（[^（）]*）|\([^()]*\)")
_MARKER = re.compile(r"^(?:（\s*\d{1,2}\s*）|\(\s*\d{1,2}\s*\)|[①-⑳])")
_TIME_PREFIX = re.compile(
    r"^(?P<time>.{2,14}?(?:(?<![及同临随按准适暂定])时(?![间候期点段效限])|之前|之后|以前|以后|期间|(?<![提目当此以之向往最])前"
    r"|(?<![最然之以而落背善])后|(?<![一发引提兴])起))(?P<rest>(?!的).{2,})$"
)
_PRONOUNS = ("这", "那", "此", "它", "该", "上述", "前者", "后者", "两者", "二者")


def without_asides(text: str) -> str:
    """ "居间（《民法典》称为中介）" → "居间": brackets hold asides, not part of the name."""
    return _ASIDE.sub("", text).strip()


def clean_subject(text: str) -> str:
    subject = _MARKER.sub("", without_asides(text).strip(" ，,：:"))
    subject = re.split(r"[：:]", subject)[-1]  # "…划分住宅：建筑高度" is about 建筑高度
    subject = _AUTHORITY.sub("", subject)
    previous = None
    while subject != previous:
        previous = subject
        subject = _TRAILING.sub("", _LEADING.sub("", subject)).strip(" ，,")
    return subject


def split_time(text: str) -> tuple[str, str]:
    """("签约时", "经纪人员") from "签约时经纪人员"; ("", text) when no time phrase opens it."""
    match = _TIME_PREFIX.match(text)
    if match is None:
        return "", text
    return match["time"], match["rest"]


def is_pronoun(subject: str) -> bool:
    """Empty, or a word that points back ("这", "该", "其"), which a fact cannot name; "其他" names."""
    pointing = subject.startswith("其") and not subject.startswith(("其他", "其余", "其中"))
    return not subject or pointing or subject.startswith(_PRONOUNS)


_TIME_ONLY = re.compile(r"(?<![及同临随按准适暂定])(?:时|之前|之后|以前|以后|前|后|期间|之日起|起)$")


def is_time(phrase: str) -> bool:
    """ "采集时", "接受出售委托前", "2026年起": a phrase that only says when."""
    return bool(_TIME_ONLY.search(phrase))


# Where the noun phrase opening a clause ends: a verb, modal or adverb of the kinds textbooks put first.
_TOPIC_END = re.compile(
    r"(?:是|由|(?<![行作认成因])为|(?<![许认])可|(?<![相对反响供适理答])应|须|必须|不|(?<![存现实])在|按|将|对|向"
    r"|(?<![手])指|属于|包括|实行|采用|既|(?<![主重需必只紧])要|(?<![平人])均|(?<!首)都|也|(?<![协机社学])会"
    r"|(?<![功技才])能|通常|一般|往往|仍|只|依)"
)


def topic_noun(clause: str) -> str:
    """ "房屋状况说明书由经纪机构编制" → "房屋状况说明书": who a subjectless clause after it is about; a short
    clause without a verb of those kinds ("设立建设用地使用权") is a topic as a whole."""
    text = without_asides(clause)
    if _OPENS_WITH_VERB.match(text):
        return ""
    match = _TOPIC_END.search(text, 2)
    noun = clean_subject(text[: match.start()] if match else text)
    return "" if is_pronoun(noun) or len(noun) > _TOPIC_MAX else noun


_OPENS_WITH_VERB = re.compile(r"^(?:应|可|须|必|不|要|也|还|并|但|而|即|则|以|按|由|在|对|向|从|把|将|与|和)")
_TOPIC_MAX = 16
