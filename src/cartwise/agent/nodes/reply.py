"""reply node: the engine writes the reply from facts only; it streams as text deltas.

The facts are what the turn understood and found — never the shopper's raw message — and
they carry only claims the data supports: prices in the shopper's currency, refused brands
named as brands, and a caveat where a listing cannot confirm what an exclusion promises.
"""

from __future__ import annotations

import asyncio

from cartwise.agent.answers import answer_is_whole, render_answer
from cartwise.agent.dialogue import shopper_currency
from cartwise.agent.nodes.picker import label, named_few
from cartwise.agent.picker import EXCLUSION_WHY
from cartwise.agent.price_answers import lows_note, models_at_low, render_price_answer
from cartwise.agent.rejections import KINDS
from cartwise.agent.state import MemoryUpdate, Pick, RunContext, TurnState
from cartwise.agent.workflow import Runtime
from cartwise.catalog.product import Domain
from cartwise.memory.store import Category
from cartwise.settings import Settings
from cartwise.understanding.base import MAX_REPLY_ITEMS as REPLY_ITEMS
from cartwise.understanding.base import ReplyFacts, ReplyItem
from cartwise.understanding.reading import Language

WHAT_TO_FIND: dict[Language, str] = {
    "zh": "记住了。你想找什么商品？我会按你的偏好来挑。",
    "en": "Noted. What are you looking for? I will pick with your preferences in mind.",
}
"""Said when the message gave nothing to search (a bare preference in a new thread). Not an
open question: any next message answers it."""

# Listings of these domains have ingredients; an exclusion there (an allergen) can only be
# promised when the listing says what is in it.
INGREDIENT_DOMAINS = frozenset({Domain.FOOD, Domain.BABY, Domain.BEAUTY})
INGREDIENT_FIELDS = ("ingredients", "allergens")


def refusal_categories(state: TurnState) -> dict[str, Category]:
    """Category of every refused slug this turn knows (memory, this message, the session)."""
    categories = {e.slug: e.category for e in state.get("memory", [])}
    categories.update({c.slug: c.category for c in state["session"].constraints})
    categories.update({p.slug: p.category for p in state["plan"].stated})
    return categories


def brand_name(slug: str, keywords: list[str], language: Language) -> str:
    if language == "zh":
        return label(slug, keywords, language)
    return " ".join(word.capitalize() for word in slug.split("-"))


def caveats(pick: Pick, refused: list[tuple[str, Category]], language: Language) -> list[str]:
    """What the listing cannot confirm about the shopper's exclusions."""
    product = pick.candidate.product
    zh = language == "zh"
    notes: list[str] = []
    ingredients = [name for name, category in refused if category is Category.OTHER]
    if (
        ingredients
        and product.domain in INGREDIENT_DOMAINS
        and not any(product.attributes.get(field) for field in INGREDIENT_FIELDS)
    ):
        names = ("、" if zh else ", ").join(named_few(ingredients, 0, language))
        notes.append(
            f"商品页没有列出配料，无法确认不含{names}，请向商家核实"
            if zh
            else f"the listing does not list ingredients, so I cannot confirm it is free of "
            f"{names}; check with the seller"
        )
    materials = [name for name, category in refused if category is Category.MATERIAL]
    if materials and not product.attributes.get("material"):
        names = ("、" if zh else ", ").join(named_few(materials, 0, language))
        notes.append(
            f"商品页没有写材质，无法确认不含{names}"
            if zh
            else f"the listing does not state its material, so {names} cannot be ruled out"
        )
    return notes


def reply_item(pick: Pick, currency: str, settings: Settings, notes: list[str]) -> ReplyItem:
    product = pick.candidate.product
    shown = (
        product.price
        if product.currency.upper() == currency
        else round(product.price_base / settings.fx_to_base[currency], 2)
    )
    language_why = [w for w in pick.why if not (notes and w in EXCLUSION_WHY.values())]
    return ReplyItem(
        platform=product.platform,
        title=product.title,
        price=product.price,
        currency=product.currency,
        price_base=product.price_base,
        why=language_why,
        shown_price=shown,
        caveats=notes,
    )


def reply_facts(state: TurnState, settings: Settings) -> ReplyFacts:
    plan = state["plan"]
    language = plan.language
    if plan.intent == "chitchat":
        return ReplyFacts(language=language, query="", small_talk=plan.small_talk or "ack")
    labels = KINDS[language]
    currency = shopper_currency(state.get("slots", {}), language, settings)
    categories = refusal_categories(state)
    brands: list[str] = []
    refused: list[tuple[str, Category]] = []
    for slug, words in state.get("excluded", {}).items():
        category = categories.get(slug, Category.OTHER)
        if category is Category.BRAND:
            brands.append(brand_name(slug, words, language))
        else:
            refused.append((label(slug, words, language), category))
    items = [
        reply_item(pick, currency, settings, caveats(pick, refused, language))
        for pick in state.get("picks", [])
    ]
    return ReplyFacts(
        language=language,
        query=state.get("query", ""),
        items=items,
        applied=state.get("applied", []),
        notices=state.get("notices", []),
        filtered_out={
            labels.get(kind, kind): count for kind, count in state.get("filtered_out", {}).items()
        },
        question=state.get("question", "")
        or (
            ""
            if state.get("query") or state.get("catalog_gap") or state.get("vague_request")
            else WHAT_TO_FIND[language]
        ),
        personalization=any(state.get("personalization", [])),
        currency=currency,
        # A few of each, the rest counted: the stored ones the turn does not name are
        # counted with the other refused things.
        excluded_brands=named_few(brands, 0, language),
        excluded_terms=named_few(
            [name for name, _ in refused], state.get("excluded_more", 0), language
        ),
        catalog_gap=state.get("catalog_gap"),
    )


async def reply_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    timings: dict[str, float] = {}
    answer = state.get("answer")
    lead = render_answer(answer, state["plan"].language) if answer is not None else ""
    priced = state.get("price_answer")
    async with sink.step("replying", timings):
        facts = reply_facts(state, deps.settings)
        if priced is not None:
            reply = render_price_answer(priced, state["plan"].language)
        elif lead and (not state.get("query") or answer_is_whole(answer)):
            # Answered from listings already shown (nothing searched), or nothing more to show.
            reply = lead
        else:
            written = await asyncio.to_thread(deps.engine.write_reply, facts)
            # Only the items the reply lists: the shopper counts ordinals from it.
            listed = state.get("picks", [])[:REPLY_ITEMS]
            at_low = [
                n
                for n, pick in enumerate(listed, start=1)
                if (f := state.get("price_facts", {}).get(pick.candidate.product.key))
                and f.deal == "lowest_90d"
            ]
            note = lows_note(
                at_low,
                state["plan"].language,
                models_at_low=models_at_low(listed, state.get("model_lows", {})),
            )
            reply = "\n".join(part for part in (lead, written, note) if part)
        await sink.stream_text(reply)
    update: TurnState = {"reply": reply, "timings": timings}
    if facts.small_talk:
        # Small talk ends the turn here: nothing is remembered, so memory is as it was.
        update["memory_update"] = MemoryUpdate(
            long_term=state.get("memory", []), session=state["session"]
        )
    return update
