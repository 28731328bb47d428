"""Turning listed values into clean ones: prices in any decimal style, HTML into text, FX.

Every function raises `RowProblem` for a value it cannot accept; the readers turn that into
a line-numbered row error and skip the row, so one bad price never aborts a whole file.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from cartwise.errors import InvalidInput
from cartwise.vocabulary.currencies import currency_matcher


class RowProblem(InvalidInput):
    """One field of one row cannot be accepted; the row is skipped and reported."""


_ISO_CODE = re.compile(r"\b([A-Z]{3})\b")
_NUMBER = re.compile(r"^\d[\d.,]*$")


def parse_price(raw: object) -> tuple[float, str | None]:
    """`251,26`, `251.26`, `1.234,56`, `1,234.56`, `¥99`, `$12.99`, `S$38.50`, `RM25`,
    `12.99 USD` →
    (value, currency named in the text or None).

    The last separator followed by one or two digits is the decimal mark; every other
    separator groups thousands. A lone separator followed by exactly three digits
    ("1,234") groups thousands too: no shop lists prices to a tenth of a cent.
    """
    if isinstance(raw, bool):
        raise RowProblem(f"price {raw!r} is not a number")
    if isinstance(raw, int | float):
        if raw < 0 or raw != raw:
            raise RowProblem(f"price {raw!r} is not a non-negative number")
        return float(raw), None
    if not isinstance(raw, str) or not raw.strip():
        raise RowProblem("price is empty")
    text = raw.strip()
    currency: str | None = None
    code = _ISO_CODE.search(text)  # any code, so an unknown one is named in the row error
    if code:
        currency = code.group(1)
        text = text.replace(currency, "")
    # The currency table's symbols and words, longest first ("US$" over "$", "S$" over "$").
    for found in reversed(currency_matcher().find(text)):
        currency = currency or found.entries[0].slug
        text = text[: found.start] + text[found.end :]
    number = text.replace(" ", "").replace("\u00a0", "").replace("'", "")
    if not _NUMBER.fullmatch(number):
        raise RowProblem(f"price {raw!r} is not a number")
    return _parse_number(number, raw), currency


def _parse_number(number: str, raw: str) -> float:
    last = max(number.rfind(","), number.rfind("."))
    if last == -1:
        return float(number)
    mark = number[last]
    decimals = number[last + 1 :]
    mixed = "," in number and "." in number
    if mixed or (number.count(mark) == 1 and len(decimals) != 3):
        integer = re.sub(r"[.,]", "", number[:last])
        return float(f"{integer or '0'}.{decimals or '0'}")
    groups = number.split(mark)
    if groups[0] and all(len(group) == 3 for group in groups[1:]):
        return float(number.replace(mark, ""))
    raise RowProblem(f"price {raw!r} has ambiguous separators")


def to_base(price: float, currency: str, fx_to_base: dict[str, float]) -> float:
    """Convert with the static FX table; an unknown currency is a row error, never 0."""
    rate = fx_to_base.get(currency.upper())
    if rate is None:
        known = ", ".join(sorted(fx_to_base))
        raise RowProblem(f"unknown currency {currency!r}; the FX table knows {known}")
    return round(price * rate, 2)


def parse_bool(raw: object, *, default: bool = True) -> bool:
    """`1`/`0`, `true`/`false`, `yes`/`no`, `instock`/`outofstock`, 有货/无货."""
    if isinstance(raw, bool):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return default
    text = str(raw).strip().casefold()
    if text in {"1", "true", "yes", "y", "instock", "in stock", "有货", "是"}:
        return True
    if text in {"0", "false", "no", "n", "outofstock", "out of stock", "无货", "缺货", "否"}:
        return False
    raise RowProblem(f"{raw!r} is not a yes/no value")


class _TextExtractor(HTMLParser):
    _BLOCKS = frozenset({"p", "br", "li", "div", "tr", "h1", "h2", "h3", "h4", "ul", "ol"})
    _SKIPPED = frozenset({"script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIPPED:
            self._skipping += 1
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIPPED:
            self._skipping = max(0, self._skipping - 1)
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def unescape_fully(text: str) -> str:
    """Undo repeated escaping: the WebMall exports hold `&amp;amp;` for a plain `&`."""
    for _ in range(3):
        unescaped = html.unescape(text)
        if unescaped == text:
            break
        text = unescaped
    return text


def html_to_text(markup: str) -> str:
    """Plain text of an HTML fragment: tags dropped, entities decoded, whitespace tidied."""
    if "<" not in markup and "&" not in markup:
        return " ".join(markup.split())
    extractor = _TextExtractor()
    extractor.feed(unescape_fully(markup))
    extractor.close()
    lines = (" ".join(line.split()) for line in "".join(extractor.parts).splitlines())
    return "\n".join(line for line in lines if line)


def clean_title(text: str) -> str:
    """A title as one line of plain text."""
    return " ".join(html_to_text(text).split())
