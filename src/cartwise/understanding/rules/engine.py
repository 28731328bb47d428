"""`RulesEngine`: the embedded, offline Engine — planner, curator and reply writer built on
the bilingual lexicon. It is also the LLM engine's fallback and polarity guard."""

from __future__ import annotations

from collections.abc import Sequence

from cartwise.memory.session_state import SessionPrefState
from cartwise.memory.store import PreferenceEntry
from cartwise.understanding.base import CuratorOutput, CuratorTurn, PlannerOutput, ReplyFacts
from cartwise.understanding.rules import curator, reply
from cartwise.understanding.rules.lexicon import Lexicon, load_lexicon
from cartwise.understanding.rules.negation import scope_terms
from cartwise.understanding.rules.planner import RulesPlanner


class RulesEngine:
    """Engine protocol over lexicon + grammars; deterministic, no network."""

    def __init__(self, lexicon: Lexicon | None = None) -> None:
        self._lexicon = lexicon or load_lexicon()
        self._planner = RulesPlanner(self._lexicon)

    @property
    def name(self) -> str:
        return "rules"

    @property
    def lexicon(self) -> Lexicon:
        return self._lexicon

    def plan(
        self, message: str, session: SessionPrefState, memory: Sequence[PreferenceEntry]
    ) -> PlannerOutput:
        return self._planner.plan(message, session, memory)

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        return curator.curate(turn)

    def write_reply(self, facts: ReplyFacts) -> str:
        return reply.write_reply(facts)

    def negated_slugs(self, message: str) -> set[str]:
        """Slugs this message places inside a negation scope — the polarity guard's evidence:
        an LLM "like" on one of these is a mislabel."""
        scoping = scope_terms(message, self._lexicon.scan(message))
        return {t.term.slug for t in scoping.terms if t.stance == "dislike"}
