"""`cartwise search`: the recall service from the command line (one query, or a script).

`--json` prints exactly `{"personalization": "active"|"inactive", "results": [...]}`;
`--script FILE` runs JSON lines `{"query", "platform", "k", "user", "mode"}` in one process
(the model and the index load once) and prints one JSON line per input line.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cartwise.commands.common import clean_errors
from cartwise.errors import InvalidInput
from cartwise.log import logger
from cartwise.recall.modes import SearchMode
from cartwise.settings import Settings, get_settings

if TYPE_CHECKING:
    from cartwise.embedding.base import Embedder
    from cartwise.memory.store import PreferenceStore
    from cartwise.recall.service import SearchResponse


def register(app: typer.Typer) -> None:
    app.command("search")(search)


class ScriptLine(BaseModel):
    """One line of a `--script` file."""

    model_config = ConfigDict(extra="forbid")

    query: str
    platform: list[str] = Field(default_factory=list)
    """One platform name or a list; empty means all."""
    k: int = Field(default=10, ge=1, le=200)
    user: str = ""
    """A user id: the like-only profile comes from that shopper's memory."""
    mode: SearchMode = "hybrid"

    @classmethod
    def parse(cls, text: str) -> ScriptLine:
        data = json.loads(text)
        if isinstance(data, dict) and isinstance(data.get("platform"), str):
            data["platform"] = [data["platform"]]
        return cls.model_validate(data)


class _Searcher:
    """Service, embedder and (lazily) the preference store, opened once per process."""

    def __init__(self, settings: Settings, stack: ExitStack) -> None:
        from cartwise.embedding import create_embedder
        from cartwise.recall.service import RecallService

        self.settings = settings
        self.embedder: Embedder = create_embedder(settings.embedder, settings)
        self.service = RecallService.open(settings, self.embedder)
        stack.callback(self.service.close)
        self._stack = stack
        self._store: PreferenceStore | None = None
        if self.service.count() == 0:
            self._ensure_catalog()

    def _ensure_catalog(self) -> None:
        """A fresh home gets the demo catalog, so the first search has something to find."""
        from cartwise.catalog.demo import ensure_catalog

        ensure_catalog(self.settings, self.service, self.embedder)

    def profile(self, user: str, query: str) -> str:
        if not user:
            return ""
        from cartwise.memory import create_preference_store
        from cartwise.memory.injector import build_user_profile

        if self._store is None:
            self._store = create_preference_store(self.settings, self.embedder)
            self._stack.callback(self._store.close)
        return build_user_profile(self._store, user, query, settings=self.settings)

    def run(self, line: ScriptLine) -> SearchResponse:
        from cartwise.recall.indexes.base import SearchFilters

        filters = SearchFilters(platforms=line.platform) if line.platform else None
        return self.service.search(
            line.query,
            k=line.k,
            filters=filters,
            profile=self.profile(line.user, line.query),
            mode=line.mode,
        )


def search(
    query: Annotated[str, typer.Argument(help="What to search for.")] = "",
    platform: Annotated[
        list[str] | None, typer.Option("--platform", "-p", help="Platform (repeatable).")
    ] = None,
    k: Annotated[int, typer.Option("--k", min=1, max=200, help="How many results.")] = 10,
    user: Annotated[str, typer.Option("--user", "-u", help="Personalize for this user.")] = "",
    mode: Annotated[str, typer.Option(help="hybrid, dense or lexical.")] = "hybrid",
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    script: Annotated[
        Path | None, typer.Option("--script", help="JSON lines of searches; one output line each.")
    ] = None,
) -> None:
    """Search the catalog (hybrid dense + BM25), optionally personalized for a user."""
    with clean_errors(), ExitStack() as stack:
        if script is None and not query.strip():
            raise InvalidInput("give a QUERY or --script FILE")
        if mode not in ("hybrid", "dense", "lexical"):
            raise InvalidInput(f"unknown mode {mode!r}: use hybrid, dense or lexical")
        lines = _read_script(script) if script is not None else None
        searcher = _Searcher(get_settings(), stack)
        if lines is not None:
            _run_script(searcher, lines)
            return
        request = ScriptLine(query=query, platform=platform or [], k=k, user=user, mode=mode)
        response = searcher.run(request)
        if as_json:
            typer.echo(json.dumps(response.as_json(), ensure_ascii=False))
        else:
            _print_table(response)


def _read_script(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read script {path}: {exc}") from exc


def _run_script(searcher: _Searcher, lines: list[str]) -> None:
    """Bad lines print an error object in their place; the rest still run."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            output = searcher.run(ScriptLine.parse(text)).as_json()
        except (ValueError, ValidationError, InvalidInput) as exc:
            logger.debug("script line %d refused: %s", number, exc)
            output = {"error": str(exc).splitlines()[0], "line": number}
        typer.echo(json.dumps(output, ensure_ascii=False))


def _print_table(response: SearchResponse) -> None:
    from rich.console import Console
    from rich.table import Table

    state = "active" if response.personalization else "inactive"
    table = Table(title=f"personalization: {state}")
    for column in ("platform", "item_id", "title", "brand", "price", "score", "query", "user"):
        table.add_column(column)
    for hit in response.results:
        p = hit.product
        table.add_row(
            p.platform,
            p.item_id,
            p.title,
            p.brand,
            f"{p.price:g} {p.currency}",
            f"{hit.score:.4f}",
            f"{hit.score_query:.3f}",
            f"{hit.score_user:.3f}",
        )
    Console().print(table)
