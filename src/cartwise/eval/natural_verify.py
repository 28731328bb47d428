"""Checks that a natural conversation set asks only for what the demo catalog can give.

A check is only fair if a correct assistant can pass it with this catalog: a word list must
cover every listing of the type it is about, enough in-stock models must meet a turn's
constraints, a budget must be the stated amount converted with the FX table, a "not carried"
request must name nothing any listing mentions. What each check is *about* (the product
types, the brand, the budget as said) is not part of the set's format, so it lives in a
facts file beside the set (`data/natural_facts.jsonl`), one entry per check object.

Rules (each reports a `Problem` named after it):

- `facts`: every check object has a facts entry; the facts a check needs are present.
- `coverage`: a `title_each_any` list matches every listing title of its types (or of its
  brand within them), in or out of stock.
- `enough_models`: a turn that must show products has at least 3 distinct in-stock models
  (`min_products` if larger) meeting all of the turn's title, price and size constraints
  together; a search for one brand or model needs only what the turn must show.
- `budget`: `max_price_base` is the stated budget times the settings FX rate; a currency the
  table lacks uses `OUTSIDE_RATES` and must be clear of every listing price of the turn's
  types by `OUTSIDE_RATE_MARGIN`, so any fair rate gives the same verdicts.
- `second_page`: a "more" turn has more models than one page shows.
- `cheaper_models`: a "cheaper" turn has 3 models of other brands below the premium
  brand's cheapest.
- `cheapest_platform`: a `names_cheapest` model is one model, sold in stock on 2 platforms
  or more, and its cheapest in-stock offer is on the stated platform, strictly.
- `spec_winner`: the winning value of a superlative over the turn's listings is in
  `reply_any`.
- `unstated_spec`: no listing of the turn's types states the attribute a superlative asks
  about (no attribute of that name, no listing text naming it).
- `gap_absent`: nothing a `gap` turn asks for appears in any title, description or
  product-type name.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cartwise.errors import InvalidInput
from cartwise.eval.natural_set import NaturalCheck, NaturalConversation
from cartwise.settings import Settings
from cartwise.vocabulary import fx_to_base as dated_rates

# Rates for currencies the settings table lacks (CNY per unit, 2026-11). A budget in one of
# them is only fair when no listing price sits near it (OUTSIDE_RATE_MARGIN either side).
OUTSIDE_RATES: dict[str, float] = {"HKD": 0.92}
OUTSIDE_RATE_MARGIN = 0.05
MIN_MODELS = 3


class SpecFact(BaseModel):
    """A superlative over a stated attribute: its winner must be named."""

    model_config = ConfigDict(extra="forbid")

    attribute: str
    best: Literal["min", "max"]
    max_price_base: float | None = None


class UnstatedFact(BaseModel):
    """A superlative over an attribute no listing of the types states."""

    model_config = ConfigDict(extra="forbid")

    attributes: list[str] = Field(min_length=1)
    """Attribute names (substrings of listing attribute keys) that would state it."""
    words: list[str] = Field(min_length=1)
    """Words a listing's title or description would use to state it."""


class CheckFacts(BaseModel):
    """What one check object is about, as its author meant it."""

    model_config = ConfigDict(extra="forbid")

    types: list[str] = Field(default_factory=list)
    brand: str | None = None
    """The check's `title_each_any` names this brand: it must cover the brand's listings."""
    size: str | None = None
    one_model: bool = False
    budget: tuple[float, str] | None = None
    second_page: bool = False
    premium: str | None = None
    cheapest: str | None = None
    spec: SpecFact | None = None
    unstated: UnstatedFact | None = None
    gap_words: list[str] = Field(default_factory=list)


class ConversationFacts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    checks: list[CheckFacts]


@dataclass(frozen=True)
class Listing:
    platform: str
    item_id: str
    title: str
    text: str
    """Title and description, lower-cased."""
    brand: str
    model: str
    product_type: str
    price_base: float
    in_stock: bool
    sizes: frozenset[str]
    attributes: dict[str, list[str]]

    @property
    def model_key(self) -> tuple[str, str]:
        return (self.brand.lower(), self.model.lower())


@dataclass(frozen=True)
class Catalog:
    listings: tuple[Listing, ...]
    type_names: dict[str, tuple[str, ...]]
    """Product type → its names and synonyms, lower-cased."""

    def of_types(self, types: Iterable[str]) -> list[Listing]:
        wanted = set(types)
        return [listing for listing in self.listings if listing.product_type in wanted]


