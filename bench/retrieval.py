"""Retrieval benchmark: a synthetic 50,000-question bank, index build time, query latency and memory.

The synthetic bank is built from a vocabulary of domain words per chapter with a fixed seed, so stems share
the common words and lengths of real exam questions and every run measures the same work. The chapter hit
rate of each tokeniser is measured on the bundled sample bank when it has been assembled.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from retrieval.index import QuestionIndex
from retrieval.models import MASTERY_LEVELS, MotherQuestion, Slice
from retrieval.sources import Sources, load_sources
from retrieval.text import TOKENIZERS
from settings import load_settings
from vocabulary.kinds import QUESTION_TYPES

BANK_SIZE = 50_000
QUERIES = 500
SEED = 20240901
BUILD_TARGET_S = 15.0
QUERY_P95_TARGET_MS = 20.0
RSS_TARGET_MB = 600.0

Row = tuple[str, str, str, bool | None]

_SHARED_TEXT = (
    "房地产经纪人员 买卖双方 存量房 交易 房屋 产权人 合同 规定 城市 家庭 办理 应当"
    " 可以 不得 按照 情形 材料 时间 金额 费用 业主 购房人 经纪机构"
)
_SHARED_WORDS = tuple(_SHARED_TEXT.split())
_CHAPTER_WORDS: tuple[tuple[str, ...], ...] = (
    ("经纪服务", "居间", "代理", "行纪", "信息不对称", "佣金", "从业登记", "诚实信用"),
    ("砖混结构", "钢混结构", "板楼", "塔楼", "南北通透", "层高", "土地使用权", "出让年限"),
    ("房源信息", "实勘", "产权核验", "委托书", "房源编号", "挂牌价格", "真实房源", "查封"),
    ("客户需求", "带看", "带看确认书", "议价", "撮合", "首次接触", "购房预算", "看房路线"),
    ("网签备案", "合同条款", "违约金", "交房日期", "附属设施", "户口迁出", "补充协议", "解除合同"),
    ("定金", "订金", "双倍返还", "资金监管", "监管账户", "首付款", "划转", "专用账户"),
    ("契税", "计税依据", "首套住房", "第二套住房", "一百四十平方米", "税率", "不含增值税价格", "家庭成员"),
    ("增值税", "城市维护建设税", "教育费附加", "个人所得税", "满五唯一", "核定征收", "原值", "两年"),
    ("综合测算", "税费合计", "土地出让金", "登记费", "印花税", "免征", "政策沿革", "计税价格"),
    ("商业贷款", "首付比例", "贷款利率", "贷款市场报价利率", "等额本息", "等额本金", "月供", "利息总额"),
    ("住房公积金", "缴存余额", "缴存年限", "贷款额度", "组合贷款", "提取", "最高额度", "倍数"),
    ("贷款期限", "借款人年龄", "房龄", "评估价值", "成交价格", "贷款成数", "七十岁", "三十年"),
    ("不动产登记", "首次登记", "转移登记", "变更登记", "预告登记", "异议登记", "不动产权证书", "登记簿"),
    ("共有", "按份共有", "共同共有", "继承", "已购公房", "经济适用住房", "上市交易", "土地收益"),
    ("建筑面积", "套内建筑面积", "公摊面积", "面积误差比", "绝对值", "阳台", "实测面积", "预测面积"),
    ("容积率", "建筑密度", "绿地率", "规划用地", "土地年限", "总建筑面积", "基底面积", "规划条件"),
)
_STEM_TEMPLATES = (
    "关于{0}和{1}的说法，{2}正确的是（　）。",
    "某{2}在{0}时需要注意{1}，下列做法中错误的是（　）。",
    "根据{0}的相关规定，{1}属于{2}的是（　）。",
    "{0}中涉及{1}，{2}约为{n}万元，下列表述正确的有（　）。",
    "经纪人员向客户解释{0}时，关于{1}与{2}的说法正确的是（　）。",
    "{0}满{n}年后办理{1}，{2}应当（　）。",
)


@dataclass(frozen=True)
class Percentiles:
    p50_ms: float
    p95_ms: float


def synthetic_bank(size: int = BANK_SIZE, seed: int = SEED) -> list[MotherQuestion]:
    rng = random.Random(seed)
    questions = []
    for number in range(size):
        chapter_no = rng.randrange(len(_CHAPTER_WORDS))
        own = _CHAPTER_WORDS[chapter_no]
        words = [*rng.sample(own, 3), rng.choice(_SHARED_WORDS)]
        stem = rng.choice(_STEM_TEMPLATES).format(*words, n=rng.randint(2, 500))
        options = tuple(f"{rng.choice(own)}{rng.choice(_SHARED_WORDS)}{rng.randint(1, 99)}" for _ in range(4))
        chapter = (f"第{chapter_no // 3 + 1}篇", f"第{chapter_no + 1}章")
        qtype = QUESTION_TYPES[number % len(QUESTION_TYPES)]
        questions.append(
            MotherQuestion(
                id=f"synthetic:{number}",
                part=chapter[0],
                chapter=chapter[1],
                section="",
                name=f"{qtype[:2].upper()}{number}",
                qtype=qtype,
                stem=stem,
                options=options if qtype != "judge" else ("正确", "错误"),
                answer="A",
                point=f"{own[0]}（{rng.choice(MASTERY_LEVELS)}）",
                kb_chapter=chapter,
            )
        )
    return questions


def synthetic_slices(count: int, seed: int = SEED) -> list[Slice]:
    rng = random.Random(seed + 1)
    slices = []
    for number in range(count):
        chapter_no = rng.randrange(len(_CHAPTER_WORDS))
        words = rng.sample(_CHAPTER_WORDS[chapter_no], 5)
        slices.append(
            Slice(
                id=f"slice:{number}",
                path=(f"第{chapter_no // 3 + 1}篇", f"第{chapter_no + 1}章", "第一节", words[0]),
                mastery=rng.choice(MASTERY_LEVELS),
                text="。".join(f"{words[i]}与{words[i + 1]}的关系需结合{words[i + 2]}理解" for i in range(3)),
                rules=(f"{words[0]}按{words[1]}执行",),
            )
        )
    return slices


def lightly_edited(stem: str, rng: random.Random) -> str:
    """`stem` with one character replaced and its punctuation changed: what a lazy rewrite looks like."""
    position = rng.randrange(len(stem))
    return (stem[:position] + "该" + stem[position + 1 :]).replace("，", ",").replace("（　）", "()")


def timed(calls: Sequence[Callable[[], object]]) -> Percentiles:
    durations = []
    for call in calls:
        start = time.perf_counter()
        call()
        durations.append((time.perf_counter() - start) * 1000)
    cuts = statistics.quantiles(durations, n=100, method="inclusive")
    return Percentiles(p50_ms=cuts[49], p95_ms=cuts[94])


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("VmHWM missing from /proc/self/status")


@dataclass(frozen=True)
class HitRate:
    """How often a question's nearest same-type neighbours come from its own chapter.

    `precision` is the share of all returned neighbours from the same chapter; `hit` the share of questions
    with at least one. `questions` is how many questions were counted (those aligned to a chapter).
    """

    tokenizer: str
    questions: int
    precision: float
    hit: float


def chapter_hit_rate(questions: Sequence[MotherQuestion], tokenizer: str, k: int = 3) -> HitRate:
    """Leave-one-out: each chapter-aligned question's stem queries all the others of its own type.

    This is how the tokenisers are compared. The questioned row is excluded from the results rather than
    from the index, so its words still count in the IDF; on a bank of hundreds of questions that barely
    moves the weights.
    """
    index = QuestionIndex(questions, tokenizer=tokenizer)
    same = returned = hits = counted = 0
    for position, question in enumerate(index.questions):
        if question.kb_chapter is None:
            continue
        found = index.rank(question.stem, (question.qtype,), k, exclude=(position,))
        if not found:
            continue
        matching = sum(other.kb_chapter == question.kb_chapter for other, _ in found)
        counted += 1
        returned += len(found)
        same += matching
        hits += matching > 0
    if not counted:
        return HitRate(tokenizer, 0, 0.0, 0.0)
    return HitRate(tokenizer, counted, same / returned, hits / counted)


def few_shot_chapter_share(
    questions: Sequence[MotherQuestion], slices: Sequence[Slice], tokenizer: str
) -> float:
    """Share of the few-shot examples, over every slice and type, that come from the slice's own chapter."""
    index = QuestionIndex(questions, tokenizer=tokenizer)
    same = total = 0
    for knowledge in slices:
        for qtype in QUESTION_TYPES:
            examples = index.few_shot(knowledge, qtype, 3)
            same += sum(q.kb_chapter == knowledge.chapter for q in examples)
            total += len(examples)
    return same / total if total else 0.0


