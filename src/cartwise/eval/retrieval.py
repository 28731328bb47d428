"""Retrieval evaluation on the shared sets: BM25 vs dense vs hybrid, and the user-tower A/B.

- zh: `eval/zh_query_title_dev.jsonl` (real Taobao queries) over `catalogs/zh_titles_corpus.jsonl`;
  gold = every corpus id whose title equals a gold title. MRR@10 and recall@10.
- webmall: `eval/webmall_tasks_dev.jsonl` over the four WebMall shops ingested as platforms
  webmall_1..4 (item_id = the CSV ID); gold = (shop, csv_ID). Recall@20 per task category.
- user-tower A/B on the webmall tasks: the same searches with β = 0 and β = 0.15 and a like
  profile attached. Two profiles, so the result cannot only flatter the user tower:
  *aligned* (the brands and shop categories of the task's own gold offers — a shopper whose
  likes match what they are looking for) and *unrelated* (the aligned profile of another task
  — likes that have nothing to do with this search). A useful β gains on the first and costs
  little on the second.

Every search goes through `RecallService`, the exact code path the app uses.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cartwise.catalog.product import Product
from cartwise.catalog.specs import extract_listing_specs
from cartwise.embedding.base import Embedder
from cartwise.embedding.memo import QueryMemo
from cartwise.recall.modes import SearchMode
from cartwise.recall.service import RecallService
from cartwise.recall.spec_request import read_spec_request
from cartwise.recall.spec_search import SPEC_DEPTH, search_with_specs
from cartwise.settings import Settings

MODES: tuple[SearchMode, ...] = ("lexical", "dense", "hybrid")
SPECS_MODE = "hybrid_specs"
"""Hybrid search of the request's words with its specs as filters and sorts, and a product
URL resolved to its specs (`recall/spec_request.py`); on both sets, so a spec filter that
costs the Chinese queries shows."""
WEBMALL_MODES: tuple[str, ...] = (*MODES, SPECS_MODE)
MODE_LABELS = {
    "lexical": "BM25 only",
    "dense": "dense only",
    "hybrid": "hybrid",
    SPECS_MODE: "hybrid + specs",
}
AB_BETAS = (0.0, 0.15)
_EMBED_BATCH = 256

Progressor = Callable[[str, int], Callable[[int], None]]
"""(label, total) → advance(n): a progress bar factory (rich in the CLI, silent in tests)."""


EVAL_QUERY_MEMO_SIZE = 4096
"""Larger than every evaluation set, so no query is embedded twice."""


class ModeScores(BaseModel):
    """Metrics of one retriever on one set."""

    mrr10: float = 0.0
    recall: float = 0.0
    """recall@10 (zh) or recall@20 (webmall)."""


class WebmallScores(BaseModel):
    overall: dict[str, float] = Field(default_factory=dict)
    """mode → mean recall@20 over tasks with resolved gold offers."""
    by_category: dict[str, dict[str, float]] = Field(default_factory=dict)
    """category → mode → recall@20."""
    tasks: int = 0


class ABScores(BaseModel):
    """recall@20 with β = 0 vs β = 0.15, per profile kind and retriever."""

    recall: dict[str, dict[str, dict[str, float]]] = Field(default_factory=dict)
    """profile kind (aligned|unrelated) → mode (dense|hybrid) → str(β) → recall@20."""
    tasks: int = 0


class RetrievalReport(BaseModel):
    embedder: str
    zh: dict[str, ModeScores] = Field(default_factory=dict)
    zh_queries: int = 0
    zh_corpus: int = 0
    """Titles searched over (the full corpus unless a limit was given)."""
    webmall: WebmallScores = Field(default_factory=WebmallScores)
    ab: ABScores = Field(default_factory=ABScores)
    seconds: float = 0.0


def reciprocal_rank(ranked: Sequence[str], gold: set[str], k: int) -> float:
    for position, key in enumerate(ranked[:k], start=1):
        if key in gold:
            return 1.0 / position
    return 0.0


def recall_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    return len(gold.intersection(ranked[:k])) / len(gold) if gold else 0.0


def _jsonl(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _silent(_label: str, _total: int) -> Callable[[int], None]:
    return lambda _n: None


def fill(
    service: RecallService,
    products: Sequence[Product],
    embedder: Embedder,
    advance: Callable[[int], None],
) -> None:
    """Upsert products not in the index as they are now (an eval home is reused between
    runs; a product re-read with new specs is written again, its vector from the cache)."""
    missing = [p for p in products if service.get(p.key) != p]
    advance(len(products) - len(missing))
    for start in range(0, len(missing), _EMBED_BATCH):
        batch = missing[start : start + _EMBED_BATCH]
        service.upsert(batch, embedder.embed_documents([p.embedding_text() for p in batch]))
        advance(len(batch))


def zh_catalog(
    data_dir: Path, *, corpus_limit: int | None = None
) -> tuple[list[Product], list[tuple[str, set[str]]]]:
    """The Chinese title corpus as products, and the queries with their gold ids.

    `corpus_limit` keeps every gold title plus the first distractors in file order up to that
    many products (for slow machines: embedding the full corpus is the long pole)."""
    rows = _jsonl(data_dir / "catalogs" / "zh_titles_corpus.jsonl")
    products = [
        Product(
            platform="zh",
            item_id=str(r["id"]),
            title=str(r["title"]),
            price=0.0,
            # As ingest would: the spec path filters on them ("17寸", "500ml" in a query).
            specs=extract_listing_specs(str(r["title"]), {}),
        )
        for r in rows
        if str(r["title"]).strip()
    ]
    if corpus_limit is not None and corpus_limit < len(products):
        gold_titles = {
            str(t).strip()
            for row in _jsonl(data_dir / "eval" / "zh_query_title_dev.jsonl")
            for t in row["gold_titles"]  # type: ignore[attr-defined]
        }
        gold_products = [p for p in products if p.title in gold_titles]
        others = [p for p in products if p.title not in gold_titles]
        products = gold_products + others[: max(0, corpus_limit - len(gold_products))]
    ids_by_title: dict[str, set[str]] = {}
    for product in products:
        ids_by_title.setdefault(product.title, set()).add(f"zh:{product.item_id}")
    queries = []
    for row in _jsonl(data_dir / "eval" / "zh_query_title_dev.jsonl"):
        gold = set().union(*(ids_by_title.get(str(t).strip(), set()) for t in row["gold_titles"]))  # type: ignore[attr-defined]
        if gold:
            queries.append((str(row["query"]), gold))
    return products, queries


def score_zh(
    service: RecallService, queries: Sequence[tuple[str, set[str]]], advance: Callable[[int], None]
) -> dict[str, ModeScores]:
    rankings: dict[str, Callable[[str], list[str]]] = {
        mode: _mode_ranking(service, mode, 10) for mode in MODES
    }
    rankings[SPECS_MODE] = lambda query: spec_ranking(service, query, 10)
    scores: dict[str, ModeScores] = {}
    for name, rank in rankings.items():
        rrs, recalls = [], []
        for query, gold in queries:
            ranked = rank(query)
            rrs.append(reciprocal_rank(ranked, gold, 10))
            recalls.append(recall_at(ranked, gold, 10))
            advance(1)
        scores[name] = ModeScores(mrr10=float(np.mean(rrs)), recall=float(np.mean(recalls)))
    return scores


def _mode_ranking(service: RecallService, mode: SearchMode, k: int) -> Callable[[str], list[str]]:
    return lambda query: [h.product.key for h in service.search(query, k=k, mode=mode).results]


class WebmallTask(BaseModel):
    text: str
    category: str
    gold: set[str]


def webmall_tasks(data_dir: Path, known: Callable[[str], bool]) -> list[WebmallTask]:
    """Tasks with at least one gold offer present in the ingested shops."""
    tasks = []
    for row in _jsonl(data_dir / "eval" / "webmall_tasks_dev.jsonl"):
        gold = {
            f"webmall_{a['shop_id']}:{a['csv_ID']}"
            for a in row.get("answers", [])  # type: ignore[attr-defined]
            if isinstance(a, dict) and a.get("csv_ID") is not None
        }
        gold = {key for key in gold if known(key)}
        if gold:
            tasks.append(
                WebmallTask(text=str(row["task"]), category=str(row["category"]), gold=gold)
            )
    return tasks


def spec_ranking(service: RecallService, text: str, k: int) -> list[str]:
    """The "hybrid + specs" ranking: the app's spec path, from the raw request text."""
    request = read_spec_request(service, text)
    response = search_with_specs(
        service, request.query, request.specs, k=k, depth=SPEC_DEPTH * k, prefer=request.prefer
    )
    return [hit.product.key for hit in response.results]


