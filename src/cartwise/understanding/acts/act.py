"""`Act`: what a message does — the closed set of dialogue acts, several per message."""

from __future__ import annotations

from enum import StrEnum


class Act(StrEnum):
    """A dialogue act. A message performs one or more: "hi! a scarf for my mum under 300"
    is small_talk, gift_context and request at once."""

    REQUEST = "request"
    """Asks for products or refines the running search: a need, an attribute, a budget, a
    size, cheaper, more, another brand, a sort, a page."""
    ITEM_QUESTION = "item_question"
    """Asks about a shown or named item: details, colours, link, where it is cheapest, a
    comparison, its price history."""
    PREFERENCE = "preference"
    """States a like, a dislike, an allergy or diet, or a standing rule — also inside a
    request ("earbuds, no plastic") and when taking one back."""
    GIFT_CONTEXT = "gift_context"
    """Says who it is for (a person or a pet), the occasion, or their age and interests."""
    ASSISTANT_QUESTION = "assistant_question"
    """Asks about the assistant itself: what it can do, whether it is a bot, how it works,
    what it remembers, which shops it searches."""
    SMALL_TALK = "small_talk"
    """A greeting, how-are-you, a bare acknowledgement, chit-chat."""
    THANKS = "thanks"
    CLOSING = "closing"
    """A goodbye, "that's all", or a decision that ends the search ("I'll take the first")."""


ACTS: tuple[Act, ...] = tuple(Act)
"""Every act, in the order the model's columns use."""
