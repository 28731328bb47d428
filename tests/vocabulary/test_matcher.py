"""The one multi-pattern matcher: leftmost-longest, word boundaries, folding, plurals."""

from __future__ import annotations

import pytest

from cartwise.vocabulary import Entry, Matcher, matcher

MATERIAL = Entry("attribute", "down", "material")
COAT = Entry("product_noun", "clothing", domain="clothing")
HAT = Entry("product_noun", "clothing", domain="clothing")


def spans(found: list, text: str) -> list[str]:
    return [text[m.start : m.end] for m in found]


def test_the_longest_form_at_a_place_wins_and_matches_do_not_overlap() -> None:
    m = Matcher({"羽绒": [MATERIAL], "羽绒服": [COAT], "服装": [COAT]})
    text = "想买羽绒服装"
    found = m.find(text)
    assert spans(found, text) == ["羽绒服"]
    assert found[0].entries == (COAT,)


def test_latin_forms_match_whole_words_only() -> None:
    m = Matcher(
        {"ram": [Entry("attribute", "ram", "other")], "hat": [HAT]}, plural_kinds=["product_noun"]
    )
    assert m.find("a program that hates hatching") == []
    text = "16GB RAM, two hats"
    assert spans(m.find(text), text) == ["RAM", "hats"]


def test_a_form_failing_its_boundary_leaves_room_for_a_shorter_one() -> None:
    down_coat = Entry("product_noun", "clothing", domain="clothing")
    m = Matcher({"down": [MATERIAL], "down coat": [down_coat]})
    text = "down coats"  # "down coat" ends inside a word; "down" still holds
    assert spans(m.find(text), text) == ["down"]


def test_nouns_match_in_the_plural_other_kinds_do_not() -> None:
    m = Matcher(
        {"box": [COAT], "mattress": [COAT], "red": [Entry("colour", "red", "color")]},
        plural_kinds=["product_noun"],
    )
    text = "boxes, mattresses and reds"
    assert spans(m.find(text), text) == ["boxes", "mattresses"]  # "reds" is no "red"


def test_spaced_forms_also_match_hyphenated_and_closed_up() -> None:
    m = Matcher({"noise cancelling": [Entry("attribute", "noise-cancelling", "style")]})
    for text in ("noise cancelling", "Noise-Cancelling", "noisecancelling"):
        assert len(m.find(text)) == 1


def test_chinese_forms_match_inside_running_text() -> None:
    m = Matcher({"塑料": [Entry("attribute", "plastic", "material")]})
    text = "不要塑料的耳机"
    assert spans(m.find(text), text) == ["塑料"]


def test_width_and_case_folded_with_spans_in_the_original_text() -> None:
    m = Matcher({"nike": [Entry("brand", "nike", "brand")], "strasse": [COAT]})
    text = "想要ＮＩＫＥ的鞋"
    (hit,) = m.find(text)
    assert text[hit.start : hit.end] == "ＮＩＫＥ"
    # "ß" folds to two characters: the span still covers the original word.
    text = "Großstraße ist strasse: Straße"
    assert spans(m.find(text), text) == ["strasse", "Straße"]


def test_a_match_carries_every_entry_its_form_names() -> None:
    (hit,) = matcher().find("denim")
    kinds = {(e.kind, e.slug) for e in hit.entries}
    assert ("attribute", "denim") in kinds  # the material
    assert ("colour_shade", "blue") in kinds  # a shade of blue in a listing


def test_exact_forms_match_only_as_spelled() -> None:
    keep = Entry("brand", "keep", "brand")
    m = Matcher({"Keep": [keep]}, exact={"keep": {"Keep"}})
    assert m.find("I want to keep it simple") == []
    assert len(m.find("Keep 瑜伽垫")) == 1


def test_a_refused_candidate_lets_the_next_one_in() -> None:
    m = Matcher({"灯": [COAT], "灯芯绒": [MATERIAL]})
    found = m.find("灯芯绒", accept=lambda _text, match: match.surface != "灯芯绒")
    assert [f.surface for f in found] == ["灯"]


@pytest.mark.parametrize("text", ["RM100", "100MYR", "rm 100"])
def test_letter_boundaries_let_currency_forms_touch_digits(text: str) -> None:
    myr = Entry("currency", "MYR")
    m = Matcher({"rm": [myr], "myr": [myr]}, boundary="alpha")
    assert [h.entries for h in m.find(text)] == [(myr,)]
    assert m.find("platform 100") == []


def test_the_whole_vocabulary_is_compiled_once() -> None:
    assert matcher() is matcher()
    assert len(matcher()) > 5000
