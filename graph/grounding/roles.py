"""A case names people ("老孙", "王某", "赵女士") where the textbook names their role in the rule ("被继承人",
"委托人", "赠与人"). Read against a sentence that has a role word where the case has a name, the
name stands for that role: "老孙去世后，其儿子小孙在遗产处理前…" is the textbook's "被继承人去世后，其儿子
等继承人在遗产处理前…". Only a person's name gives way, and only to a word that names a party; any
other word the statement has of its own stays a difference."""

from __future__ import annotations

import re

# The commonest Chinese family names: what a case's people are called by.
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武"
    "戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮"
    "柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古"
    "吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫"
    "寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
# A person as a case calls them: 老孙, 小孙, 孙某, 孙某某, 孙先生, 孙女士.
PERSON = re.compile(rf"(?:[老小][{_SURNAMES}]|[{_SURNAMES}](?:某某|某|先生|女士))")
# A word that names a party of a rule: 被继承人, 委托人, 买方, 受赠者, 经纪人员, 按份共有人.
ROLE = re.compile(r"[\u4e00-\u9fff]{0,6}(?:人|方|者|人员)")
# Names a statement may trade for roles against one sentence: a case rarely has more people than this.
MOST_NAMES = 3


def named_person(words: str) -> bool:
    """The words are one person's name and nothing else."""
    return PERSON.fullmatch(words) is not None


def party(words: str) -> bool:
    """The words name a party of a rule (a role), not a thing or an act."""
    return ROLE.fullmatch(words) is not None and not PERSON.search(words)


def people(text: str) -> list[str]:
    """The names of people in the text, in order."""
    return PERSON.findall(text)
