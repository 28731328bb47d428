"""Measure the two ways to give a Chinese-only word an ASCII slug (issue 11, item 5).

- alias table: zh → en words mined from the catalogs, by aligning the same product (brand +
  model) listed in Chinese (JD, Taobao, Pinduoduo) and in English (Amazon, Walmart, Shopee)
  in the bundled demo catalog;
- pypinyin: the word's pinyin.

Test words: the attribute values (材质, 图案, 风格 ...) annotated in real JD titles
(`../shared/data/nlu/jd_mepave/attribute_spans.jsonl`) that the rules lexicon does not know
— exactly the words the open vocabulary must handle. Reported: coverage (share of words
given any slug), and collisions (distinct words sharing one slug: two different dislikes
merged into one key).

    PYTHONPATH=src python scripts/measure_open_slugs.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from collections import Counter, defaultdict
from importlib import resources
from pathlib import Path

from cartwise.text import HAN
from cartwise.understanding.rules.lexicon import load_lexicon
from cartwise.vocabulary.slugs import slugify

ZH_PLATFORMS = {"jd", "taobao", "pinduoduo"}
CJK_WORD = re.compile(rf"[{HAN}]{{2,}}")


def mine_alias_table() -> dict[str, str]:
    """zh word → en word from products listed in both languages (same brand and model)."""
    path = resources.files("cartwise.catalog").joinpath("demo/demo_catalog.jsonl.gz")
    with gzip.open(str(path), "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    by_model: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(
        lambda: {"zh": [], "en": []}
    )
    for row in rows:
        model = re.search(r"\b[A-Z]{0,3}\d{2,4}[A-Z]*\b", row["title"])
        if not model:
            continue
        side = "zh" if row["platform"] in ZH_PLATFORMS else "en"
        by_model[(row["brand"], model.group(0))][side].append(row["title"])
    pairs: Counter[tuple[str, str]] = Counter()
    for sides in by_model.values():
        for zh_title in sides["zh"]:
            zh_words = CJK_WORD.findall(zh_title.split("）")[-1])
            for en_title in sides["en"]:
                en_words = re.findall(r"[a-z]+(?: [a-z]+)?", en_title.lower())
                for zh in zh_words:
                    for en in en_words:
                        pairs[(zh, en)] += 1
    best: dict[str, tuple[str, int]] = {}
    for (zh, en), count in pairs.items():
        if count > best.get(zh, ("", 0))[1]:
            best[zh] = (en, count)
    return {zh: en.replace(" ", "-") for zh, (en, count) in best.items() if count >= 2}


def test_words(data: Path) -> list[str]:
    lexicon = load_lexicon()
    words: set[str] = set()
    path = data / "nlu" / "jd_mepave" / "attribute_spans.jsonl"
    for line in path.read_text("utf-8").splitlines():
        for span in json.loads(line)["spans"]:
            term = str(span["term"])
            if CJK_WORD.fullmatch(term) and not lexicon.scan(term):
                words.add(term)
    return sorted(words)


def collisions(slugs: dict[str, str]) -> int:
    by_slug: Counter[str] = Counter(slugs.values())
    return sum(n for n in by_slug.values() if n > 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    args = parser.parse_args()
    words = test_words(args.data)
    table = mine_alias_table()
    by_table = {w: table[w] for w in words if w in table}
    by_pinyin = {w: slugify(w) for w in words}
    print(f"test words (JD attribute values unknown to the lexicon): {len(words)}")
    print(f"alias table: {len(table)} zh→en pairs mined from the demo catalog")
    print(
        f"| method | coverage | collisions |\n|---|---|---|\n"
        f"| alias table | {len(by_table)}/{len(words)} = {len(by_table) / len(words):.3f} "
        f"| {collisions(by_table)} |\n"
        f"| pypinyin | {len(by_pinyin)}/{len(words)} = {len(by_pinyin) / len(words):.3f} "
        f"| {collisions(by_pinyin)} |"
    )


if __name__ == "__main__":
    main()
