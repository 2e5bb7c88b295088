from bench.__main__ import render
from bench.retrieval import chapter_hit_rate
from tests.test_retrieval_index import BANK, DEED, LOAN, question


def test_hit_rate_counts_same_chapter_neighbours_of_each_question() -> None:
    bank = [
        question(1, "single", DEED, "契税的税率由省级政府确定（　）。"),
        question(2, "single", DEED, "契税的计税依据不含增值税（　）。"),
        question(3, "single", LOAN, "商业贷款的首付比例不低于多少（　）。"),
        question(4, "single", LOAN, "商业贷款的利率按什么确定（　）。"),
    ]
    rate = chapter_hit_rate(bank, "char_ngram", k=1)
    assert (rate.questions, rate.precision, rate.hit) == (4, 1.0, 1.0)
    top_two = chapter_hit_rate(bank, "char_ngram", k=2)
    assert top_two.precision == 0.5
    assert top_two.hit == 1.0


def test_hit_rate_skips_questions_without_a_chapter() -> None:
    unaligned = [q.__class__(**{**q.__dict__, "kb_chapter": None}) for q in BANK[:3]]
    assert chapter_hit_rate([*unaligned, *BANK[3:]], "jieba").questions == len(BANK) - 3


def test_table_aligns_chinese_names_and_marks_results() -> None:
    table = render(
        [("契税 build", "1.00 s", "≤ 15 s", True), ("long benchmark name", "9 ms", "≤ 5 ms", False)]
    )
    lines = table.splitlines()
    assert lines[1].startswith("契税 build           1.00 s")
    assert lines[1].endswith("pass") and lines[2].endswith("FAIL")
