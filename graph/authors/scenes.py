"""People, families, houses and dates for 灵活 questions: varied per seed so two questions of a round do not
share a client, and subject-neutral enough that any textbook's conditions can be set in them."""

from __future__ import annotations

import random

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
