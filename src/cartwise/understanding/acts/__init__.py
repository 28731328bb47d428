"""Dialogue acts: what a message does (ask for products, ask about an item, state a
preference, say who it is for, ask about the assistant, chat, thank, close), decided by a
classifier learned from labelled examples (`data/acts_train.jsonl`), not by patterns.

    classifier = create_act_classifier(embedder)
    classifier.scores("hi! something for my nephew?")   # {Act.SMALL_TALK: 0.9, ...}
    classifier.acts("hi! something for my nephew?")     # the policy's set of acts
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.understanding.acts.act import ACTS, Act
    from cartwise.understanding.acts.classifier import (
        ActClassifier,
        ActPolicy,
        create_act_classifier,
    )

__all__ = ["ACTS", "Act", "ActClassifier", "ActPolicy", "create_act_classifier"]

# The act names alone (a `Reading` holds them) need no classifier, weights or numpy.
__getattr__ = lazy_face(
    __name__,
    {
        "ACTS": "cartwise.understanding.acts.act",
        "Act": "cartwise.understanding.acts.act",
        "ActClassifier": "cartwise.understanding.acts.classifier",
        "ActPolicy": "cartwise.understanding.acts.classifier",
        "create_act_classifier": "cartwise.understanding.acts.classifier",
    },
)