def score_webmall(
    service: RecallService, tasks: Sequence[WebmallTask], advance: Callable[[int], None]
) -> WebmallScores:
    per_task: dict[str, list[tuple[str, float]]] = {mode: [] for mode in WEBMALL_MODES}
    for mode in MODES:
        for task in tasks:
            ranked = [h.product.key for h in service.search(task.text, k=20, mode=mode).results]
            per_task[mode].append((task.category, recall_at(ranked, task.gold, 20)))
            advance(1)
    for task in tasks:
        ranked = spec_ranking(service, task.text, 20)
        per_task[SPECS_MODE].append((task.category, recall_at(ranked, task.gold, 20)))
        advance(1)
    result = WebmallScores(tasks=len(tasks))
    for mode_name, values in per_task.items():
        result.overall[mode_name] = float(np.mean([v for _, v in values]))
        for category in sorted({c for c, _ in values}):
            result.by_category.setdefault(category, {})[mode_name] = float(
                np.mean([v for c, v in values if c == category])
            )
    return result


def like_profile(service: RecallService, gold: Iterable[str]) -> str:
    """A like-only profile from gold offers: their brands and the shops' category leaves."""
    phrases: list[str] = []
    for key in sorted(gold):
        product = service.get(key)
        if product is None:
            continue
        if product.brand:
            phrases.append(f"likes {product.brand}")
        leaf = product.category_raw.split(">")[-1].split(",")[0].strip()
        if leaf:
            phrases.append(f"likes {leaf}")
    return "; ".join(dict.fromkeys(phrases))


