"""profile node: the turn's preferences, computed ONCE for every search and the picker.

Like-only profile text for the user tower, exclude terms for the hard filter, demote terms
for the soft dislikes, the preference block for the reply. What the shopper says in this very
message counts at once ("不要塑料的耳机" filters plastic in the same turn), even though the
curator only writes it to memory after the reply; a retraction in this message lifts the old
preference at once.

Only the preferences of the turn's recipient (`Reading.recipient`) apply: a gift for
mum obeys mum's dislikes and not the shopper's, a search for the shopper ignores mum's.
Hard dislikes filter; soft ones ("我不太喜欢X") only rank X lower.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cartwise.agent.budget_search import within_budget
from cartwise.agent.dialogue import active_search, request_filters
from cartwise.agent.picker import budget_from_slots
from cartwise.agent.state import RunContext, TurnState
from cartwise.agent.turn_memory import merged, retracted_slugs, turn_memory
from cartwise.agent.workflow import Runtime
from cartwise.catalog.product import Domain
from cartwise.catalog.terms import slug_terms
from cartwise.embedding.base import Vector
from cartwise.memory.injector import preference_context
from cartwise.memory.session_state import SessionConstraint
from cartwise.memory.store import Category, Polarity, PreferenceEntry, Strength
from cartwise.recall.indexes.base import SearchFilters
from cartwise.text import fold
from cartwise.understanding.reading import Reading, StatedPreference

APPLIED_IN_SLICE = 64
"""Stored entries a search applies that join the turn's slice at most (those the reply and
the snapshot name; the search filters and ranks by all of them). At 10,000 stored entries a
headphones search applied 1,524: every snapshot carried them (530 KB) and the curator read
them all, and the turn took ~5× one with nothing stored."""


@dataclass
class TurnPreferences:
    """The preferences that apply to this turn, from every source."""

    profile: str = ""
    profile_vector: Vector | None = None
    """`profile`'s user-tower vector while it holds stored likes alone (a like stated in
    this message has no stored vector yet: then None, and the search embeds `profile`)."""
    likes: list[str] = field(default_factory=list)
    like_terms: list[str] = field(default_factory=list)
    exclude_terms: list[str] = field(default_factory=list)
    excluded: dict[str, list[str]] = field(default_factory=dict)
    """Slug → keywords of the dislikes behind `exclude_terms` the turn names (for telling
    the shopper): all of this message's and the session's, the most relevant stored ones."""
    demote_terms: list[str] = field(default_factory=list)
    """Soft dislikes' terms: a listing that mentions one ranks lower, never vanishes."""
    demoted: dict[str, list[str]] = field(default_factory=dict)
    """Slug → keywords of the soft dislikes behind `demote_terms` the turn names."""
    excluded_more: int = 0
    """Stored hard dislikes behind `exclude_terms` that `excluded` does not name."""
    demoted_more: int = 0
    """Stored soft dislikes behind `demote_terms` that `demoted` does not name."""
    block: str = ""


def _retracted(plan: Reading, memory: Iterable[PreferenceEntry]) -> set[str]:
    """Long-term keys and category:slug keys this message takes back."""
    keys = set(plan.retracted)
    for entry in memory:
        short = f"{entry.category.value}:{entry.slug}"
        if entry.dedup_key in keys or short in keys:
            keys |= {entry.dedup_key, short}
    return keys


def _is_retracted(item: StatedPreference | SessionConstraint, retracted: set[str]) -> bool:
    return f"{item.category.value}:{item.slug}" in retracted


def collect_preferences(
    *,
    profile: str,
    liked: list[PreferenceEntry],
    profile_vector: Vector | None = None,
    exclude_terms: list[str],
    block: str,
    plan: Reading,
    constraints: list[SessionConstraint],
    memory: list[PreferenceEntry],
    demote_terms: Sequence[str] = (),
    excluded_more: int = 0,
    demoted_more: int = 0,
) -> TurnPreferences:
    """Merge stored preferences (already read for the turn's recipient) with this message's
    and the session's (pure, no store). `memory` may hold every recipient's entries: only
    the turn's recipient's count. It holds the stored entries to name and to lift (those
    the message retracts or whose brand it asks for); `excluded_more`/`demoted_more` count
    the stored dislikes it leaves out."""
    recipient = plan.recipient
    memory = [e for e in memory if e.recipient == recipient]
    retracted = _retracted(plan, memory)
    # A brand asked for by name is wanted this time, whatever was said against it before.
    asked_brands = set(plan.brands)
    lifted = {
        fold(term)
        for entry in memory
        if entry.dedup_key in retracted
        or (entry.category is Category.BRAND and entry.slug in asked_brands)
        for term in slug_terms(entry.slug, entry.keywords)
    }
    prefs = TurnPreferences(
        profile=profile,
        profile_vector=profile_vector,
        likes=[e.slug for e in liked if e.dedup_key not in retracted],
        like_terms=[
            t for e in liked if e.dedup_key not in retracted for t in slug_terms(e.slug, e.keywords)
        ],
        exclude_terms=[t for t in exclude_terms if fold(t) not in lifted],
        demote_terms=[t for t in demote_terms if fold(t) not in lifted],
        excluded_more=excluded_more,
        demoted_more=demoted_more,
        block=block,
    )
    excluding = {fold(t) for t in prefs.exclude_terms}
    demoting = {fold(t) for t in prefs.demote_terms}
    for entry in memory:
        if entry.polarity is not Polarity.DISLIKE:
            continue
        forms = {fold(t) for t in slug_terms(entry.slug, entry.keywords)}
        if entry.strength is Strength.HARD and forms & excluding:
            prefs.excluded[entry.slug] = entry.keywords
        elif entry.strength is Strength.SOFT and forms & demoting:
            prefs.demoted[entry.slug] = entry.keywords
    fresh_likes: list[str] = []
    stated = [s for s in plan.stated if s.recipient == recipient]
    items: list[StatedPreference | SessionConstraint] = [*stated, *constraints, *plan.constraints]
    for item in items:
        if _is_retracted(item, retracted):
            continue
        terms = slug_terms(item.slug, item.keywords)
        if item.polarity is Polarity.DISLIKE and item.strength is Strength.HARD:
            prefs.exclude_terms.extend(terms)
            prefs.excluded[item.slug] = item.keywords
        elif item.polarity is Polarity.DISLIKE:
            prefs.demote_terms.extend(terms)
            prefs.demoted[item.slug] = item.keywords
        else:
            prefs.like_terms.extend(terms)
            if item.slug not in prefs.likes:
                prefs.likes.append(item.slug)
                if isinstance(item, StatedPreference) and item.scope == "request":
                    continue  # asked of this search ("要羊毛的"), not a taste to personalize by
                fresh_likes.append(" ".join([item.slug.replace("-", " "), *item.keywords]))
    # A fact both filtered and demoted (a soft dislike said again as a hard one) filters.
    for slug in prefs.excluded:
        prefs.demoted.pop(slug, None)
    hard = {fold(t) for t in prefs.exclude_terms}
    prefs.demote_terms = [t for t in dict.fromkeys(prefs.demote_terms) if fold(t) not in hard]
    if fresh_likes:
        prefs.profile = " ".join(p for p in (prefs.profile, *fresh_likes) if p)
        prefs.profile_vector = None
    return prefs


