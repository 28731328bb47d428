"""jieba's prefix dictionary read from the memory-mapped table answers as the dict does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cartwise.jieba_table import PrefixTable, write_table

WORDS = {"跑": 0, "跑步": 812, "跑步鞋": 3, "鞋": 2401, "42": 7, "é": 1, "": 0}


def test_every_key_is_found_with_its_frequency_and_no_other_is(tmp_path: Path) -> None:
    path = tmp_path / "words.table"
    write_table(path, WORDS, total=3224)
    table = PrefixTable(path)
    assert table.total == 3224
    for word, freq in WORDS.items():
        assert word in table
        assert table[word] == freq
        assert table.get(word) == freq
    for absent in ("跑鞋", "步", "4", "ée", "鞋鞋"):
        assert absent not in table
        assert table.get(absent) is None
        assert table.get(absent, 1) == 1
        with pytest.raises(KeyError):
            table[absent]


def test_a_written_word_shadows_the_file(tmp_path: Path) -> None:
    path = tmp_path / "words.table"
    write_table(path, WORDS, total=3224)
    table = PrefixTable(path)
    assert table.get("跑鞋") is None  # remembered as a miss
    table["跑鞋"] = 5
    table["跑步"] = 0
    assert (table["跑鞋"], table["跑步"]) == (5, 0)


def test_a_truncated_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "words.table"
    write_table(path, WORDS, total=3224)
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(ValueError, match="not a complete"):
        PrefixTable(path)


@pytest.mark.slow
def test_the_table_of_jiebas_dictionary_segments_as_jieba_does(tmp_path: Path) -> None:
    """A fresh process with no table builds one from `dict.txt` in the temporary directory;
    the next opens it; both answer every key of jieba's own prefix dict alike and segment as
    jieba with that dict does."""
    probe = (
        "import sys, tempfile\n"
        f"tempfile.tempdir = {str(tmp_path)!r}\n"
        "from cartwise.text import jieba_segmenter\n"
        "jieba = jieba_segmenter()\n"
        "table = jieba.dt.FREQ\n"
        "with open(jieba.get_dict_file().name, 'rb') as f:\n"
        "    freq, total = jieba.dt.gen_pfdict(f)\n"
        "assert type(table).__name__ == 'PrefixTable' and table.total == total\n"
        "assert all(table.get(k) == v for k, v in freq.items())\n"
        "assert not any(k + '嗯嗯' in table for k in list(freq)[:50000])\n"
        "text = '三百以内的跑步鞋，42码。给我妈买条围巾，预算200；想买个保温杯，不要塑料的'\n"
        "ours = (jieba.lcut(text), jieba.lcut_for_search(text), list(jieba.tokenize(text)))\n"
        "plain = jieba.Tokenizer()\n"
        "plain.FREQ, plain.total, plain.initialized = freq, total, True\n"
        "assert ours == (plain.lcut(text), plain.lcut_for_search(text), list(plain.tokenize(text)))\n"
        "print('pkg_resources' in sys.modules, len(freq))\n"
    )
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
        ).stdout
        assert out.split() == ["False", "498113"]
        assert len(list(tmp_path.glob("cartwise-jieba-*.table"))) == 1


def test_past_its_read_budget_the_table_answers_from_the_whole_dict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("cartwise.jieba_table.WHOLE_AFTER", 3)
    path = tmp_path / "words.table"
    write_table(path, WORDS, total=3224)
    table = PrefixTable(path)
    assert table.load_whole() == WORDS
    assert [table.get(w) for w in ("跑", "跑步", "步")] == [0, 812, None]
    assert table._whole is None
    assert [table.get(w) for w in ("跑步鞋", "鞋", "42", "é", "", "步")] == [3, 2401, 7, 1, 0, None]
    assert table._whole == WORDS


def test_the_dictionarys_plain_verbs_are_written_once_and_read_back(tmp_path: Path) -> None:
    """The verbs come from `dict.txt`'s tags (v, not the verbal nouns vn); the second call
    reads the file the first wrote and answers the same."""
    from cartwise.jieba_table import dictionary_verbs
    from cartwise.text import jieba_segmenter

    jieba = jieba_segmenter()
    first = dictionary_verbs(jieba, tmp_path)
    assert {"打孔", "超过", "安装"} <= first
    assert not {"运动", "塑料", "香菜"} & first
    written = list(tmp_path.glob("cartwise-jieba-*.verbs"))
    assert len(written) == 1
    written[0].write_text("只有这个", encoding="utf-8")
    assert dictionary_verbs(jieba, tmp_path) == {"只有这个"}
