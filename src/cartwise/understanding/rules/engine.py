"""`RulesEngine`: the embedded, offline Engine — planner, curator and reply writer built on
the bilingual lexicon. It is also the LLM engine's fallback and polarity guard."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from cartwise.catalog.brands import CatalogBrand, demo_catalog_brands
from cartwise.understanding.acts import ActClassifier
from cartwise.understanding.base import CuratorOutput, CuratorTurn, ReplyFacts
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules import curator, reply
from cartwise.understanding.rules.lexicon import Lexicon, lexicon_with_brands, load_lexicon
from cartwise.understanding.rules.negation import scope_terms
from cartwise.understanding.rules.reader import RulesReader
from cartwise.understanding.rules.spelling import Respeller


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The curated lexicon plus the brands of the bundled demo catalog."""
    return load_lexicon().with_brands(demo_catalog_brands())


class RulesEngine:
    """Engine protocol over lexicon + grammars; deterministic, no network.

    `catalog`: brands mined from the ingested catalogs (`cartwise.catalog.brands`), added to the
    lexicon so a brand any catalog sells is understood, not only the curated ones."""

    def __init__(
        self,
        lexicon: Lexicon | None = None,
        *,
        catalog: Iterable[CatalogBrand] = (),
        acts: ActClassifier | None = None,
    ) -> None:
        brands = list(catalog)
        # The catalogs' brands replace the demo catalog's (`with_brands` builds the packaged
        # lexicon plus the brands given): building the default lexicon, and the packaged one
        # under it, only to drop them cost two matcher builds of every process.
        self._lexicon = lexicon_with_brands(brands) if brands else lexicon or default_lexicon()
        # Without the turn's embedder the classifier reads character n-grams alone.
        self._acts = acts or ActClassifier(None)
        self._reader = RulesReader(self._lexicon, self._acts)
        self._respeller = Respeller(self._lexicon.surfaces())

    @property
    def name(self) -> str:
        return "rules"

    @property
    def lexicon(self) -> Lexicon:
        return self._lexicon

    def read(self, message: str, conversation: Conversation) -> Reading:
        # The message's sentence vector is embedded on the other core while the rules scan.
        self._acts.read_ahead(message.strip())
        # The act classifier reads what was typed; the rules read it respelled.
        respelled = self._respeller.respell_latin(message)
        reading = self._reader.read(respelled, conversation, acts_of=message)
        if reading.types or reading.intent != "search":
            return reading
        # No kind of goods named: perhaps a Chinese one typed by its sound (空气进化器).
        by_sound = self._respeller.respell_han(respelled)
        if by_sound == respelled:
            return reading
        return self._reader.read(by_sound, conversation, acts_of=message)

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        return curator.curate(turn)

    def write_reply(self, facts: ReplyFacts) -> str:
        return reply.write_reply(facts)

    def negated_slugs(self, message: str) -> set[str]:
        """Slugs this message places inside a negation scope — the polarity guard's evidence:
        an LLM "like" on one of these is a mislabel."""
        scoping = scope_terms(message, self._lexicon.scan(message))
        return {t.term.slug for t in scoping.terms if t.stance == "dislike"}
