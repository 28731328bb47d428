"""The vocabulary's data files: every word is matched, a word list added to a file is matched
without code changes, brands merge, one currency table and one colour table."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from cartwise.vocabulary import (
    Brand,
    build_matcher,
    colour_table,
    currency_of,
    currency_table,
    format_money,
    fx_to_base,
    matcher,
    merge_brands,
    surface_forms,
)
from cartwise.vocabulary import files as vocabulary_files
from cartwise.vocabulary.matcher import fold_form
from cartwise.vocabulary.surfaces import KINDS

PACKAGED = Path(str(vocabulary_files.DATA))


def _clear_caches() -> None:
    import cartwise.vocabulary as package

    for module_name in list(vars(package)):
        module = getattr(package, module_name)
        for value in vars(module).values() if hasattr(module, "__file__") else ():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.fixture
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the data files the vocabulary reads instead of the packaged ones."""
    copy = tmp_path / "data"
    shutil.copytree(PACKAGED, copy)
    monkeypatch.setattr(vocabulary_files, "DATA", copy)
    _clear_caches()
    yield copy
    monkeypatch.undo()
    _clear_caches()


def test_every_form_of_every_kind_is_found_naming_its_entry() -> None:
    whole = matcher()
    missing = []
    for form, entries in surface_forms(KINDS).items():
        found = whole.find(form)
        if len(found) != 1 or not set(entries) <= set(found[0].entries):
            missing.append(form)
    assert missing == []


def test_a_word_list_added_to_a_data_file_is_matched_without_code_changes(
    data_copy: Path,
) -> None:
    gaps = yaml.safe_load((data_copy / "gaps.yml").read_text("utf-8"))
    gaps["not_goods"]["gift_card"] = ["gift card", "礼品卡"]
    (data_copy / "gaps.yml").write_text(yaml.safe_dump(gaps, allow_unicode=True), "utf-8")
    attributes = (data_copy / "attributes.yml").read_text("utf-8")
    attributes = attributes.replace("material:\n", "material:\n  jute: [jute, 黄麻]\n", 1)
    (data_copy / "attributes.yml").write_text(attributes, "utf-8")

    text = "想用黄麻的袋子装礼品卡, or jute bags for gift cards"
    found = {(e.kind, e.slug) for m in build_matcher().find(text) for e in m.entries}
    assert {("gap", "gift_card"), ("attribute", "jute")} <= found
    assert ("gap", "gift_card") not in {
        (e.kind, e.slug) for m in build_matcher().find("gift wrap") for e in m.entries
    }


def test_a_catalog_brand_sharing_a_form_joins_the_curated_one() -> None:
    mined = [
        Brand.mined("sony-corp", "electronics", {"SONY", "索尼集团"}),
        Brand.mined("keep", "sports", {"Keep"}),
    ]
    merged = {b.slug: b for b in merge_brands(mined)}
    assert "sony-corp" not in merged
    assert "索尼集团" in merged["sony"].forms
    assert merged["keep"].exact == ("Keep",)
    m = build_matcher(["brand", "attribute"], merge_brands(mined))
    assert [e.slug for h in m.find("Keep 瑜伽垫和索尼集团的耳机") for e in h.entries] == [
        "keep",
        "sony",
    ]
    assert m.find("keep it simple") == []


def test_a_catalog_brand_never_takes_a_form_the_vocabulary_knows() -> None:
    glass = Brand.mined("glass-co", "home", {"Glass"})
    (hit,) = build_matcher(["attribute", "brand"], merge_brands([glass])).find("Glass")
    assert [(e.kind, e.slug) for e in hit.entries] == [("attribute", "glass")]


@pytest.mark.parametrize(
    ("form", "code"),
    [
        ("¥", "CNY"), ("￥", "CNY"), ("元", "CNY"), ("块", "CNY"), ("RMB", "CNY"),
        ("$", "USD"), ("US$", "USD"), ("S$", "SGD"), ("SGD", "SGD"), ("RM", "MYR"),
        ("MYR", "MYR"), ("HK$", "HKD"), ("NT$", "TWD"), ("€", "EUR"), ("£", "GBP"),
        ("₩", "KRW"), ("₹", "INR"), ("Rs.", "INR"), ("฿", "THB"), ("港币", "HKD"),
    ],
)  # fmt: skip
def test_every_symbol_names_its_currency(form: str, code: str) -> None:
    assert currency_of(form) == code


def test_one_currency_table_with_dated_rates_that_settings_may_override() -> None:
    table = currency_table()
    assert table.currencies[table.base].rate == 1.0
    assert all(c.rate > 0 for c in table.currencies.values())
    rates = fx_to_base({"usd": 7.0, "XAU": 600.0})
    assert rates["USD"] == 7.0 and rates["XAU"] == 600.0
    assert rates["SGD"] == table.currencies["SGD"].rate
    assert format_money(38.5, "SGD") == "S$38.50"
    assert format_money(12, "XYZ") == "12 XYZ"


def test_one_colour_table_every_family_named_in_chinese() -> None:
    table = colour_table()
    families = {c.family for c in table.colours if c.family}
    assert families == set(table.families)
    slugs = [c.slug for c in table.colours]
    assert len(slugs) == len(set(slugs))
    names = [fold_form(n) for c in table.colours for n in c.names]
    assert len(names) == len(set(names)), "a colour name is listed twice"


def test_the_domain_vocabulary_knows_every_domain_and_lists_a_word_once() -> None:
    from cartwise.vocabulary import taxonomy

    data = taxonomy()
    names = {d.slug for d in data.domains}
    assert len(names) == 21
    assert {t.domain for t in data.types} == names
    for domain in names:
        words = [*data.nouns.get(domain, ()), *data.domain_words.get(domain, ())]
        folded = [fold_form(w) for w in words]
        assert len(folded) == len(set(folded)), domain
