"""The one definition of Chinese script and of folding, shared by every layer."""

from __future__ import annotations

from cartwise.text import CJK_CHAR, fold, han_runs, has_han, leading_words, narrow


def test_han_detection_covers_common_extension_a_and_compatibility_characters() -> None:
    assert has_han("我要买 Sony 耳机")
    assert has_han("㐀")  # Extension A
    assert has_han("豈")  # compatibility ideograph
    assert not has_han("Sony headphones 42")
    assert not has_han("ひらがな")  # kana is CJK but not Han


def test_han_runs_split_on_everything_else() -> None:
    assert han_runs("买 Sony 耳机和雨靴") == ["买", "耳机和雨靴"]


def test_cjk_includes_kana_and_hangul() -> None:
    assert len(CJK_CHAR.findall("耳机ひら한국")) == 6


def test_fold_narrows_width_case_and_spaces() -> None:
    assert narrow("ＸＬ ４２") == "XL 42"
    assert fold("  ＰＬＡＳＴＩＣ   Case ") == "plastic case"


def test_leading_words_count_each_chinese_character_and_each_spaced_word() -> None:
    assert leading_words("三百以内的跑步鞋，42码", 5) == "三百以内的"
    assert leading_words("wireless  earbuds under 300", 2) == "wireless  earbuds"
    assert leading_words("买 Sony WH-1000XM5 耳机", 3) == "买 Sony WH-1000XM5"
    assert leading_words("short", 5) == "short"
    assert leading_words("", 5) == ""
