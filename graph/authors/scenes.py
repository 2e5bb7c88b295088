"""People, families, houses and dates for 灵活 questions: varied per seed so two questions of a round do not
share a client, and subject-neutral enough that any textbook's conditions can be set in them."""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass

SURNAMES = (
    "张", "王", "李", "赵", "刘", "陈", "杨", "黄", "周", "吴", "徐", "孙", "马", "朱", "胡", "郭",
    "何", "林", "罗", "高", "郑", "梁", "谢", "宋", "唐", "许", "韩", "冯", "邓", "曹", "彭", "曾",
    "萧", "田", "董", "潘", "袁", "蔡", "蒋", "余",
)  # fmt: skip
TITLES = ("先生", "女士")


def person(rng: random.Random, avoid: set[str] | None = None) -> str:
    """A client such as 周女士; `avoid` keeps two people of one question apart."""
    taken = avoid or set()
    for _ in range(20):
        name = rng.choice(SURNAMES) + rng.choice(TITLES)
        if name not in taken:
            return name
    return rng.choice(SURNAMES) + "某"


def plain_name(rng: random.Random, avoid: set[str] | None = None) -> str:
    """A person as the field's papers name parties in a case: 周某."""
    taken = avoid or set()
    for _ in range(20):
        name = rng.choice(SURNAMES) + "某"
        if name not in taken:
            return name
    return "甲某"


def date_in(rng: random.Random, year: int) -> str:
    """A plausible transaction date of `year` written as the papers do: 2026年3月18日."""
    return f"{year}年{rng.randint(1, 12)}月{rng.randint(1, 28)}日"


def day_in(rng: random.Random, year: int, last: dt.date | None = None) -> dt.date:
    """A transaction day of `year`, never after `last` (a question cannot ask about a deal still to come)."""
    final = dt.date(year, 12, 28)
    if last is not None and last < final:
        final = last
    month = rng.randint(1, final.month)
    return dt.date(year, month, rng.randint(1, final.day if month == final.month else 28))


def month_text(day: dt.date) -> str:
    return f"{day.year}年{day.month}月"


def agency(rng: random.Random) -> str:
    """A brokerage as case questions name one: 甲房地产经纪机构."""
    return rng.choice("甲乙丙丁") + "房地产经纪机构"


@dataclass(frozen=True)
class Party:
    """Who stands in a rule's role in a case: how the story introduces them and how it names them after."""

    role: str
    intro: str  # 买方周某
    name: str  # 周某


# A rule's role words and how a case introduces their bearer ("{name}" is a person's name). Longest first, so
# 经纪人员 wins over 经纪人; "个人" counts only before a verb, never in 个人所得税.
ROLES: tuple[tuple[str, str], ...] = (
    ("收受定金的一方", "收受定金的卖方{name}"),
    ("给付定金的一方", "交付定金的买方{name}"),
    ("当事人一方", "{name}"),
    ("房地产经纪人员", "经纪人员{name}"),
    ("经纪人员", "经纪人员{name}"),
    ("经纪人", "经纪人{name}"),
    ("委托人", "委托人{name}"),
    ("购房人", "购房人{name}"),
    ("买受人", "买受人{name}"),
    ("出卖人", "出卖人{name}"),
    ("借款人", "借款人{name}"),
    ("抵押人", "抵押人{name}"),
    ("权利人", "权利人{name}"),
    ("监护人", "监护人{name}"),
    ("业主", "业主{name}"),
    ("买方", "买方{name}"),
    ("卖方", "卖方{name}"),
    ("职工", "职工{name}"),
    ("个人", "{name}"),
)
ORGANISATIONS: tuple[str, ...] = ("房地产经纪机构", "经纪机构", "中介机构", "中介人")
_ROLE_PATTERN = re.compile(
    "|".join(re.escape(word) for word in ORGANISATIONS)
    + "|"
    + "|".join(
        re.escape(word) + (r"(?=购买|出售|销售|转让|将|申请|向|在)" if word == "个人" else "")
        for word, _ in ROLES
    )
)


def roles_in(text: str) -> list[str]:
    """The role words of `text` in order of appearance, each once."""
    return list(dict.fromkeys(match.group() for match in _ROLE_PATTERN.finditer(text)))


def cast(roles: list[str], rng: random.Random) -> dict[str, Party]:
    """A named party for every role: people get a name, a brokerage a letter; two roles never share one."""
    taken: set[str] = set()
    parties: dict[str, Party] = {}
    intros = dict(ROLES)
    for role in roles:
        if role in ORGANISATIONS:
            name = agency(rng)
            while name in taken:
                name = agency(rng)
            parties[role] = Party(role, name, name)
        else:
            name = plain_name(rng, taken)
            parties[role] = Party(role, intros[role].format(name=name), name)
        taken.add(parties[role].name)
    return parties