def _sample_sources() -> Sources | None:
    """The bundled sample through the project's own importer, or None while it is not assembled."""
    data = load_settings().data
    if not (data.knowledge_base.exists() and data.question_bank.exists()):
        return None
    return load_sources(data.knowledge_base, data.question_bank)


def _index_rows(tokenizer: str, bank: Sequence[MotherQuestion], slices: Sequence[Slice]) -> list[Row]:
    rng = random.Random(SEED)
    start = time.perf_counter()
    index = QuestionIndex(bank, tokenizer=tokenizer)
    build_s = time.perf_counter() - start
    few_shot = timed(
        [lambda s=s, t=QUESTION_TYPES[i % 3]: index.few_shot(s, t) for i, s in enumerate(slices)]
    )
    stems = [lightly_edited(q.stem, rng) for q in rng.sample(list(bank), len(slices))]
    duplicate = timed([lambda s=s: index.is_near_duplicate(s) for s in stems])
    rows: list[Row] = [
        (
            f"retrieval[{tokenizer}]: index build, {len(bank):,} questions",
            f"{build_s:.2f} s",
            f"≤ {BUILD_TARGET_S:g} s",
            build_s <= BUILD_TARGET_S,
        ),
    ]
    for label, p in (("few-shot", few_shot), ("near-duplicate", duplicate)):
        rows.append((f"retrieval[{tokenizer}]: {label} query p50", f"{p.p50_ms:.2f} ms", "", None))
        rows.append(
            (
                f"retrieval[{tokenizer}]: {label} query p95",
                f"{p.p95_ms:.2f} ms",
                f"≤ {QUERY_P95_TARGET_MS:g} ms",
                p.p95_ms <= QUERY_P95_TARGET_MS,
            )
        )
    return rows


def run() -> list[Row]:
    bank = synthetic_bank()
    slices = synthetic_slices(QUERIES)
    rows = [row for name in TOKENIZERS for row in _index_rows(name, bank, slices)]
    rss = peak_rss_mb()
    rows.append(
        (
            "retrieval: peak RSS (whole process)",
            f"{rss:.0f} MB",
            f"≤ {RSS_TARGET_MB:g} MB",
            rss <= RSS_TARGET_MB,
        )
    )
    sample = _sample_sources()
    if sample is None:
        return [*rows, ("retrieval: tokeniser comparison on the sample", "sample not assembled", "", None)]
    for name in TOKENIZERS:
        rate = chapter_hit_rate(sample.questions, name)
        share = few_shot_chapter_share(sample.questions, sample.slices, name)
        rows.append(
            (
                f"retrieval[{name}]: sample, same-chapter share of 3 nearest",
                f"{rate.precision:.1%} (≥1: {rate.hit:.1%}, n={rate.questions})",
                "",
                None,
            )
        )
        rows.append((f"retrieval[{name}]: sample, few-shot from slice's chapter", f"{share:.1%}", "", None))
    return rows
