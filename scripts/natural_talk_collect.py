"""Headline numbers of one checkout, as JSON: run by `scripts/natural_talk_report.py` with the
checkout's own Python (its `.venv`), inside the checkout, so the agent, the reader and the
earlier evaluations measured are the checkout's own.

The harnesses that an older checkout lacks (natural conversations, ShopSim, acts) come from
the `nt_harness` package the report script writes into a temporary folder and puts on
PYTHONPATH: copies of the current harness modules with their imports pointed at each other,
plus the current natural sets and the ShopSim listing mapping. Every section runs on its own:
one that fails (a harness the checkout cannot serve, an API that changed) is recorded as an
error and the others still run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

Section = Callable[[argparse.Namespace], dict[str, Any]]


def _rate(passed: int, total: int) -> list[int]:
    return [int(passed), int(total)]


@contextmanager
def _agent(catalog: Path | None = None, mapping: Path | None = None) -> Iterator[Any]:
    """The checkout's agent over a fresh home: the demo catalog or `catalog`, vectors through
    the configured home's embedding cache (what `cartwise eval dialogue` builds)."""
    from cartwise.agent.deps import create_deps
    from cartwise.catalog.demo import ensure_catalog
    from cartwise.catalog.pipeline import ingest_file
    from cartwise.embedding import create_embedder
    from cartwise.embedding.cache import CachedEmbedder, cache_path
    from cartwise.settings import get_settings

    settings = get_settings()
    model = create_embedder(settings.embedder, settings)
    documents = CachedEmbedder(model, cache_path(settings.home))
    try:
        with tempfile.TemporaryDirectory(prefix="cartwise-natural-talk-") as home:
            scoped = settings.model_copy(
                update={"cartwise_home": Path(home), "store_backend": "sqlite", "engine": "rules"}
            )
            deps = create_deps(scoped, embedder=model)
            try:
                if catalog is None:
                    ensure_catalog(scoped, deps.recall, documents, progress=False)
                else:
                    ingest_file(
                        catalog,
                        settings=scoped,
                        service=deps.recall,
                        embedder=documents,
                        fmt="jsonl",
                        mapping=mapping,
                        progress=False,
                    )
                yield deps
            finally:
                deps.close()
    finally:
        documents.close()


def _run_turn(deps: Any) -> Callable[[str, str, str], Any]:
    from cartwise.agent.run import run_agent

    async def run_turn(user: str, thread: str, message: str) -> dict[str, Any]:
        result = await run_agent(deps, user=user, thread=thread, message=message)
        return dict(result.model_dump(mode="json"))

    return run_turn


def natural(args: argparse.Namespace) -> dict[str, Any]:
    from nt_harness.natural import evaluate_natural
    from nt_harness.natural_set import load_natural

    sets = {
        "shared-dev": args.data / "eval" / "natural_dev.jsonl",
        "dev": args.harness / "natural_dev.jsonl",
        "test": args.harness / "natural_test.jsonl",
    }
    out: dict[str, Any] = {}
    with _agent() as deps:
        run_turn = _run_turn(deps)
        for name, path in sets.items():
            if not path.is_file():
                out[name] = {"error": f"{path} is absent"}
                continue
            conversations = load_natural(path)[: args.natural_limit]
            report = asyncio.run(evaluate_natural(run_turn, conversations, name=name))
            out[name] = {
                "conversations": _rate(report.conversations.passed, report.conversations.total),
                "check_objects": _rate(report.check_objects.passed, report.check_objects.total),
                "turns": _rate(report.turns.passed, report.turns.total),
                "seconds": round(report.seconds, 1),
            }
    return out


def _score(score: Any) -> dict[str, Any]:
    return {
        "target_shown": _rate(score.target_shown.hits, score.target_shown.total),
        "target_first": _rate(score.target_first.hits, score.target_first.total),
        "within_stated": _rate(score.within_stated.hits, score.within_stated.total),
        "within_upper": _rate(score.within_upper.hits, score.within_upper.total),
    }