def score_ab(
    service: RecallService, tasks: Sequence[WebmallTask], advance: Callable[[int], None]
) -> ABScores:
    aligned = [like_profile(service, t.gold) for t in tasks]
    # Another task's likes, chosen deterministically and never the task's own category's.
    unrelated = [
        next(
            (
                aligned[j]
                for j in _rotation(i, len(tasks))
                if tasks[j].category != tasks[i].category
            ),
            aligned[(i + 1) % len(tasks)],
        )
        for i in range(len(tasks))
    ]
    result = ABScores(tasks=len(tasks))
    original_beta = service.beta
    try:
        for kind, profiles in (("aligned", aligned), ("unrelated", unrelated)):
            for mode in ("dense", "hybrid"):
                for beta in AB_BETAS:
                    service.beta = beta
                    recalls = []
                    for task, profile in zip(tasks, profiles, strict=True):
                        hits = service.search(task.text, k=20, mode=mode, profile=profile).results
                        recalls.append(recall_at([h.product.key for h in hits], task.gold, 20))
                        advance(1)
                    result.recall.setdefault(kind, {}).setdefault(mode, {})[str(beta)] = float(
                        np.mean(recalls)
                    )
    finally:
        service.beta = original_beta
    return result


def _rotation(start: int, n: int) -> list[int]:
    return [(start + offset) % n for offset in range(7, 7 + n)]


def rich_progress(console: Console) -> tuple[Progress, Progressor]:
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console,
    )  # fmt: skip

    def start(label: str, total: int) -> Callable[[int], None]:
        task = progress.add_task(label, total=total)
        return lambda n: progress.advance(task, n)

    return progress, start


def evaluate_retrieval(
    *,
    settings: Settings,
    embedder: Embedder,
    data_dir: Path,
    open_service: Callable[[Settings, Embedder], RecallService] = RecallService.open,
    webmall_reader: Callable[[Path, Settings], list[Product]] | None = None,
    progress: Progressor = _silent,
    zh_corpus_limit: int | None = None,
) -> RetrievalReport:
    """Run both sets and the A/B; indexes live under `<home>/eval/` and are reused."""
    started = time.perf_counter()
    report = RetrievalReport(embedder=embedder.name)
    # Each query goes through three retrievers and two betas: embed it once.
    embedder = QueryMemo(embedder, size=EVAL_QUERY_MEMO_SIZE)

    zh_products, zh_queries = zh_catalog(data_dir, corpus_limit=zh_corpus_limit)
    report.zh_corpus = len(zh_products)
    zh_service = open_service(
        settings.model_copy(
            update={
                "cartwise_home": settings.home / "eval" / f"zh_{len(zh_products)}",
                "index_backend": "faiss",
            }
        ),
        embedder,
    )
    try:
        fill(
            zh_service,
            zh_products,
            embedder,
            progress("zh corpus: embed + index", len(zh_products)),
        )
        report.zh = score_zh(
            zh_service, zh_queries, progress("zh queries", len(zh_queries) * len(WEBMALL_MODES))
        )
        report.zh_queries = len(zh_queries)
    finally:
        zh_service.close()

    if webmall_reader is None:
        from cartwise.eval.embedders import webmall_products

        webmall_reader = webmall_products
    shop_products = webmall_reader(data_dir, settings)
    shop_service = open_service(
        settings.model_copy(
            update={"cartwise_home": settings.home / "eval" / "webmall", "index_backend": "faiss"}
        ),
        embedder,
    )
    try:
        fill(
            shop_service,
            shop_products,
            embedder,
            progress("webmall shops: embed + index", len(shop_products)),
        )
        tasks = webmall_tasks(data_dir, lambda key: shop_service.get(key) is not None)
        report.webmall = score_webmall(
            shop_service, tasks, progress("webmall tasks", len(tasks) * len(WEBMALL_MODES))
        )
        report.ab = score_ab(shop_service, tasks, progress("user-tower A/B", len(tasks) * 8))
    finally:
        shop_service.close()
    report.seconds = round(time.perf_counter() - started, 1)
    return report
