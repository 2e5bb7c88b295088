"""Questions for an examiner's review: one per chapter × type × mode (plus a calculation per calculation
chapter) from a bundled data set, through the same loop the bot uses, with the offline author.

Writes <out>/<name>.jsonl (everything, for the record) and <out>/<name>-<part>.md (only what a learner sees,
with the key and explanation, numbered for the reviewer), and prints produced / asked per type and mode.
    .venv/bin/python scripts/review_sample.py data [--out var/review]
    .venv/bin/python scripts/review_sample.py data/prose
With --cases, also writes <out>/<name>-cases.md: one 案例题 per chapter that can carry one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph.authors.base import AuthorError  # noqa: E402
from graph.authors.recipes.case import write_case  # noqa: E402
from graph.service import GenerationService, Result  # noqa: E402
from retrieval.sources import load_sources  # noqa: E402
from settings import load_settings  # noqa: E402
from vocabulary.kinds import MODES, QUESTION_TYPES  # noqa: E402

_TYPE_NAMES = {"single": "单选题", "multi": "多选题", "judge": "判断题"}
_MODE_NAMES = {"strict": "严谨", "flexible": "灵活"}


def reviewer_text(number: int, q: dict, kb: str) -> str:
    kind = "｜计算题" if q.get("calculation") else ""
    head = f"{kb}｜{_TYPE_NAMES[q['qtype']]}｜{_MODE_NAMES[q['mode']]}{kind}｜{q['slice_path']}"
    lines = [f"## Q{number}（{head}）", ""]
    lines.append(q["stem"])
    lines += [f"{chr(65 + i)}. {option}" for i, option in enumerate(q["options"])]
    lines += ["", f"答案：{''.join(q['answer'])}", "", q["explanation"], ""]
    return "\n".join(lines)


def case_text(number: int, case: dict, kb: str, chapter: str) -> str:
    """A 案例题 as the learner meets it: the situation, then each sub-question with its key."""
    head = f"{kb}｜案例题｜{_MODE_NAMES[case['mode']]}｜{chapter}"
    lines = [f"## 案例{number}（{head}）", "", case["situation"], ""]
    for index, q in enumerate(case["questions"], start=1):
        lines.append(f"### 第{index}小题（{_TYPE_NAMES[q['qtype']]}）")
        lines.append(q["stem"])
        lines += [f"{chr(65 + i)}. {option}" for i, option in enumerate(q["options"])]
        lines += ["", f"答案：{''.join(q['answer'])}", "", q["explanation"], ""]
    return "\n".join(lines)


async def sample(folder: Path, out: Path, tmp: Path, rounds: int, part_size: int, cases: bool) -> int:
    settings = load_settings(ROOT / "config.toml", environ={})
    settings.data.knowledge_base = folder / "knowledge_base.jsonl"
    settings.data.question_bank = folder / "question_bank.xlsx"
    settings.graph.checkpoint_db = tmp / f"{folder.name}-checkpoints.sqlite"
    sources = load_sources(settings.data.knowledge_base, settings.data.question_bank)
    service = await GenerationService.open(settings, sources=sources)
    asked: Counter[tuple[str, str]] = Counter()
    produced: Counter[tuple[str, str]] = Counter()
    records: list[dict] = []
    try:
        # One chat per chapter, as a learner practising it: what the chat was asked steers what comes next.
        chats = {c.key: i for i, c in enumerate(sources.tree.chapters, start=1)}
        for turn, chapter in enumerate(c for _ in range(rounds) for c in sources.tree.chapters):
            chat = chats[chapter.key]
            plan = [(t, m, False) for t in QUESTION_TYPES for m in MODES]
            if chapter.is_calculation:
                plan.append(("single", MODES[turn % 2], True))
            for qtype, mode, calc_only in plan:
                request = service.new_request(chat, qtype, mode, [chapter.key], calc_only).request
                result: Result = await service.generate(request)
                asked[(qtype, mode)] += 1
                record = {"chapter": chapter.name, "asked_type": qtype, "asked_mode": mode}
                if result.question is not None:
                    produced[(qtype, mode)] += 1
                    record |= result.question.model_dump() | {"outcome": result.outcome}
                else:
                    record |= {"failure": result.failure}
                records.append(record)
        written = []
        for chapter in sources.tree.chapters if cases else []:
            try:
                case = write_case(service.runner.context, chapter.key, "flexible", len(written))
            except AuthorError:
                continue
            shown = case.model_dump(mode="json")
            written.append(case_text(len(written) + 1, shown, folder.name, chapter.name))
    finally:
        await service.close()
    name = "prose" if folder.name == "prose" else "sample"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )
    delivered = [r for r in records if "stem" in r]
    numbered = [reviewer_text(i, r, name) for i, r in enumerate(delivered, start=1)]
    for part, start in enumerate(range(0, len(numbered), part_size), start=1):
        text = [f"# 待评审试题（{name}，第{part}部分）", "", *numbered[start : start + part_size]]
        (out / f"{name}-{part}.md").write_text("\n".join(text), encoding="utf-8")
    if written:
        (out / f"{name}-cases.md").write_text("\n".join([f"# 待评审案例题（{name}）", "", *written]), "utf-8")
        print(f"{name}: {len(written)} case questions")
    total_asked, total_made = sum(asked.values()), sum(produced.values())
    print(f"{name}: produced {total_made}/{total_asked}")
    for key in sorted(asked):
        print(f"  {key[0]:6} {key[1]:8} {produced[key]}/{asked[key]}")
    failures = Counter(r["failure"][:60] for r in records if "failure" in r)
    for reason, count in failures.most_common(5):
        print(f"  failed ×{count}: {reason}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folder", type=Path, help="data folder with knowledge_base.jsonl and question_bank.xlsx"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "review")
    parser.add_argument("--rounds", type=int, default=1, help="how many times to ask every combination")
    parser.add_argument("--part-size", type=int, default=50, help="questions per reviewer file")
    parser.add_argument("--cases", action="store_true", help="also write a 案例题 per chapter that can")
    args = parser.parse_args()
    folder = args.folder if args.folder.is_absolute() else ROOT / args.folder
    tmp = ROOT / "var" / "review-tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    for stale in tmp.glob(f"{folder.name}-checkpoints.sqlite*"):
        stale.unlink()
    return asyncio.run(sample(folder, args.out, tmp, args.rounds, args.part_size, args.cases))


if __name__ == "__main__":
    sys.exit(main())