def shopsim(args: argparse.Namespace) -> dict[str, Any]:
    from nt_harness.shopsim import ShopSimAgent, Shown, evaluate_shopsim
    from nt_harness.shopsim_tasks import load_tasks, sample

    listings = args.data / "shopsim" / "products.jsonl"
    tasks = load_tasks(args.data / "shopsim" / "tasks_dev.jsonl")
    out: dict[str, Any] = {"sample": args.shopsim_sample}
    with _agent(listings, args.harness / "shopsim_listings.yml") as deps:

        def bare_search(text: str, k: int) -> list[Any]:
            hits = deps.recall.search(text, k=k, profile="")
            return [Shown(h.product.item_id, h.product.price_base) for h in hits.results]

        agent = ShopSimAgent(
            run_turn=_run_turn(deps),
            bare_search=bare_search,
            depth=deps.settings.agent_max_picks,
        )
        for mode in ("single", "multi"):
            pool = tasks if mode == "single" else [t for t in tasks if t.instruction_simple]
            for split in ("dev", "test"):
                chosen = sample(pool, split, args.shopsim_sample)
                report = asyncio.run(evaluate_shopsim(agent, chosen, mode=mode, split=split))
                out[f"{mode}:{split}"] = {
                    "tasks": report.tasks,
                    "seconds_per_task": round(report.seconds / max(report.tasks, 1), 2),
                    "agent": _score(report.agent),
                    "bare": _score(report.bare),
                    "bare_opening": _score(report.bare_opening),
                    "outcomes": report.outcomes,
                }
    return out


def acts(args: argparse.Namespace) -> dict[str, Any]:
    from nt_harness.acts import (
        acts_split_path,
        load_labelled,
        load_mg_shopdial,
        macro_f1,
        score_mg_shopdial,
        score_split,
    )

    from cartwise.embedding import create_embedder
    from cartwise.settings import get_settings
    from cartwise.understanding.acts import create_act_classifier

    settings = get_settings()
    classifier = create_act_classifier(create_embedder(settings.embedder, settings))
    out: dict[str, Any] = {}
    for split in ("dev", "test"):
        path = acts_split_path(split)
        score = score_split(load_labelled(path), classifier.acts, split=split)
        out[split] = {
            "exact": _rate(score.exact, score.utterances),
            "macro_f1": round(macro_f1(score.per_act.values()), 3),
        }
    source = args.data / "memory" / "mg_shopdial" / "MGShopDial.json"
    if source.is_file():
        utterances, wizard = load_mg_shopdial(source)
        mg = score_mg_shopdial(
            utterances, classifier.scores, classifier.policy.decide, wizard_skipped=wizard
        )
        out["mg_shopdial"] = {
            "accuracy": _rate(mg.correct, mg.scored),
            "macro_f1": round(macro_f1(mg.per_class.values()), 3),
            "left_out": mg.shopper_utterances - mg.scored,
        }
    return out


def dialogue(args: argparse.Namespace) -> dict[str, Any]:
    from cartwise.commands.eval_dialogue import dialogue_agent, first_turn_not_carried
    from cartwise.eval import catalog_scope
    from cartwise.eval.dialogue import evaluate_dialogue
    from cartwise.eval.dialogue_set import dialogue_path, load_conversations

    out: dict[str, Any] = {}
    with _agent() as deps:
        agent = dialogue_agent(deps)
        for split in ("dev", "test"):
            report = evaluate_dialogue(agent, load_conversations(dialogue_path(split)), split=split)
            scope = catalog_scope.evaluate(
                catalog_scope.load_requests(catalog_scope.scope_path(split)),
                lambda text: first_turn_not_carried(deps, text),
                split=split,
            )
            out[split] = {
                "conversations": _rate(report.conversations_passed, report.conversations),
                "not_carried_precision": round(scope.precision, 3),
                "not_carried_recall": round(scope.recall, 3),
            }
    return out


