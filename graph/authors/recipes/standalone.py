"""Whether a clause cut from a textbook sentence still says something on its own. An option or a judge stem
is read without the passage around it: a clause that points at what the passage named ("两部分贷款",
"任何一方", "判断适用哪一套税率"), stops before what it introduces ("在全国统一的下限基础上") or lost its
subject ("以实际缴纳的增值税税额为计税依据") cannot be judged true or false, and examiners strike it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graph.authors.recipes.scenario import Rule

# A clause pointing at something outside it ("前两种用于…", "这类房屋", "其中", "几项限制"), or counting
# what it does not list ("享受免征应当同时满足两个条件", "两种口径的结果一致", "两部分贷款"), is a fragment
# of the passage that names them. A count with its items before it ("等额本息和等额本金两种方式") is whole.
_POINTING = re.compile(
    r"(?<!最)[前后][一二两三四五六七八九\d]+[种项类个条点]|[这该此]类|几[项种类个条]|前者|后者|其中|上述"
    r"|[两二三四五六七八九\d]+(?:个|项|种|类|条|组|部分)(?:条件|方面|要素|内容|情形|限制|步骤|环节|要求|因素|阶段"
    r"|[，。；]|$)|[两二三四五六七八九十\d]+[项种类个条点][\u4e00-\u9fff]{0,4}中，|同样|类似|这个|那个"
    r"|[还也亦](?:应|须|需|要|可|不|是|会|有|影响|包括|免征|属于)"
    r"|任何一方|另一方|对方|哪一?[套种个项类条]|(?:在|于|自|至)期(?:限|间)"
)
_COUNTED = re.compile(
    r"[两二三四五六七八九](?:个|项|种|类|条|组|部分)(?!月|工作日|以[上下内])[\u4e00-\u9fff]"
)
# Before a count: its items ("等额本息和等额本金两种方式"), or a verb stating the count ("分为三个级别").
_LISTED = re.compile(r"[、和与及或]|分为|分成|包括|共有|共")
# A clause ending in a locative, a conjunction or 的 was cut off before what it introduces.
_DANGLING = ("的", "时", "上", "中", "下", "内", "前", "后", "和", "或", "及", "与", "，")
# A clause ending in a copula ("5年以上的，首套住房为") was cut off before what it states.
_NO_COMPLEMENT = re.compile(r"(?<![行作认])为$|是$")
# "离职后应保守…秘密", "经批准准予续期的，应当重新签订…": a duty opening with its time or an approval and
# no one to bear it is a fragment of a passage; so is one opening with its modal ("不能把…合并后计算").
_NO_BEARER = re.compile(
    r"^(?:[^，]{1,6}(?:后|前|时)，?|经[^，]{1,12}的，)?(?:应当|应(?![纳付收缴])|不得|不能|可以|须|必须|无需|无须)"
)
# "以实际缴纳的增值税税额为计税依据": a clause opening with 以…为 has lost the subject it was said of.
_NO_SUBJECT = re.compile(r"^以[^，]{1,24}为")
# A tax base names its tax ("契税的计税依据", "个人所得税以…为计税依据"); alone it is the base of nothing.
_BASE = "计税依据"
_BASE_OF = re.compile(r"税(?:的计税依据|[^，]{0,4}以[^，]+为计税依据)")


# "合同没有约定的，一般可以解除合同": a fallback opens with what the clause before it set ("买方未能取得贷款
# 的，应当按照合同约定处理；"), and alone claims the fallback for every case.
_FALLBACK = re.compile(
    r"^(?:[^，]{0,4}(?:没有约定|未约定|约定不明|无约定|协商不成|未能协商一致)[^，]{0,4}的，|否则)"
)
# "基本情况包括家庭成员…": a generic head with no owner ("客户的") names nothing of its own.
_OWNERLESS = re.compile(r"^(?:基本|主要|具体|相关|其他|其余|有关)[\u4e00-\u9fff]{1,4}(?:包括|分为|是指)")
# "…到房屋交易服务窗口办理", "应当按照人民法院的要求及时办理": an act closing on a place, a manner or a
# request has lost the object it was done to (网签, 查封登记).
_NO_OBJECT = re.compile(r"(?:要求|窗口|及时|机构|部门|现场|当地|网上)(?:办理|提交|提供|出具|申请)$")


def fragment(text: str) -> bool:
    """Whether the clause leans on the passage it was cut from (see the module's docstring)."""
    plain = text.strip()
    return (
        plain.endswith(_DANGLING)
        or _NO_COMPLEMENT.search(plain) is not None
        or _NO_BEARER.match(plain) is not None
        or _NO_SUBJECT.match(plain) is not None
        or _FALLBACK.match(plain) is not None
        or _OWNERLESS.match(plain) is not None
        or _NO_OBJECT.search(plain) is not None
        or (_BASE in plain and _BASE_OF.search(plain) is None)
        or _counts_unlisted(plain)
        or _POINTING.search(plain) is not None
    )


def _counts_unlisted(text: str) -> bool:
    """A count of things ("两部分贷款", "两种口径") with none of them listed before it in its clause."""
    return any(
        _LISTED.search(text[: found.start()].rsplit("，", 1)[-1]) is None for found in _COUNTED.finditer(text)
    )


def leans_on_before(source: str, rule: Rule) -> bool:
    """Whether the source says the rule with an "also" the rule's sentence dropped ("缴纳增值税的卖方，还应当
    以…为计税依据"): what it adds to is the sentence before, and without it the rule claims too much."""
    said = f"{rule.lead}{rule.subject}"
    return any(f"{said}{adverb}{rule.written}" in source for adverb in "还也亦")
