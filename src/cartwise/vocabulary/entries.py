"""What a word in the vocabulary means: the `Entry` a surface form names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal[
    "attribute",
    "colour",
    "colour_shade",
    "product_type",
    "type_group",
    "product_noun",
    "domain_word",
    "brand",
    "platform",
    "size",
    "currency",
    "recipient",
    "pet",
    "safety",
    "gap",
    "phrase_word",
]
"""What sort of thing a word names:

- `attribute`: a material, style or other term a shopper likes or refuses (category material,
  style or other);
- `colour`: a colour as a preference (category color; `detail` is its family);
- `colour_shade`: a word that puts a listing in a colour family ("charcoal"), no preference;
- `product_type` / `type_group` / `product_noun`: a taxonomy type, an umbrella word for several
  types ("零食", "toys"), a generic noun for a domain ("鞋", "clothes"), a word that files a
  listing under a domain (its names, "apparel", "母婴");
- `brand`, `platform`, `size` (a size word: "大码" is XL), `currency` (an ISO code);
- `recipient` / `pet`: whom a purchase is for;
- `safety`: a word that makes a refusal a safety matter (category allergy or health);
- `gap`: something shops do not sell as goods (category not_goods or never_carried, `detail`
  the kind: service, ticket, vehicle…);
- `phrase_word`: a word around what a message asks for, no word of a listing (`slug` its
  group: ask, filler, person…; see `phrase_words`).
"""


@dataclass(frozen=True)
class Entry:
    """One meaning of a surface form. A form can have several ("denim" is a material and a
    shade of blue); a match carries all of them."""

    kind: Kind
    slug: str
    """Canonical id: a preference slug, a type slug, a platform id, an ISO currency code…"""
    category: str = ""
    """The sort within the kind: material/style/other for attributes, brand…"""
    domain: str = ""
    """The product domain the word belongs to, when it has one."""
    detail: str = ""
    """One more fact of the kind: a colour's family, a gap's kind."""