@dataclass(frozen=True)
class Problem:
    conversation: str
    turn: int | None
    rule: str
    detail: str

    def __str__(self) -> str:
        where = self.conversation if self.turn is None else f"{self.conversation} turn {self.turn}"
        return f"{where}: [{self.rule}] {self.detail}"


def load_catalog(catalog_path: Path, types_path: Path) -> Catalog:
    """The demo catalog's listings with CNY prices, and the taxonomy's type names."""
    listings: list[Listing] = []
    with gzip.open(catalog_path, "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            attributes = {k: [str(v) for v in vs] for k, vs in row["attributes"].items()}
            listings.append(
                Listing(
                    platform=row["platform"],
                    item_id=row["item_id"],
                    title=row["title"].lower(),
                    text=f"{row['title']} {row.get('description', '')}".lower(),
                    brand=row.get("brand", ""),
                    model=(attributes.get("model") or [""])[0],
                    product_type=row["product_type"],
                    price_base=round(row["price"] * dated_rates()[row["currency"]], 2),
                    in_stock=bool(row["in_stock"]),
                    sizes=frozenset(s.lower() for s in attributes.get("sizes", [])),
                    attributes=attributes,
                )
            )
    taxonomy = yaml.safe_load(types_path.read_text(encoding="utf-8"))
    type_names = {
        slug: tuple(name.strip().lower() for field in entry[2:4] for name in str(field).split("|"))
        for slug, entry in taxonomy["types"].items()
    }
    return Catalog(listings=tuple(listings), type_names=type_names)


def load_facts(path: Path) -> dict[str, ConversationFacts]:
    facts: dict[str, ConversationFacts] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = ConversationFacts.model_validate_json(line)
        except ValidationError as exc:
            reason = exc.errors()[0]["msg"]
            raise InvalidInput(f"{path}:{number}: not a facts entry: {reason}") from None
        facts[entry.id] = entry
    return facts


def _contains_any(text: str, words: Iterable[str]) -> bool:
    return any(word in text for word in words)


@dataclass(frozen=True)
class TurnConstraints:
    """Everything the checks and facts of one turn ask of the listings shown on it."""

    types: frozenset[str]
    each: tuple[tuple[str, ...], ...]
    none: frozenset[str]
    max_price: float | None
    size: str | None

    def admits(self, listing: Listing) -> bool:
        return (
            listing.in_stock
            and listing.product_type in self.types
            and all(_contains_any(listing.title, words) for words in self.each)
            and not _contains_any(listing.title, self.none)
            and (self.max_price is None or listing.price_base <= self.max_price)
            and (self.size is None or self.size.lower() in listing.sizes)
        )


def turn_constraints(
    checks: Sequence[tuple[NaturalCheck, CheckFacts]],
) -> TurnConstraints:
    types = frozenset(t for _, facts in checks for t in facts.types)
    prices = [check.max_price_base for check, _ in checks if check.max_price_base is not None]
    sizes = [facts.size for _, facts in checks if facts.size]
    return TurnConstraints(
        types=types,
        each=tuple(tuple(c.title_each_any) for c, _ in checks if c.title_each_any),
        none=frozenset(w for c, _ in checks for w in (c.title_none or [])),
        max_price=min(prices) if prices else None,
        size=sizes[0] if sizes else None,
    )


def _models(listings: Iterable[Listing]) -> dict[tuple[str, str], list[Listing]]:
    models: dict[tuple[str, str], list[Listing]] = defaultdict(list)
    for listing in listings:
        models[listing.model_key].append(listing)
    return models


def _value(listing: Listing, attribute: str) -> float | None:
    values = listing.attributes.get(attribute)
    try:
        return float(values[0]) if values else None
    except ValueError:
        return None


def _format_value(value: float) -> str:
    return f"{value:g}"


class Verifier:
    """Runs every rule over a set; `problems()` is empty when the set is fair."""

    def __init__(
        self,
        catalog: Catalog,
        *,
        fx_to_base: dict[str, float] | None = None,
        page_size: int | None = None,
    ) -> None:
        self.catalog = catalog
        self.fx = dict(fx_to_base or dated_rates())
        default_picks = Settings.model_fields["agent_max_picks"].default
        self.page_size = page_size or int(default_picks)

    def problems(
        self, conversations: Sequence[NaturalConversation], facts: dict[str, ConversationFacts]
    ) -> list[Problem]:
        found: list[Problem] = []
        seen: set[str] = set()
        for conversation in conversations:
            if conversation.id in seen:
                found.append(Problem(conversation.id, None, "facts", "duplicate id"))
            seen.add(conversation.id)
            entry = facts.get(conversation.id)
            if entry is None or len(entry.checks) != len(conversation.checks):
                found.append(
                    Problem(conversation.id, None, "facts", "no facts entry per check object")
                )
                continue
            found.extend(self.conversation_problems(conversation, entry))
        return found

    def conversation_problems(
        self, conversation: NaturalConversation, facts: ConversationFacts
    ) -> Iterator[Problem]:
        by_turn: dict[int, list[tuple[NaturalCheck, CheckFacts]]] = defaultdict(list)
        for check, check_facts in zip(conversation.checks, facts.checks, strict=True):
            by_turn[conversation.turn_index(check)].append((check, check_facts))
        for turn, pairs in sorted(by_turn.items()):
            constraints = turn_constraints(pairs)
            for rule in (self._enough_models, self._second_page, self._cheaper_models):
                for detail in rule(pairs, constraints):
                    yield Problem(conversation.id, turn, rule.__name__.strip("_"), detail)
            for check, check_facts in pairs:
                for rule_name, detail in self.check_problems(check, check_facts, constraints):
                    yield Problem(conversation.id, turn, rule_name, detail)

    def check_problems(
        self, check: NaturalCheck, facts: CheckFacts, constraints: TurnConstraints
    ) -> Iterator[tuple[str, str]]:
        unknown = [t for t in facts.types if t not in self.catalog.type_names]
        if unknown:
            yield "facts", f"unknown product types {unknown}"
        if check.title_each_any:
            yield from (("coverage", d) for d in self.coverage(check.title_each_any, facts))
        if check.max_price_base is not None:
            yield from (("budget", d) for d in self.budget(check.max_price_base, facts))
        if check.names_cheapest:
            yield from (
                ("cheapest_platform", d) for d in self.cheapest(check.names_cheapest, facts)
            )
        if facts.spec is not None:
            yield from (("spec_winner", d) for d in self.spec_winner(check, facts, constraints))
        if facts.unstated is not None:
            yield from (("unstated_spec", d) for d in self.unstated(facts))
        if check.gap:
            yield from (("gap_absent", d) for d in self.gap_absent(facts.gap_words))

    def coverage(self, words: Sequence[str], facts: CheckFacts) -> Iterator[str]:
        if not facts.types and not facts.brand:
            yield "title_each_any without the types or brand it is about"
            return
        listings = (
            self.catalog.of_types(facts.types) if facts.types else list(self.catalog.listings)
        )
        if facts.brand:
            listings = [x for x in listings if x.brand.lower() == facts.brand.lower()]
            if not listings:
                yield f"no listing of brand {facts.brand!r}"
        missed = [x.title for x in listings if not _contains_any(x.title, words)]
        if missed:
            yield f"{len(missed)} titles match none of {list(words)}, e.g. {missed[0]!r}"

    def _enough_models(
        self, pairs: Sequence[tuple[NaturalCheck, CheckFacts]], constraints: TurnConstraints
    ) -> Iterator[str]:
        wanted = [c.min_products or 1 for c, _ in pairs if c.products == "nonempty"]
        wanted += [c.min_products for c, _ in pairs if c.min_products]
        if not wanted:
            return
        if not constraints.types:
            yield "products required but no product types in the facts"
            return
        one_model = any(facts.one_model for _, facts in pairs)
        need = max(wanted) if one_model else max(MIN_MODELS, *wanted)
        have = len(_models(x for x in self.catalog.listings if constraints.admits(x)))
        if have < need:
            yield f"{have} in-stock models meet the turn's constraints, {need} needed"

    def budget(self, max_price_base: float, facts: CheckFacts) -> Iterator[str]:
        if facts.budget is None:
            yield "max_price_base without the budget as said"
            return
        amount, currency = facts.budget
        rate = self.fx.get(currency) or OUTSIDE_RATES.get(currency)
        if rate is None:
            yield f"no rate for {currency}"
            return
        expected = round(amount * rate, 2)
        if abs(expected - max_price_base) > 0.01:
            yield f"{amount:g} {currency} is {expected:g} CNY, not {max_price_base:g}"
        if currency not in self.fx:
            low, high = (
                max_price_base * (1 - OUTSIDE_RATE_MARGIN),
                max_price_base * (1 + OUTSIDE_RATE_MARGIN),
            )
            near = [
                x.price_base
                for x in self.catalog.of_types(facts.types)
                if x.in_stock and low <= x.price_base <= high
            ]
            if near:
                yield f"listings priced {sorted(near)[:3]} are too close to a {currency} budget"

    def _second_page(
        self, pairs: Sequence[tuple[NaturalCheck, CheckFacts]], constraints: TurnConstraints
    ) -> Iterator[str]:
        if not any(facts.second_page for _, facts in pairs):
            return
        have = len(_models(x for x in self.catalog.listings if constraints.admits(x)))
        if have <= self.page_size:
            yield f"{have} models meet the constraints: no second page of {self.page_size}"

    def _cheaper_models(
        self, pairs: Sequence[tuple[NaturalCheck, CheckFacts]], constraints: TurnConstraints
    ) -> Iterator[str]:
        premiums = {facts.premium for _, facts in pairs if facts.premium}
        for premium in premiums:
            own = [
                x
                for x in self.catalog.of_types(constraints.types)
                if x.in_stock and x.brand.lower() == premium.lower()
            ]
            if not own:
                yield f"no in-stock listing of {premium}"
                continue
            floor = min(x.price_base for x in own)
            cheaper = _models(
                x
                for x in self.catalog.listings
                if constraints.admits(x)
                and x.brand.lower() != premium.lower()
                and x.price_base < floor
            )
            if len(cheaper) < MIN_MODELS:
                yield f"{len(cheaper)} models of other brands are cheaper than {premium}'s cheapest"

    def cheapest(self, model_words: Sequence[str], facts: CheckFacts) -> Iterator[str]:
        if facts.cheapest is None:
            yield "names_cheapest without the expected platform"
            return

        def names(listing: Listing) -> bool:
            squeezed = listing.title.replace(" ", "")
            return any(w in listing.title or w.replace(" ", "") in squeezed for w in model_words)

        matched = [x for x in self.catalog.listings if names(x)]
        if len({x.model_key for x in matched}) != 1:
            yield f"{sorted({x.model_key for x in matched})} match {list(model_words)}: not one model"
            return
        offers = [x for x in matched if x.in_stock]
        per_platform: dict[str, float] = {}
        for offer in offers:
            per_platform[offer.platform] = min(
                per_platform.get(offer.platform, offer.price_base), offer.price_base
            )
        if len(per_platform) < 2:
            yield f"in stock on {len(per_platform)} platform(s)"
            return
        ranked = sorted(per_platform.items(), key=lambda kv: kv[1])
        if ranked[0][0] != facts.cheapest or ranked[0][1] == ranked[1][1]:
            yield f"cheapest in-stock offers {ranked[:2]}, not strictly on {facts.cheapest}"

    def spec_winner(
        self, check: NaturalCheck, facts: CheckFacts, constraints: TurnConstraints
    ) -> Iterator[str]:
        spec = facts.spec
        assert spec is not None
        cap = spec.max_price_base
        candidates = [
            value
            for x in self.catalog.of_types(facts.types or constraints.types)
            if x.in_stock and (cap is None or x.price_base <= cap)
            if (value := _value(x, spec.attribute)) is not None
        ]
        if not candidates:
            yield f"no in-stock listing states {spec.attribute}"
            return
        winner = _format_value(min(candidates) if spec.best == "min" else max(candidates))
        if not check.reply_any or not any(winner in word for word in check.reply_any):
            yield f"the winner is {winner}, which reply_any does not name"

    def unstated(self, facts: CheckFacts) -> Iterator[str]:
        spec = facts.unstated
        assert spec is not None
        if not facts.types:
            yield "an unstated attribute without the types it is about"
        for listing in self.catalog.of_types(facts.types):
            keys = [k for k in listing.attributes if any(a in k for a in spec.attributes)]
            words = [w for w in spec.words if w in listing.text]
            if keys or words:
                yield f"{listing.title!r} states it ({keys or words})"
                return

    def gap_absent(self, words: Sequence[str]) -> Iterator[str]:
        if not words:
            yield "gap without the words of what is asked for"
            return
        for word in words:
            hit = next((x.title for x in self.catalog.listings if word in x.text), None)
            if hit is not None:
                yield f"{word!r} appears in the listing {hit!r}"
            named = [
                t
                for t, names in self.catalog.type_names.items()
                if any(word in name for name in names)
            ]
            if named:
                yield f"{word!r} is part of the product type names of {named}"
