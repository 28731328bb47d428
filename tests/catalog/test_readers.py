from __future__ import annotations

from pathlib import Path

import pytest

from cartwise.catalog.ingest import ReaderOptions, RowError, detect_format, read_catalog
from cartwise.catalog.ingest.mapped import load_mapping
from cartwise.catalog.product import Domain, Product
from cartwise.errors import IngestError
from cartwise.vocabulary import fx_to_base

FIXTURES = Path(__file__).parent / "fixtures"


def _read(
    name: str, *, mapping: str | None = None, **options: object
) -> tuple[list[Product], list[RowError]]:
    opts = ReaderOptions(
        fx_to_base=fx_to_base(),
        mapping=FIXTURES / mapping if mapping else None,
        **options,  # type: ignore[arg-type]
    )
    items = list(read_catalog(FIXTURES / name, None, opts))
    return [i for i in items if isinstance(i, Product)], [
        i for i in items if isinstance(i, RowError)
    ]


def test_native_jsonl_reads_good_rows_and_reports_bad_lines() -> None:
    products, errors = _read("native.jsonl")
    by_id = {p.item_id: p for p in products}
    assert set(by_id) == {"t1", "B0TEST0001", "x1"}
    headphones = by_id["t1"]
    assert headphones.platform == "taobao"
    assert headphones.domain is Domain.ELECTRONICS
    assert headphones.description == "主动降噪"
    assert headphones.attributes["material"] == ["塑料"]
    assert by_id["B0TEST0001"].currency == "USD"
    assert by_id["B0TEST0001"].price_base == pytest.approx(329.99 * 7.12, abs=0.01)
    assert by_id["B0TEST0001"].in_stock is False
    assert by_id["x1"].platform == "native"  # no platform in the row: the file name
    assert by_id["x1"].price == 12.5
    assert [(e.line, e.item_id) for e in errors] == [(4, "B0TEST0002"), (5, ""), (6, "j1")]
    assert "unknown currency 'XYZ'" in errors[0].message
    assert "not JSON" in errors[1].message
    assert "colour" in errors[2].message


def test_woocommerce_export_maps_columns_and_reports_line_numbers() -> None:
    products, errors = _read("woocommerce.csv", platform="shop_a")
    by_id = {p.item_id: p for p in products}
    assert set(by_id) == {"101", "102", "106"}
    cpu = by_id["101"]
    assert cpu.platform == "shop_a"
    assert cpu.price == 251.26
    assert cpu.currency == "GBP"
    assert cpu.brand == "AMD"
    assert cpu.category_raw == "PC Components > CPUs > AMD"
    assert cpu.description == "12 cores & 24 threads.\nAM4 socket"
    assert cpu.image_url == "https://shop.example/1.png"
    assert cpu.attributes["color"] == ["Black", "Silver"]
    assert cpu.attributes["webmall_id"] == ["shop.example_1"]
    memory = by_id["102"]
    assert memory.price == 89.99  # the sale price is what a shopper pays
    assert memory.attributes["list_price"] == ["1.299,00"]
    assert memory.in_stock is False
    assert by_id["106"].title == "Logitech MX Keys & Mouse"
    assert by_id["106"].price == 1234.5
    # Record 101 spans lines 2-3 (a newline inside its quoted HTML), so 103 starts on line 5.
    assert [(e.line, e.item_id) for e in errors] == [(5, "103"), (6, "104"), (7, "")]
    assert "'abc' is not a number" in errors[0].message
    assert "no price" in errors[1].message
    assert "header has" in errors[2].message


def test_woocommerce_platform_defaults_to_the_file_name() -> None:
    products, _ = _read("woocommerce.csv")
    assert {p.platform for p in products} == {"woocommerce"}


def test_generic_csv_goes_through_its_mapping() -> None:
    products, errors = _read("generic.csv", mapping="generic_mapping.yml")
    by_id = {p.item_id: p for p in products}
    assert set(by_id) == {"A-1", "A-2"}
    coat = by_id["A-1"]
    assert (coat.platform, coat.price, coat.currency) == ("localshop", 799.0, "CNY")
    assert coat.category_raw == "Clothing > Coats"
    assert coat.domain is Domain.CLOTHING
    assert coat.attributes["color"] == ["grey", "navy"]
    assert by_id["A-2"].price == 1299.0
    assert by_id["A-2"].in_stock is False
    assert [e.line for e in errors] == [4, 5]
    assert "no title" in errors[0].message


def test_shopify_products_use_cheapest_variant_and_options() -> None:
    products, errors = _read("shopify_products.json")
    by_id = {p.item_id: p for p in products}
    assert set(by_id) == {"7001", "7003"}
    shoe = by_id["7001"]
    assert (shoe.price, shoe.currency, shoe.in_stock) == (79.5, "USD", True)
    assert shoe.brand == "Acme Running"
    assert shoe.sizes == ["40", "41", "42"]
    assert shoe.attributes["color"] == ["Red", "Black"]
    assert shoe.description == "Grippy outsole."
    # The export has only the handle: "/products/<handle>" has no host, so it never becomes a
    # link (on the page it would point at Cartwise itself). Only absolute http(s) URLs are kept.
    assert shoe.url == ""
    assert shoe.domain is Domain.SHOES
    assert "title" not in by_id["7003"].attributes
    assert [(e.line, e.item_id) for e in errors] == [(2, "7002")]


