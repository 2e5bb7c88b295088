"""Definitions and classifications: "X是指…", "X，是…的Y", "X属于Y", and the classes of "按…分为A、B和C".

A meaning runs past a comma when the part before it is not yet a noun phrase ("定金是当事人为担保债务履行，
由一方预先向对方给付的一定数额的金钱" is one meaning), and stops at the comma after one ("居间是…的媒介服务，
它不以任何一方的名义…"). Each class of a classification is a definition whose category is the classification
(“按建筑结构划分的房屋”) and whose siblings are the other classes: the distractors of "属于（　）".
"""

from __future__ import annotations

import re

from retrieval.compiler.clauses import split_outside_brackets, strip_clause
from retrieval.compiler.enumerations import Listing
from retrieval.compiler.phrases import clean_subject, is_pronoun, without_asides
from retrieval.compiler.sentences import LIST_MARKER
from retrieval.facts import Fact

_ASIDE = r"(?:[（(][^）)]*[）)])?"
_MEANS = re.compile(
    rf"^(?:所谓)?(?P<term>[^，,。；;：:]{{2,20}}?){_ASIDE}[，,]?"
    r"(?:是指|系指|指的是|(?<![手导标定引明示挥南纹数])指(?![导标定引出明示挥南纹数称]))(?P<meaning>.+)$"
)
_IS = re.compile(
    rf"^(?P<term>[^，,。；;：:的（(]{{2,10}}?){_ASIDE}(?<![还但于就只凡或正都也即总要不而可])是(?![否由指])(?P<meaning>.+)$"
)
_BELONGS = re.compile(r"^(?P<term>.{2,20}?)(?<![不])属于(?P<category>.+)$")
_TERM_LEAD = re.compile(r"^(?:这里的|此处的|这里所说的|本办法所称的?|本法所称的?|所称的?|其中)")
# A meaning is complete once it ends in "…的<noun>", but not in a prepositional object ("以委托人的名义，").
_NOUN_END = re.compile(r"的(?!名义|身份|范围内|情况下|前提下|基础上|同时|时候|过程中|期间)[^的，,]{1,8}$")
# "根据…的嘱托文件，在登记簿上记载…的登记": a noun after 根据/以 is an object, the meaning goes on.
_OBJECT_OF = re.compile(r"(?:根据|按照|依据|依照|通过|经过|以)[^，,]*的[^的，,]{1,8}$")
# Words that open a clause but name no term ("原因是…", "除由法律规定…"), and meanings that are no meaning.
_NO_TERM = re.compile(
    r"^(?:除|对|在|按|由|如|若|凡|当|\d)|^(?:原因|结果|目的|关键|区别|前提|问题|核心|重点|方法|做法|作用|意义|特点)$"
)
_NO_MEANING = re.compile(r"(?:还是|是否|时|以外|之外)")


def _definition(sentence: str, subject: str, category: str, siblings: tuple[str, ...] = ()) -> Fact:
    return Fact(
        id="",
        kind="definition",
        slice_id="",
        source=sentence,
        subject=subject,
        category=category,
        siblings=siblings,
    )


def _meaning(first: str, rest: list[str]) -> str:
    """The meaning from its first clause, extended over following clauses until it ends in a noun phrase."""
    parts = [first]
    for clause in rest:
        if _NOUN_END.search(parts[-1]) and not _OBJECT_OF.search(parts[-1]):
            break
        parts.append(clause)
    return "，".join(parts)


def _term(raw: str) -> str:
    return clean_subject(_TERM_LEAD.sub("", LIST_MARKER.sub("", without_asides(raw).strip())))


def _stated(sentence: str) -> list[Fact]:
    facts: list[Fact] = []
    for segment in split_outside_brackets(strip_clause(sentence), "；;"):
        clauses = [strip_clause(c) for c in split_outside_brackets(segment, "，,") if strip_clause(c)]
        for index, clause in enumerate(clauses):
            rest = clauses[index + 1 :]
            if match := _MEANS.match(clause):
                term, meaning = _term(match["term"]), _meaning(match["meaning"], rest)
            elif (match := _IS.match(clause)) and index == 0:
                term, meaning = _term(match["term"]), _meaning(match["meaning"], rest)
                if not _NOUN_END.search(meaning):
                    continue
            elif match := _BELONGS.match(clause):
                term, meaning = _term(match["term"]), strip_clause(match["category"])
            else:
                continue
            if (
                not is_pronoun(term)
                and meaning
                and not _NO_TERM.search(term)
                and not _NO_MEANING.search(meaning)
            ):
                facts.append(_definition(sentence, term, meaning))
                break
    return facts


def extract_definitions(sentence: str, listings: list[Listing]) -> list[Fact]:
    titled = {title for listing in listings for title, _ in listing.bodies}
    facts = [fact for fact in _stated(sentence) if fact.subject not in titled]
    for listing in listings:
        if listing.classification:
            for item in listing.items:
                siblings = tuple(other for other in listing.items if other != item)
                facts.append(_definition(sentence, item, listing.head, siblings))
        facts.extend(_definition(sentence, title, body) for title, body in listing.bodies)
    return facts
