"""Rules of conduct → 灵活 multiple and single choice: a concrete sale (a seller, the house, a date, the
brokerage and the broker in charge, the buyer) and things done in it. What the rules of the slice and its
section require or allow (应当 / 必须 / 可以) is done as they say; what they forbid (不得) is done anyway; a
duty is left undone ("编制房屋状况说明书时，未实地查看房屋"). "下列做法中，符合规定的有（　）", or, with one
duty left undone among things done right, "不符合规定的是（　）".

A rule is told as something done in the case only when it binds someone the case has — the broker, the
brokerage, the seller, the buyer — and its sentence holds all that qualifies it: "未经委托人同意，经纪人员不得
…" read as "经纪人员不得…" would forbid what consent allows, so a rule whose sentence opens with a clause the
fact did not keep (other than an authority or a purpose) is declined. Acts of the sale's parties are told
with their names; acts of the brokerage only beside the broker's, since an option cannot carry a firm's
long name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.authors import scenes
from graph.authors.recipes import options as O
from graph.authors.recipes.base import Brief, Written
from graph.authors.recipes.statements import VAGUE, alike, around, common_title
from retrieval.facts import MODALS, Fact, FactKind
from vocabulary.kinds import QuestionType

# Who a rule binds, as rules name them, and who that is in the case. Longest first.
_SIDES: dict[str, str] = {
    "房地产经纪人员": "broker",
    "经纪人员": "broker",
    "经纪人": "broker",
    "房地产经纪机构": "firm",
    "经纪机构": "firm",
    "中介机构": "firm",
    "中介人": "firm",
    "出卖人": "seller",
    "卖方": "seller",
    "业主": "seller",
    "委托人": "seller",
    "抵押人": "seller",
    "买受人": "buyer",
    "买方": "buyer",
    "购房人": "buyer",
    "借款人": "buyer",
    "买卖双方": "both",
    "当事人双方": "both",
    "双方": "both",
    "当事人": "both",
}
# What the case must say for a role to have someone in it.
_PREMISES = {"借款人": "{buyer}申请了个人住房贷款", "抵押人": "该住房设有抵押"}
_ACTOR = re.compile("|".join(sorted(_SIDES, key=len, reverse=True)))
_PARTIES = ("seller", "buyer", "both")
_DONE = {"应当": True, "必须": True, "可以": True, "不得": False}
_DUTIES = ("应当", "必须")
_NEGATION = re.compile(r"[不未没无非]")
_SITUATION_MAX = 14
_TIME_ENDS = ("时", "前", "后", "中", "期间")
_CONNECTIVES = ("但是", "但", "而", "因此", "所以", "同时", "此外", "另外")
# A situation or act that points elsewhere ("遇到此类房源", "有下列行为") has lost what it points at.
_POINTING = re.compile(r"此类|此项|此事|为此|对此|上述|下列|以下|前述|这些|这一|该|这种|其他")
# Bare verbs joined ("参与或协助", "夸大或隐瞒"): what they act on was left in another clause.
_BARE_VERBS = re.compile(r"^[\u4e00-\u9fff]{2}(?:或者|或|和|及)[\u4e00-\u9fff]{2}$")
_MODAL_WORDS = re.compile("|".join((*MODALS, "应", "须", "不能", "禁止", "既要", "也要")))
# A clause before a rule that only cites where it comes from or what it is for.
_BACKGROUND = re.compile(r"^(?:按照|根据|依照|依据|为了|为)|(?:规定|要求|意见)$")
# A clause before a rule shaped as a condition, an exception or a circumstance of it.
_QUALIFYING = re.compile(
    r"^(?:未经|除|如果|若|如|凡|在|对|经(?!纪)|非|没有|无|只有|仅)|(?:的|下|外|时|后|前|中)$"
)
_OPEN_ENDED = ("说明", "提示", "注意", "告知", "为准", "约定")
_NAMED_BEFORE = ("客户", "买方", "卖方", "业主", "委托人", "购房人", "承租人", "出租人", "当事人", "双方")
_WIDTHS = (5, 4)
_KEY_MIN = 9  # a compliant act shorter than this says too little to be checked against its sentence
_OPTION_MAX = O.OPTION_MAX + 2  # a situation and what was done in it
_NAME = 2  # 周某


@dataclass(frozen=True)
class Act:
    """Something done in the case: when (as the option opens), what, by whom (the rule's word for them and
    their side of the case), whether it complies, the rule it is judged by (as a sentence) and the fact
    that rule is."""

    when: str
    act: str
    role: str
    complies: bool
    rule: str
    fact: Fact
    undone: bool = False  # a duty left undone
    actor_first: bool = False  # the source names the actor before the situation ("经纪人员在合同中…")

    @property
    def side(self) -> str:
        return _SIDES[self.role]

    def told(self, who: str = "") -> str:
        """The act as an option, with who did it when the case has several people: "卖方周某在交付前…",
        "房屋上设有居住权时，王某…"."""
        done = f"{'未' if self.undone else ''}{self.act}"
        if self.actor_first:
            return f"{who}{self.when}{done}"
        return f"{self.when}{who}{done}"


def _actor(text: str) -> tuple[str, str] | None:
    """(actor, when it acts) when `text` is someone the case has, alone or with when it acts ("带看时经纪
    人员", "经纪人员核验房源时", "经纪人员在合同中"); None when it names anyone or anything else
    ("经纪人协理", "买方支付的首付款")."""
    found = _ACTOR.search(text)
    if found is None:
        return None
    before, after = text[: found.start()].strip("，, "), text[found.end() :].strip("，, ")
    if before and not before.endswith(_TIME_ENDS):
        return None
    if after and not (after.endswith(_TIME_ENDS) or after.startswith("在")):
        return None
    return found.group(), f"{before}{after}"


def _situation(fact: Fact) -> tuple[str, str, bool] | None:
    """(actor, when or in which case the rule applies as the option opens with it, whether the source
    names the actor first), from the subject or, when it names no one, the condition; a situation the
    source closes with a comma keeps it."""
    found = _actor(fact.subject) if fact.subject else None
    condition = fact.condition
    if found is None and not fact.subject and condition:
        found, condition = _actor(condition), ""
    if found is None:
        return None
    actor, said = found
    parts = [p for p in (said, condition) if p]
    for index, part in enumerate(parts):
        for connective in _CONNECTIVES:
            part = part.removeprefix(connective)
        parts[index] = part.removesuffix("的")
    if not parts:
        return actor, "", True
    if len(parts) > 1:
        return None
    part = parts[0]
    if len(part) > _SITUATION_MAX or _POINTING.search(part) or _MODAL_WORDS.search(part):
        return None
    opened = part if part.endswith(_TIME_ENDS) or part.startswith("对") else f"{part}时"
    pause = part.startswith("对") or re.search(f"{re.escape(part)}的?，", fact.source) is not None
    first = 0 <= fact.source.find(actor) < fact.source.find(part)
    return actor, f"{opened}{'，' if pause and not first else ''}", first


def _qualified(fact: Fact) -> bool:
    """Whether the rule's sentence says everything the act needs. A clause before the rule that names
    its subject or condition, states a rule of its own, cites an authority or gives a purpose is fine; a
    clause shaped as a qualification ("未经委托人同意", "…的") may restrict the rule and is not; any other
    clause is background the act must itself take up ("经纪服务费用由经纪机构统一收取，…不得以个人名义收取
    费用") — background the act shares no word with may hold what it is done to ("承重墙关系到结构安全，业主
    不能…自行拆除")."""
    sentence = next((s for s in re.split(r"[。！？；]", fact.source) if fact.consequence in s), "")
    before = sentence[: sentence.find(fact.consequence)]
    words = {fact.consequence[i : i + 2] for i in range(len(fact.consequence) - 1)}
    conditioned = False
    for clause in re.split(r"[，,]", before):
        clause = clause.strip()
        if fact.condition and fact.condition in clause:
            conditioned = True
        named = any(part and part in clause for part in (fact.subject, fact.condition))
        if not clause or named or _MODAL_WORDS.search(clause) or _BACKGROUND.search(clause):
            continue
        if conditioned:
            return False  # the condition was another clause's ("发生纠纷时，确认书是证据，…应当…")
        if _QUALIFYING.search(clause) or not any(word in clause for word in words):
            return False
    return True


def acts_of(fact: Fact) -> list[Act]:
    """What the rule lets the case show: the act done (compliant under 应当 / 必须 / 可以, a violation under
    不得), and for a duty also the act left undone.

    A forbidden act that holds a negation of its own ("收取未予标明的费用") is left out: read beside its
    rule, the two negations are too easily taken for the rule itself."""
    act = fact.consequence.strip()
    if fact.kind != "modal" or fact.modal not in _DONE or len(act) < 4 or not _qualified(fact):
        return []
    found = _situation(fact)
    if found is None or _POINTING.search(act) or _BARE_VERBS.match(act) or VAGUE.search(act):
        return []
    actor, when, first = found
    if "其" in act and not any(party in when for party in _NAMED_BEFORE):
        return []  # "提示其…" with no one named before it
    if not when and act.endswith(_OPEN_ENDED):
        return []  # "向当事人说明", "以登记簿查询结果为准": what about was in the sentence before
    if act.startswith("由"):
        return []  # "由配偶出具…": someone else acts
    rule = f"{actor}{when}{fact.modal}{act}" if first else f"{when}{actor}{fact.modal}{act}"
    done = Act(when, act, actor, _DONE[fact.modal], rule, fact, actor_first=first)
    checkable = done.complies and len(done.told()) >= _KEY_MIN
    plain_violation = not done.complies and not _NEGATION.search(done.told())
    acts = [done] if checkable or plain_violation else []
    if fact.modal in _DUTIES and not _NEGATION.match(act) and "而不是" not in act:
        acts.append(Act(when, act, actor, False, rule, fact, undone=True, actor_first=first))
    return [a for a in acts if len(a.told()) + _label_length(a) <= _OPTION_MAX]


def _label_length(act: Act) -> int:
    """How much naming who acted adds to an option (see `_Cast.who`)."""
    return {"firm": 0, "broker": _NAME, "both": len(act.role)}.get(act.side, len(act.role) + _NAME)


@dataclass(frozen=True)
class _Shape:
    """How many compliant and non-compliant options; `ask_wrong` keys the one that breaks a rule, which
    must then be a duty left undone (a sentence's own negation, checkable word for word)."""

    right: int
    wrong: int
    ask_wrong: bool = False

    def takes(self, act: Act) -> bool:
        return act.complies or not self.ask_wrong or act.undone

    def filled(self, acts: list[Act]) -> bool:
        return sum(a.complies for a in acts) == self.right and sum(not a.complies for a in acts) == self.wrong


@dataclass(frozen=True)
class _Cast:
    """The case's people: a seller, a buyer, the broker, the brokerage."""

    seller: str
    buyer: str
    broker: str
    agency: str

    def who(self, act: Act) -> str:
        """How an option names who acted: the party with the rule's word for them ("卖方周某", so the
        option still reads as its rule), the broker by name, both parties as 双方."""
        if act.side == "both":
            return act.role
        if act.side == "broker":
            return self.broker
        if act.side == "firm":
            return ""
        return f"{act.role}{self.seller if act.side == 'seller' else self.buyer}"


class Conduct:
    name = "conduct"
    kinds: tuple[FactKind, ...] = ("modal",)
    qtypes: tuple[QuestionType, ...] = ("multi", "single")

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype not in self.qtypes:
            return None
        own = acts_of(fact)
        if not own:
            return None
        pool: list[Act] = []
        for ring in around(fact, brief, ("modal",)):
            brief.rng.shuffle(ring)
            pool += [act for other in ring for act in acts_of(other)]
            for shape in self._shapes(brief):
                picked = self._pick(own, pool, shape, brief)
                if picked is not None:
                    return self._written(picked, shape, brief)
        return None

    def _shapes(self, brief: Brief) -> list[_Shape]:
        rng = brief.rng
        if brief.task.qtype == "single":
            shapes = [_Shape(1, 3), _Shape(3, 1, ask_wrong=True)]
            rng.shuffle(shapes)
            return shapes
        shapes = []
        for width in _WIDTHS:
            keys = list(range(2, width))
            rng.shuffle(keys)
            shapes += [_Shape(k, width - k) for k in keys]
        return shapes

    def _pick(self, own: list[Act], pool: list[Act], shape: _Shape, brief: Brief) -> list[Act] | None:
        """One act of the fact asked, then acts of other rules, one per rule and sentence (a duty done
        never stands beside the same duty left undone, nor an act beside another its sentence also
        states or one worded alike), of sides one case can show together."""
        firsts = [a for a in own if shape.takes(a)]
        brief.rng.shuffle(firsts)
        for first in firsts:
            picked = [first]
            for act in pool:
                need_right = sum(a.complies for a in picked) < shape.right
                need_wrong = sum(not a.complies for a in picked) < shape.wrong
                wanted = (act.complies and need_right) or (not act.complies and need_wrong)
                # two duties left undone give the answer away by their "未" alone
                twice_undone = act.undone and any(a.undone for a in picked)
                if wanted and not twice_undone and shape.takes(act) and self._fits(act, picked):
                    picked.append(act)
            if shape.filled(picked):
                return picked
        return None

    def _fits(self, act: Act, picked: list[Act]) -> bool:
        sides = {a.side for a in picked} | {act.side}
        if "firm" in sides and sides & set(_PARTIES):
            return False
        return not any(
            act.fact.id == a.fact.id
            or O.key(act.act) in O.key(a.fact.source)
            or O.key(a.act) in O.key(act.fact.source)
            or alike(act.act, a.act)
            for a in picked
        )

    def _stem(self, acts: list[Act], cast: _Cast, when: str, asked: str) -> str:
        """The sale as the acts need it: the brokerage's work for a seller, or the sale between the two
        parties with the broker who brought them together (and the loan or mortgage a role needs)."""
        sides = {a.side for a in acts}
        if sides & set(_PARTIES):
            premises = [
                _PREMISES[role].format(buyer=cast.buyer)
                for role in dict.fromkeys(a.role for a in acts)
                if role in _PREMISES
            ]
            noted = "".join(f"，{p}" for p in premises)
            return (
                f"{when}，卖方{cast.seller}委托{cast.agency}出售其名下的一套住房，经纪人员{cast.broker}促成"
                f"买方{cast.buyer}与{cast.seller}签订了存量房买卖合同{noted}。下列做法中，{asked}"
            )
        if "firm" in sides:
            return (
                f"{when}，业主{cast.seller}委托{cast.agency}出售其名下的一套住房，{cast.agency}安排经纪人员"
                f"{cast.broker}负责这笔业务。下列做法中，{asked}"
            )
        return (
            f"{when}，{cast.agency}的经纪人员{cast.broker}接受业主{cast.seller}的委托，为其出售名下的一套"
            f"住房。{cast.broker}的下列做法中，{asked}"
        )

    def _written(self, picked: list[Act], shape: _Shape, brief: Brief) -> Written | None:
        rng = brief.rng
        facts = [a.fact for a in picked]
        if not common_title(facts, brief):
            return None
        sources = [f.source for f in facts]
        broker = scenes.plain_name(rng)
        seller = scenes.plain_name(rng, {broker})
        cast = _Cast(seller, scenes.plain_name(rng, {broker, seller}), broker, scenes.agency(rng))
        named = any(a.side in _PARTIES for a in picked)
        ending = "有" if brief.task.qtype == "multi" else "是"
        asked = f"{'不' if shape.ask_wrong else ''}符合规定的{ending}（　）。"
        stem = self._stem(picked, cast, O.case_date(rng, *sources), asked)
        choices = [
            O.Option(
                a.told(cast.who(a) if named else ""),
                a.complies != shape.ask_wrong,
                f"{'符合' if a.complies else '违反'}规定，按照规定，{a.rule}",
            )
            for a in picked
        ]
        return O.choice(
            [f.id for f in facts],
            brief.task.qtype,
            stem,
            O.arrange(choices, rng),
            sources,
            difficulty=0.6 if brief.task.qtype == "multi" else 0.5,
        )


RECIPE = Conduct()


class ActJudge:
    """A rule of conduct with no condition to tell as a case, as a judge: what the broker or a party did at
    the stage the rule names, and whether that complies. A brokerage's own act names no one and is left
    out; the rest is filtered as `acts_of` filters the options of `Conduct`, so no open-ended or qualified
    rule is judged without what it needs. The author asks it only when no fact of the chapter can be told
    as a case whose details decide the answer."""

    name = "act_judge"
    kinds: tuple[FactKind, ...] = ("modal",)
    qtypes: tuple[QuestionType, ...] = ("judge",)

    def write(self, fact: Fact, brief: Brief) -> Written | None:
        if brief.task.mode != "flexible" or brief.task.qtype != "judge":
            return None
        acts = [a for a in acts_of(fact) if a.side != "firm"]  # a firm's act tells no one's case
        if not acts:
            return None
        rng = brief.rng
        act = rng.choice(acts)
        name = scenes.plain_name(rng)
        other = scenes.plain_name(rng, {name})
        named = {"broker": f"经纪人员{name}", "both": f"买方{name}与卖方{other}"}
        who = named.get(act.side, f"{act.role}{name}")
        told = act.told(who)
        said_complies = rng.random() < 0.5
        truth = said_complies == act.complies
        stem = f"{told}，这一做法{'符合' if said_complies else '违反'}规定。（　）"
        judged = "符合" if act.complies else "违反了"
        verdict = "正确" if truth else "错误"
        analysis = f"按照规定，{act.rule}。{told}，{judged}这一规定，题干的说法{verdict}。"
        return O.judge([fact.id], stem, truth, analysis, [fact.source], difficulty=0.4)


RECIPE_JUDGE = ActJudge()