def test_caller_currency_overrides_the_format_default() -> None:
    products, _ = _read("shopify_products.json", currency="SGD")
    assert {p.currency for p in products} == {"SGD"}


def test_format_detection() -> None:
    assert detect_format(FIXTURES / "native.jsonl") == "jsonl"
    assert detect_format(FIXTURES / "woocommerce.csv") == "woocommerce"
    assert detect_format(FIXTURES / "shopify_products.json") == "shopify"
    assert (
        detect_format(FIXTURES / "generic.csv", mapping=FIXTURES / "generic_mapping.yml") == "csv"
    )
    with pytest.raises(IngestError, match="needs --mapping"):
        detect_format(FIXTURES / "generic.csv")


@pytest.mark.parametrize(
    ("content", "name", "reason"),
    [
        (b"\xff\xfe\x00garbage\x81", "broken.csv", "not UTF-8"),
        (b"this is not json\n{}", "broken.jsonl", "line 1 is not JSON"),
        (b'{"items": []}', "broken.json", 'no "products" array'),
        (b"[oops", "broken2.json", "not JSON"),
        (b"", "empty.csv", "empty"),
        (b"a,b\n1,2\n", "notwoo.csv", "needs --mapping"),
        (b"", "catalog.xlsx", "cannot tell the format"),
    ],
)
def test_unreadable_files_are_ingest_errors(
    tmp_path: Path, content: bytes, name: str, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(IngestError, match=reason):
        list(read_catalog(path, None, ReaderOptions(fx_to_base=fx_to_base())))


def test_missing_file_is_an_ingest_error(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        list(read_catalog(tmp_path / "nope.jsonl", None, ReaderOptions(fx_to_base={})))


@pytest.mark.parametrize(
    ("mapping", "reason"),
    [
        ("fields: {title: name, price: cost}", "item_id"),
        ("fields: {item_id: a, title: b, price: c, colour: d}", "unknown Product field"),
        ("fields: {item_id: {column: a, pattern: '(x'}, title: b, price: c}", "fields.item_id"),
        ("fields: [1, 2", "not YAML"),
        ("fields: {item_id: a, title: b, price: c}\nsurprise: 1", "surprise"),
    ],
)
def test_bad_mapping_files_are_ingest_errors(tmp_path: Path, mapping: str, reason: str) -> None:
    path = tmp_path / "mapping.yml"
    path.write_text(mapping, encoding="utf-8")
    with pytest.raises(IngestError, match=reason):
        load_mapping(path)


def test_mapping_naming_a_missing_column_is_an_ingest_error(tmp_path: Path) -> None:
    mapping = tmp_path / "m.yml"
    mapping.write_text("fields: {item_id: sku, title: nom, price: cost}", encoding="utf-8")
    opts = ReaderOptions(fx_to_base=fx_to_base(), mapping=mapping)
    with pytest.raises(IngestError, match="nom"):
        list(read_catalog(FIXTURES / "generic.csv", "csv", opts))


DOCS = Path(__file__).resolve().parents[2] / "docs" / "catalog-schema.md"


def _doc_block(language: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(f"```{language}\n") + len(language) + 4
    return text[start : text.index("```", start)]


def test_the_documented_examples_are_accepted(tmp_path: Path) -> None:
    native = tmp_path / "example.jsonl"
    native.write_text(_doc_block("json"), encoding="utf-8")
    products, errors = _read_path(native)
    assert errors == [] and products[0].attributes["material"] == ["塑料"]
    mapping = tmp_path / "mapping.yml"
    mapping.write_text(_doc_block("yaml"), encoding="utf-8")
    loaded = load_mapping(mapping)
    assert loaded.fields["item_id"].pattern == r"/pd/(\d+)/"


def _read_path(path: Path) -> tuple[list[Product], list[RowError]]:
    items = list(read_catalog(path, None, ReaderOptions(fx_to_base=fx_to_base())))
    return [i for i in items if isinstance(i, Product)], [
        i for i in items if isinstance(i, RowError)
    ]


def test_mapping_constants_fill_empty_cells(tmp_path: Path) -> None:
    source = tmp_path / "feed.jsonl"
    source.write_text(
        '{"id": "1", "name": "Drill", "cost": 10, "cur": "GBP"}\n'
        '{"id": "2", "name": "Saw", "cost": 20, "cur": null}\n',
        encoding="utf-8",
    )
    mapping = tmp_path / "m.yml"
    mapping.write_text(
        "constants: {currency: USD}\nfields: {item_id: id, title: name, price: cost, currency: cur}",
        encoding="utf-8",
    )
    opts = ReaderOptions(fx_to_base=fx_to_base(), mapping=mapping)
    products = [p for p in read_catalog(source, None, opts) if isinstance(p, Product)]
    assert [(p.item_id, p.currency) for p in products] == [("1", "GBP"), ("2", "USD")]