def understanding(args: argparse.Namespace) -> dict[str, Any]:
    from cartwise.eval.understanding import score_dev_set
    from cartwise.eval.understanding_dataset import load_dev_set
    from cartwise.settings import get_settings
    from cartwise.understanding import create_engine

    engine = create_engine(get_settings())
    out: dict[str, Any] = {}
    for split in ("dev", "test"):
        current = args.harness / f"understanding_{split}.jsonl"
        try:  # the current cases when this checkout can read them, else its own
            cases, source = load_dev_set(current, split=split), "current"
        except Exception:
            cases, source = load_dev_set(None, split=split), "own"
        scores = score_dev_set(engine, cases)
        out[split] = {
            "cases": scores.cases,
            "cases_from": source,
            "polarity_accuracy": round(scores.polarity_accuracy, 3),
            "dedup_key_f1": round(scores.dedup_key_f1, 3),
            "slot_accuracy": round(scores.slot_accuracy, 3),
        }
    return out


def specs(args: argparse.Namespace) -> dict[str, Any]:
    from cartwise.eval.specs import evaluate_specs

    report = evaluate_specs(args.data / "catalogs", splits=("dev", "test"), timed_listings=200)
    out: dict[str, Any] = {}
    for group in (report.listings, report.requests):
        for scores in group:
            total = scores.overall()
            out[scores.name] = {
                "precision": round(total.precision, 3),
                "recall": round(total.recall, 3),
            }
    return out


def retrieval(args: argparse.Namespace) -> dict[str, Any]:
    from cartwise.embedding import create_embedder
    from cartwise.embedding.cache import CachedEmbedder, cache_path
    from cartwise.eval.retrieval import evaluate_retrieval
    from cartwise.settings import get_settings

    settings = get_settings()
    embedder = CachedEmbedder(
        create_embedder(settings.embedder, settings), cache_path(settings.home)
    )
    try:
        report = evaluate_retrieval(settings=settings, embedder=embedder, data_dir=args.data)
    finally:
        embedder.close()
    return {
        "zh_hybrid_mrr10": round(report.zh["hybrid"].mrr10, 3),
        "zh_hybrid_recall10": round(report.zh["hybrid"].recall, 3),
        "webmall_hybrid_recall20": round(report.webmall.overall["hybrid"], 3),
    }


def domain(args: argparse.Namespace) -> dict[str, Any]:
    from cartwise.catalog.domain_classifier import DomainClassifier
    from cartwise.embedding import create_embedder
    from cartwise.eval.domains import evaluate, load_split
    from cartwise.settings import get_settings

    settings = get_settings()
    embedder = create_embedder(settings.embedder, settings)
    out: dict[str, Any] = {}
    for split in ("dev", "test"):
        rows, skipped = load_split(split, args.data / "nlu" / "taobao_queries" / "queries.txt")
        scores = evaluate(DomainClassifier(embedder), embedder, rows)["all"]
        out[split] = {
            "accuracy": _rate(scores.correct, scores.rows),
            "wrong_domain_misses": len(scores.misses),
            "skipped": skipped,
        }
    return out


SECTIONS: dict[str, Section] = {
    "natural": natural,
    "shopsim": shopsim,
    "acts": acts,
    "dialogue": dialogue,
    "understanding": understanding,
    "specs": specs,
    "retrieval": retrieval,
    "domain": domain,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--harness", type=Path, required=True, help="nt_harness's data folder.")
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--label", default="")
    parser.add_argument("--only", default=",".join(SECTIONS), help="Comma-separated sections.")
    parser.add_argument("--shopsim-sample", type=int, default=200)
    parser.add_argument("--natural-limit", type=int, default=None)
    args = parser.parse_args()
    chosen = args.only.split(",")
    results: dict[str, Any] = {"label": args.label}
    if set(chosen) != set(SECTIONS) and args.out.is_file():
        # A partial run updates its sections and keeps the others of the last run.
        results = json.loads(args.out.read_text(encoding="utf-8")) | results
    for name in chosen:
        started = time.perf_counter()
        print(f"[{args.label}] {name}…", file=sys.stderr, flush=True)
        try:
            results[name] = SECTIONS[name](args)
        except Exception as exc:  # one section's failure is recorded; the others still run
            traceback.print_exc()
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
        results.setdefault("seconds", {})[name] = round(time.perf_counter() - started, 1)
        args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    print(f"[{args.label}] wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
