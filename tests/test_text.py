"""The one definition of Chinese script and of folding, shared by every layer."""

from __future__ import annotations

from cartwise.text import CJK_CHAR, fold, han_runs, has_han, narrow


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
