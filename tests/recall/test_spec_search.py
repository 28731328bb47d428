"""Search with specs: strict filter, the unstated top-up after it, superlatives and "the
cheapest … with …" with every tie; a product URL resolved to its listing and specs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from cartwise.catalog.product import Product
from cartwise.catalog.specs import (
    LabelSpec,
    NumericSpec,
    ProductSpecs,
    RequestSpecs,
    SpecSort,
    check,
)
from cartwise.embedding import create_embedder
from cartwise.recall.references import resolve_references, slugify, url_slug
from cartwise.recall.service import RecallService
from cartwise.recall.spec_request import merge_specs, read_spec_request
from cartwise.recall.spec_search import search_with_specs
from cartwise.settings import Settings
from tests.factories import make_product


def _cable(item_id: str, metres: float | None, price: float) -> Product:
    numbers = {"length": [metres]} if metres is not None else {}
    return make_product(
        item_id,
        title="HDMI cable high speed",  # one text for all: only the specs tell them apart
        price=price,
        specs=ProductSpecs(numbers=numbers, labels={"interface": ["hdmi"]}),
    )


CATALOG = [
    _cable("c1", 1.0, 5.0),
    _cable("c2", 3.0, 9.0),
    _cable("c5", 5.0, 12.0),
    _cable("c5b", 5.0, 12.0),
    _cable("c10", 10.0, 25.0),
    _cable("cx", None, 7.0),
    make_product(
        "case",
        title="Corsair 5000D Airflow Gaming Case w/ Glass Window, E-ATX, White",
        category_raw="Hardware > PC Components > Cases",
        specs=ProductSpecs(labels={"color_family": ["white"], "form_factor": ["eatx"]}),
    ),
    make_product(
        "kb-white",
        title="Compact mechanical keyboard white edition",
        specs=ProductSpecs(labels={"color_family": ["white"]}),
    ),
    make_product(
        "kb-black",
        title="Compact mechanical keyboard black",
        specs=ProductSpecs(labels={"color_family": ["black"]}),
    ),
]


@pytest.fixture
def service(settings: Settings) -> Iterator[RecallService]:
    embedder = create_embedder(settings.embedder)
    recall = RecallService.open(settings, embedder)
    recall.upsert(CATALOG, embedder.embed_documents([p.embedding_text() for p in CATALOG]))
    yield recall
    recall.close()


LONGER = RequestSpecs(numeric=[NumericSpec(attribute="length", op="gt", value=3.0)])


def test_meeting_listings_lead_unstated_are_marked_never_a_violation(
    service: RecallService,
) -> None:
    response = search_with_specs(service, "HDMI cable", LONGER, k=5)
    keys = [h.product.key for h in response.results]
    assert set(keys[:3]) == {"jd:c5", "jd:c5b", "jd:c10"}
    # Equally relevant, the cable that states no length follows them, marked.
    assert keys[3] == "jd:cx" and response.unstated[0] == "jd:cx"
    assert set(response.unstated) == set(keys[3:])
    assert all(not h.product.specs.numbers.get("length") for h in response.results[3:])
    assert response.meeting == 3
    for hit in response.results:
        assert check(hit.product.specs, LONGER) != "violates"


def test_no_unstated_listing_when_enough_equally_relevant_ones_meet(
    service: RecallService,
) -> None:
    response = search_with_specs(service, "HDMI cable", LONGER, k=2)
    assert response.unstated == [] and len(response.results) == 2


def test_cheapest_with_a_spec_returns_every_tie_first(service: RecallService) -> None:
    specs = LONGER.model_copy(update={"cheapest": True})
    response = search_with_specs(service, "HDMI cable", specs, k=5)
    assert sorted(response.winners) == ["jd:c5", "jd:c5b"]
    assert {h.product.key for h in response.results[:2]} == {"jd:c5", "jd:c5b"}
    assert response.results[2].product.key == "jd:c10"


def test_superlative_orders_by_the_attribute(service: RecallService) -> None:
    longest = RequestSpecs(sort=SpecSort(attribute="length", descending=True))
    response = search_with_specs(service, "HDMI cable", longest, k=6)
    assert response.winners == ["jd:c10"]
    lengths = [h.product.specs.numbers.get("length", [None])[0] for h in response.results]
    stated = [v for v in lengths if v is not None]
    assert stated == sorted(stated, reverse=True)
    assert lengths[-1] is None  # the cable that states no length comes last


def test_slug_of_a_shop_url_resolves_to_the_listing() -> None:
    url = "{{URL_2}}/product/corsair-5000d-airflow-gaming-case-w-glass-window-e-atx-white/"
    assert url_slug(url) == slugify(CATALOG[6].title)


def test_same_colour_as_a_linked_case_filters_keyboards(service: RecallService) -> None:
    text = (
        "keyboards with the same color as this case: "
        "{{URL_2}}/product/corsair-5000d-airflow-gaming-case-w-glass-window-e-atx-white"
    )
    reference = resolve_references(service, text)
    assert reference.source is not None and reference.source.key == "jd:case"
    assert reference.compatibility is not None
    assert reference.compatibility.specs.labels == [
        LabelSpec(attribute="color_family", values=["white"], text="as the referenced item")
    ]
    assert "{{URL_2}}" not in reference.query
    request = read_spec_request(service, text)
    assert request.kind == "keyboard"
    hits = search_with_specs(
        service, request.query, request.specs, k=3, depth=9, prefer=request.prefer
    ).results
    assert hits[0].product.key == "jd:kb-white"
    assert "jd:case" not in {h.product.key for h in hits}  # never the linked listing itself
    assert "jd:kb-black" not in {h.product.key for h in hits}


def test_a_url_with_no_compatibility_ask_searches_the_product_itself(
    service: RecallService,
) -> None:
    text = "cheapest offer for this: https://shop.example/product/compact-mechanical-keyboard-black"
    reference = resolve_references(service, text)
    assert reference.source is not None and reference.source.key == "jd:kb-black"
    assert reference.compatibility is None
    assert reference.query.endswith(reference.source.title)


def test_an_unknown_url_is_reported_not_guessed(service: RecallService) -> None:
    reference = resolve_references(service, "like this https://x.example/product/zz-qq-unknown")
    assert reference.source is None and reference.unresolved


def test_merged_specs_keep_both_filters() -> None:
    hdmi = RequestSpecs(labels=[LabelSpec(attribute="interface", values=["hdmi"])])
    port = RequestSpecs(labels=[LabelSpec(attribute="interface", values=["minidp"])])
    assert [s.values for s in merge_specs(hdmi, port).labels] == [["hdmi"], ["minidp"]]


numeric_specs = st.builds(
    NumericSpec,
    attribute=st.just("length"),
    op=st.sampled_from(["lt", "le", "eq", "ge", "gt"]),
    value=st.sampled_from([0.5, 1.0, 3.0, 4.0, 5.0, 10.0, 12.0]),
)
label_specs = st.builds(
    LabelSpec,
    attribute=st.sampled_from(["interface", "color_family"]),
    values=st.lists(st.sampled_from(["hdmi", "white", "black", "usb-c"]), min_size=1),
    negated=st.booleans(),
)


@hypothesis_settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    numeric=st.lists(numeric_specs, max_size=2),
    labels=st.lists(label_specs, max_size=2),
    cheapest=st.booleans(),
    k=st.integers(1, 9),
)
def test_a_spec_search_never_returns_a_listing_violating_a_spec(
    service: RecallService,
    numeric: list[NumericSpec],
    labels: list[LabelSpec],
    cheapest: bool,
    k: int,
) -> None:
    specs = RequestSpecs(numeric=numeric, labels=labels, cheapest=cheapest)
    response = search_with_specs(service, "HDMI cable keyboard", specs, k=k)
    verdicts = {h.product.key: check(h.product.specs, specs) for h in response.results}
    assert "violates" not in verdicts.values()
    assert set(response.unstated) == {key for key, v in verdicts.items() if v == "unknown"}


def test_a_product_named_by_its_model_after_a_compatibility_phrase_is_the_source(
    service: RecallService,
) -> None:
    reference = resolve_references(service, "a keyboard in the same colour as the Corsair 5000D")
    assert reference.source is not None and reference.source.key == "jd:case"
    assert reference.compatibility is not None
    assert [spec.values for spec in reference.compatibility.specs.labels] == [["white"]]
    assert "5000D" not in reference.query and "keyboard" in reference.query


@pytest.mark.parametrize(
    "text",
    [
        "a keyboard in the same colour as my case",  # no model word: nothing to resolve
        "a keyboard compatible with the Corsair 9000X",  # no listing holds the name
        "the Corsair 5000D",  # a name alone is an ordinary search
    ],
)
def test_a_name_that_is_no_catalog_reference_is_left_alone(
    service: RecallService, text: str
) -> None:
    reference = resolve_references(service, text)
    assert reference.source is None and reference.query == text