SEARCHABLE_DOMAINS = {d.value for d in Domain} - {Domain.OTHER.value}


def search_filters(plan: Reading, domain: str) -> SearchFilters:
    """Exact filters: brands the shopper named, and the request's product domain — a search
    for headphones on a platform whose headphones were all filtered out must not fall back
    to gift boxes. A listing whose domain ingest could not tell (`other`: a title of keywords
    naming no known kind of product) is not known to be elsewhere, so it stays in. (The picker
    retries without the domain when it finds nothing at all.)"""
    if domain not in SEARCHABLE_DOMAINS:
        return SearchFilters(brands=plan.brands)
    return SearchFilters(brands=plan.brands, domains=[domain, Domain.OTHER.value])


async def profile_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    settings = deps.settings
    user, query, plan = state["user"], state["query"], state["plan"]
    timings: dict[str, float] = {}
    async with sink.step("profile", timings):
        applied: list[PreferenceEntry] = []

        def read() -> TurnPreferences:
            text = query or plan.current_intent or state["message"]
            # One store read and one query embedding for all views of the stored preferences.
            stored = preference_context(
                deps.preferences, user, text, settings=settings, recipient=plan.recipient
            )
            # A brand asked for by name or a retracted fact lifts its stored dislikes, which
            # need not be among the few most relevant the read names: looked up by slug in
            # the namespace's term index, not by reading every dislike.
            lifting = [*plan.brands, *retracted_slugs(plan.retracted)]
            named = turn_memory(deps.preferences, user, "", slugs=lifting) if lifting else []
            # The turn's slice plus the stored entries this search applies that it names:
            # the filter's words are traced back to their entries (what the reply names).
            applied.extend(merged(state["memory"], named, stored.dislikes, stored.likes))
            return collect_preferences(
                profile=stored.profile,
                profile_vector=stored.profile_vector,
                liked=stored.likes,
                exclude_terms=stored.exclude_terms,
                demote_terms=stored.demote_terms,
                block=stored.block,
                plan=plan,
                constraints=state["session"].constraints,
                memory=applied,
                excluded_more=stored.excluded_more,
                demoted_more=stored.demoted_more,
            )

        prefs = await asyncio.to_thread(read)
        search = active_search(state)
        for slug, terms in (search.exclusions if search is not None else {}).items():
            prefs.exclude_terms.extend(terms)
            prefs.excluded.setdefault(slug, terms)
        available = deps.recall.platforms()
        named = [p for p in plan.platforms if p in available]
        filters = request_filters(search_filters(plan, state.get("domain", "")), state)
        filters = filters.model_copy(update={"brands": deps.recall.listed_brands(filters.brands)})
        budget = budget_from_slots(state.get("slots", {}), settings)
    # The fan-out that follows is one stage; the picker closes it when all searches are in.
    await sink.step_started("searching")
    return {
        "profile": prefs.profile,
        "profile_vector": prefs.profile_vector,
        "likes": prefs.likes,
        "like_terms": prefs.like_terms,
        "exclude_terms": prefs.exclude_terms,
        "excluded": prefs.excluded,
        "demote_terms": prefs.demote_terms,
        "demoted_prefs": prefs.demoted,
        "excluded_more": prefs.excluded_more,
        "demoted_more": prefs.demoted_more,
        "preference_block": prefs.block,
        "platforms": named or available,
        "filters": within_budget(filters, budget),
        "budget_probe": filters if budget.is_set else None,
        "search_started_at": time.perf_counter(),
        # The turn's slice of memory grows by the stored entries this search applies (the
        # reply names them, the snapshot carries them), up to a bound: filtering above used
        # every one of them.
        "memory": applied[: len(state["memory"]) + APPLIED_IN_SLICE],
        "timings": timings,
    }
