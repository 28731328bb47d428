"""The one definition of Chinese script and of folding, shared by every layer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.slow
def test_jieba_is_imported_without_pkg_resources_and_still_finds_its_dictionary(
    tmp_path: Path,
) -> None:
    """Its dictionary is then read with `open`: built from dict.txt where no cache exists (a
    fresh machine), and segmenting as before."""
    probe = (
        "import sys\n"
        "from cartwise.text import jieba_segmenter\n"
        "jieba = jieba_segmenter()\n"
        f"jieba.dt.tmp_dir = {str(tmp_path)!r}\n"
        "print(jieba.lcut('我想买一双跑步鞋'), 'pkg_resources' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
    ).stdout
    from cartwise.text import jieba_segmenter

    expected = jieba_segmenter().lcut("我想买一双跑步鞋")  # this process's cached dictionary
    assert out.strip() == f"{expected} False"
    assert (tmp_path / "jieba.cache").is_file()
