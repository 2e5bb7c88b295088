import pytest

from retrieval.text import char_ngrams, get_tokenizer, jieba_words, text_runs


def test_runs_drop_punctuation_and_the_answer_blank() -> None:
    assert text_runs("契税的计税依据是（　）。") == ["契税的计税依据是"]
    assert text_runs("首套住房，面积140㎡以下") == ["首套住房", "面积140m2以下"]


def test_numbers_keep_decimal_point_and_percent_sign() -> None:
    assert text_runs("税率为1.5%。") == ["税率为1.5%"]
    assert text_runs("第一句.第二句") == ["第一句", "第二句"]


def test_full_width_and_upper_case_text_matches_its_plain_form() -> None:
    assert char_ngrams("ＬＰＲ为３％") == char_ngrams("lpr为3%")


def test_char_ngrams_are_one_to_three_characters_within_a_run() -> None:
    grams = char_ngrams("契税，免征")
    assert sorted(grams) == sorted(["契", "税", "契税", "免", "征", "免征"])
    assert "税免" not in grams


def test_jieba_cuts_words_and_drops_punctuation() -> None:
    words = jieba_words("卖方需要缴纳个人所得税。")
    assert "个人所得税" in words or {"个人", "所得税"} <= set(words)
    assert "。" not in words
    assert "".join(words) == "卖方需要缴纳个人所得税"


def test_tokenizer_lookup_names_the_choices() -> None:
    assert get_tokenizer("jieba") is jieba_words
    with pytest.raises(ValueError, match="char_ngram, jieba"):
        get_tokenizer("bigram")
