"""A query vector reads the start of a long message or search phrase (`QUERY_WORDS`), and
every message a shopper normally writes whole."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from cartwise.embedding.base import QUERY_WORDS, query_start
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.text import WORD
from cartwise.understanding.acts.classifier import SENTENCE_MODEL, ActClassifier
from tests.doubles import CountingEmbedder
from tests.factories import make_product

PASTED = "我在找一双适合日常跑步和周末长距离训练的鞋子，脚比较宽，之前穿的那双鞋底太硬，"


class SentenceModelShaped(HashingEmbedder):
    """Hashing vectors under the act classifier's sentence model's name and width, so the
    classifier reads sentence vectors through it."""

    def __init__(self) -> None:
        super().__init__(384)

    @property
    def name(self) -> str:
        return SENTENCE_MODEL


def _messages() -> Iterator[str]:
    """Every message of the evaluation sets and the act classifier's training file."""
    roots = [
        resources.files("cartwise.eval") / "data",
        resources.files("cartwise.understanding.acts") / "data",
    ]
    for root in roots:
        for path in sorted(Path(str(root)).glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                if isinstance(row.get("text"), str):
                    yield row["text"]
                for turn in row.get("turns") or []:
                    said = turn.get("say") if isinstance(turn, dict) else turn
                    if isinstance(said, str):
                        yield said


def test_every_message_of_the_evaluation_and_training_sets_is_embedded_whole() -> None:
    messages = list(_messages())
    assert len(messages) > 4000
    cut = [m for m in messages if query_start(m) != m]
    assert not cut, cut[:3]


def test_a_pasted_message_is_embedded_by_its_first_words() -> None:
    message = PASTED * 40
    start = query_start(message)
    assert message.startswith(start)
    assert len(WORD.findall(start)) == QUERY_WORDS


def test_the_act_classifier_reads_a_pasted_message_by_its_start() -> None:
    embedder = CountingEmbedder(SentenceModelShaped())
    classifier = ActClassifier(embedder)
    assert classifier.reads_sentences
    classifier.acts(PASTED * 40)
    classifier.acts("三百以内的跑步鞋，42码")
    assert embedder.queries == [query_start(PASTED * 40), "三百以内的跑步鞋，42码"]


def test_recall_embeds_the_start_of_a_long_query_and_matches_its_end_lexically(
    settings: Settings,
) -> None:
    embedder = CountingEmbedder(HashingEmbedder(256))
    service = RecallService.open(settings, embedder)
    products = [make_product("1", title="Pegasus trail shoe"), make_product("2", title="kettle")]
    service.upsert(products, embedder.embed_documents([p.embedding_text() for p in products]))
    query = "comfortable wide running shoes for long weekend runs " * 20 + "pegasus"
    hits = service.search(query, k=2, profile="", mode="hybrid").results
    assert embedder.queries == [query_start(query)]
    assert hits[0].product.item_id == "1"
    assert hits[0].score_lexical > 0
