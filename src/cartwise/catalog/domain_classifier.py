"""Which product domain(s) a query is about: the domain classifier, on the catalog floor so
that memory (preference scope) and understanding may both ask it. Memory's scope uses it
today; the rules planner still names a message's domain from the nouns its lexicon matches
(with their spans), a reading it needs for the query text as well.

`classify(query)` ranks the described domains by similarity; `may_be_in(query, domain)` says
whether a query is about a domain, including free-text domains stored by older versions.

A domain-scoped entry ("no plastic" said about headphones → `electronics`) must apply to a
speaker or keyboard search and not to a raincoat search. Comparing the query with the bare
domain word against a fixed threshold was measured too weak with multilingual-e5-small: on 53
zh/en queries over 9 domains, `cos(query, "electronics") >= 0.80` found the right domain for
83% of queries while 22% of the wrong domains also passed (about 1.8 wrong domains per query).
So each domain is described by a few bilingual product nouns, and a query is about the
domain(s) whose description is nearest to it (within `MARGIN` of the best): the right domain
for 96% of those queries, 0.21 wrong domains per query.

Stored domains are free text and drift ("apparel", "服装"): an unknown domain is mapped to the
nearest described one when it is clearly that one (`SAME_DOMAIN`); otherwise the decision is
left to the query's similarity to the domain's own word against the caller's threshold.
"""

from __future__ import annotations

import threading

import numpy as np

from cartwise.embedding.base import Embedder, Vector

DOMAIN_DESCRIPTIONS: dict[str, str] = {
    "electronics": "electronics: headphones, phones, laptops, speakers, cameras, keyboards "
    "电子产品 数码 耳机 手机 电脑 音箱",
    "clothing": "clothing: jackets, coats, jeans, shirts, dresses, sweaters "
    "服装 衣服 外套 夹克 牛仔裤 衬衫 连衣裙",
    "shoes": "shoes: sneakers, running shoes, boots, sandals, heels 鞋 跑鞋 运动鞋 靴子 凉鞋",
    "home": "home: furniture, sofas, bedding, lamps, kitchenware, storage "
    "家居 家具 沙发 床品 灯 厨具 收纳",
    "beauty": "beauty: makeup, lipstick, skincare, shampoo, perfume 美妆 口红 护肤 洗发水 香水",
    "food": "food: snacks, coffee, tea, milk, chocolate, groceries 食品 零食 咖啡 茶叶 牛奶 巧克力",
    "sports": "sports: yoga mats, rackets, dumbbells, balls, fitness gear "
    "运动 户外 瑜伽垫 球拍 哑铃 篮球 健身",
    "baby": "baby: diapers, bottles, strollers, infant formula 母婴 婴儿 纸尿裤 奶瓶 婴儿车 奶粉",
    "tools": "tools: drills, hammers, screwdrivers, hardware 工具 五金 电钻 锤子 螺丝刀",
}

MARGIN = 0.005
"""A query is about every domain whose description scores within this of the best one
(0.005: 96% right-domain recall, 0.21 wrong domains per query; 0.01: 100% and 0.42)."""

MIN_SIMILARITY = 0.2
"""A query that resembles no described domain at all is about none of them."""

SAME_DOMAIN = 0.84
"""An unknown domain word this close to a description is that domain ("apparel" 0.84,
"服装" 0.90, "footwear" 0.85 → clothing/clothing/shoes; "pet supplies" 0.82 → none)."""


class DomainClassifier:
    """Per-embedder domain anchors, embedded once on first use."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._names = list(DOMAIN_DESCRIPTIONS)
        self._anchors: np.ndarray | None = None
        self._mapped: dict[str, int | None] = {}
        self._lock = threading.Lock()

    def _anchor_matrix(self) -> np.ndarray:
        with self._lock:
            if self._anchors is None:
                self._anchors = self._embedder.embed_documents(list(DOMAIN_DESCRIPTIONS.values()))
            return self._anchors

    def _anchor_of(self, domain: str) -> int | None:
        if domain in DOMAIN_DESCRIPTIONS:
            return self._names.index(domain)
        if domain not in self._mapped:
            word = self._embedder.embed_documents([domain.replace("-", " ")])[0]
            similarity = self._anchor_matrix() @ word
            best = int(np.argmax(similarity))
            self._mapped[domain] = best if similarity[best] >= SAME_DOMAIN else None
        return self._mapped[domain]

    def classify(self, query: str) -> list[tuple[str, float]]:
        """Every described domain with the query's similarity to it, best first."""
        scores = self.scores(self._embedder.embed_query(query))
        return sorted(
            zip(self._names, scores.tolist(), strict=True), key=lambda pair: pair[1], reverse=True
        )

    def may_be_in(self, query: str, domain: str) -> bool | None:
        """Whether `query` is about `domain`; None for a domain no description covers."""
        return self.in_domain(domain, self.scores(self._embedder.embed_query(query)))

    def scores(self, query_vector: Vector) -> np.ndarray:
        """Similarity of an already embedded query to each described domain (in
        `DOMAIN_DESCRIPTIONS` order): for callers that hold the vector and ask many times."""
        return np.asarray(self._anchor_matrix() @ query_vector)

    def in_domain(self, domain: str, domain_scores: np.ndarray) -> bool | None:
        """`may_be_in` for a query whose `scores` are already known."""
        anchor = self._anchor_of(domain)
        if anchor is None:
            return None
        own = float(domain_scores[anchor])
        return own >= MIN_SIMILARITY and own >= float(domain_scores.max()) - MARGIN
