"""How well `cartwise.catalog.domain_classifier` reads a query's domain, on hand-labelled queries.

Two splits in `eval/data/domains/`: `dev.tsv` (the classifier's constants were chosen on it)
and `test.tsv` (written and labelled before any tuning, never tuned on). A row is a query
written for the set, or a qid of the real Taobao queries in
`../shared/data/nlu/taobao_queries/queries.txt` whose text is read from there at eval time
(never committed); when that file is absent those rows are skipped and counted.

Each row lists every domain the query may be in, the most likely first. Reported:
- accuracy: the reading's primary domain is one of the row's domains;
- wrong-domain misses: a row with a domain missing from the reading's `possible` set — a hard
  dislike scoped to that domain would silently stop applying (goal: zero);
- the mean size of `possible` (what failing safe costs: a hard dislike scoped to one domain
  applies to queries of this many domains).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from cartwise.catalog.domain_classifier import DomainClassifier
from cartwise.embedding.base import Embedder

SPLITS = ("dev", "test")


@dataclass(frozen=True)
class LabelledQuery:
    source: str
    """`written` or `taobao`."""
    text: str
    domains: tuple[str, ...]
    """Every domain the query may be in, the most likely first."""


@dataclass
class DomainScores:
    """One split's results, overall and per source."""

    rows: int = 0
    correct: int = 0
    misses: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    """(query, its domains, the reading's possible domains) for every miss."""
    possible_total: int = 0
    skipped: int = 0
    """Taobao rows whose text was not available."""

    @property
    def accuracy(self) -> float:
        return self.correct / self.rows if self.rows else 0.0

    @property
    def mean_possible(self) -> float:
        return self.possible_total / self.rows if self.rows else 0.0


def load_split(split: str, taobao_queries: Path) -> tuple[list[LabelledQuery], int]:
    """The split's rows and how many Taobao rows were skipped (their text is absent)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
    text = resources.files("cartwise.eval").joinpath(f"data/domains/{split}.tsv").read_text("utf-8")
    taobao: dict[str, str] = {}
    if taobao_queries.is_file():
        for line in taobao_queries.read_text(encoding="utf-8").splitlines():
            qid, _, query = line.partition("\t")
            taobao[qid] = query
    rows: list[LabelledQuery] = []
    skipped = 0
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        source, ref, domains = line.split("\t")
        if source == "taobao" and ref not in taobao:
            skipped += 1
            continue
        query = taobao[ref] if source == "taobao" else ref
        rows.append(LabelledQuery(source, query, tuple(domains.split("|"))))
    return rows, skipped


def evaluate(
    scope: DomainClassifier, embedder: Embedder, rows: Sequence[LabelledQuery]
) -> dict[str, DomainScores]:
    """Scores overall (`all`) and per source."""
    scores = {"all": DomainScores()}
    for row in rows:
        reading = scope.read(row.text, embedder.embed_query(row.text))
        for key in ("all", row.source):
            score = scores.setdefault(key, DomainScores())
            score.rows += 1
            score.correct += reading.primary in row.domains
            score.possible_total += len(reading.possible)
            if any(d not in reading.possible for d in row.domains):
                score.misses.append((row.text, row.domains, tuple(sorted(reading.possible))))
    return scores
