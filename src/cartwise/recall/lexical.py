"""BM25 over product texts (bm25s), with a tokenizer for Chinese and English titles.

Dense vectors blur model numbers ("5900X" and "5950X" embed almost identically) and short
Chinese queries; BM25 on the right tokens keeps them apart. Tokens:
- Chinese runs: jieba search-mode words plus character bigrams (bigrams catch brand and
  product words jieba's dictionary does not know; jieba catches the common words).
- Latin runs: lowercase words; a model number ("wh-1000xm5", "5900x", "xg43uq") is kept whole
  and also split at hyphens and letter/digit boundaries, so "WH-1000XM5" matches a title that
  writes "WH1000XM5" or "1000XM5".

The index is rebuilt lazily from the product index's rows (the one source of truth), and a
token cache keyed by text hash, persisted in CARTWISE_HOME, keeps that rebuild cheap. Where
the product index names the catalog state it holds (`SavedLexical`), the built BM25 is also
saved under that name (ingest does it at its end) and the next process loads it, memory-mapped,
instead of reading and tokenising every product; its hits are read from the index by key.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from cartwise.catalog.product import Product
from cartwise.log import logger
from cartwise.recall.indexes.base import SearchFilters
from cartwise.sharing import let_others_run
from cartwise.text import HAN_RUN, jieba_segmenter

_LATIN_TOKEN = re.compile(r"[a-z0-9]+(?:[-_./+][a-z0-9]+)*")
_LETTER_DIGIT_SPLIT = re.compile(r"[a-z]+|[0-9]+")
_HAS_LETTER = re.compile(r"[a-z]")
_HAS_DIGIT = re.compile(r"[0-9]")
_SEPARATORS = re.compile(r"[-_./+]")
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "the",
        "of",
        "for",
        "with",
        "to",
        "in",
        "on",
        "at",
        "by",
        "from",
        "or",
        "is",
        "are",
        "be",
        "this",
        "that",
        "all",
        "any",
        "find",
        "offers",
        "offer",
        "me",
        "i",
        "my",
        "need",
        "want",
        "please",
        "buy",
    ]
)


def _jieba_words(run: str) -> list[str]:
    return [w for w in jieba_segmenter().lcut_for_search(run) if w.strip()]


def model_tokens(text: str) -> list[str]:
    """Model-number-like tokens (letters and digits mixed, ≥ 3 chars), lowercase, with
    separators removed: "WH-1000XM5" and "WH1000XM5" are the same model."""
    return [
        _SEPARATORS.sub("", token)
        for token in _LATIN_TOKEN.findall(text.lower())
        if len(token) >= 3 and _HAS_LETTER.search(token) and _HAS_DIGIT.search(token)
    ]


def model_forms(text: str) -> set[str]:
    """Every model number a title contains: whole tokens and their hyphen-separated parts
    ("KS-A60" offers `ksa60` and `a60`), separators removed, lowercase."""
    forms: set[str] = set()
    for token in _LATIN_TOKEN.findall(text.lower()):
        for candidate in (token, *_SEPARATORS.split(token)):
            if (
                len(candidate) >= 3
                and _HAS_LETTER.search(candidate)
                and _HAS_DIGIT.search(candidate)
            ):
                forms.add(_SEPARATORS.sub("", candidate))
    return forms


def tokenize(text: str) -> list[str]:
    """Tokens for BM25: see the module docstring."""
    lowered = text.lower()
    tokens: list[str] = []
    for run in HAN_RUN.findall(lowered):
        tokens.extend(_jieba_words(run))
        tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
        if len(run) == 1:
            tokens.append(run)
    for word in _LATIN_TOKEN.findall(HAN_RUN.sub(" ", lowered)):
        if word in _STOPWORDS:
            continue
        tokens.append(word)
        parts = _SEPARATORS.split(word)
        if len(parts) > 1:
            tokens.extend(p for p in parts if p)
            tokens.append("".join(parts))
        for part in parts:
            pieces = _LETTER_DIGIT_SPLIT.findall(part)
            if len(pieces) > 1:
                tokens.extend(p for p in pieces if len(p) > 1 or p.isdigit())
    return tokens


def lexical_text(product: Product) -> str:
    """What BM25 indexes: title, brand, the platform's category and salient attributes."""
    attrs = " ".join(
        v for k in ("material", "color", "style", "model") for v in product.attributes.get(k, [])
    )
    return " ".join(p for p in (product.title, product.brand, product.category_raw, attrs) if p)


class _TokenCache:
    """text hash → tokens, persisted as JSON (temp file + os.replace). Read on first use: a
    process that loads the saved BM25 never rebuilds it, and parsing the demo catalog's
    cache (18k texts' tokens) cost ~0.15 s of every one-shot `cartwise ask`."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._loaded: dict[str, list[str]] | None = None
        self._dirty = False

    @property
    def _tokens(self) -> dict[str, list[str]]:
        if self._loaded is None:
            self._loaded = {}
            if self._path is not None and self._path.is_file():
                try:
                    self._loaded = json.loads(self._path.read_text(encoding="utf-8"))
                except (OSError, ValueError) as exc:
                    logger.warning("ignoring unreadable token cache %s: %s", self._path, exc)
        return self._loaded

    def tokens(self, text: str) -> list[str]:
        digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
        cached = self._tokens.get(digest)
        if cached is None:
            cached = self._tokens[digest] = tokenize(text)
            self._dirty = True
        return cached

    def save(self, live_texts: Iterable[str]) -> None:
        if self._path is None or not self._dirty:
            return
        live = {hashlib.blake2b(t.encode(), digest_size=12).hexdigest() for t in live_texts}
        kept = {h: t for h, t in self._tokens.items() if h in live}
        self._path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self._path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(kept, handle, ensure_ascii=False)
        os.replace(tmp, self._path)
        self._loaded, self._dirty = kept, False


@dataclass(frozen=True)
class SavedLexical:
    """Where a built BM25 is saved, and what it is saved for."""

    directory: Path
    """Saved indexes go in `<directory>/bm25-<state>/` (one per catalog state)."""
    state: Callable[[], str | None]
    """The catalog state the product index holds now (None: not known, nothing is saved)."""
    products: Callable[[Sequence[str]], list[Product | None]]
    """Products by key, in order, None for a key no longer stored (a loaded BM25's hits,
    read a chunk per call: one lock taken per chunk, not per hit)."""

    def path(self, state: str) -> Path:
        return self.directory / f"{_SAVED_PREFIX}{state.replace(':', '-')}"


_SAVED_PREFIX = "bm25-"
_REMEMBERED_SCORES = 8
_READ_CHUNK = 128
"""Hits read from the index per call while a search walks them best first."""


class _Documents(Protocol):
    """The products behind a BM25's document positions."""

    def __len__(self) -> int: ...

    def many(self, positions: Sequence[int], /) -> list[Product | None]:
        """The products at `positions`, in order (None: deleted since the BM25 was built)."""
        ...


Passing = Callable[[SearchFilters, Sequence[str]], "np.ndarray[Any, np.dtype[np.bool_]] | None"]
"""`ColumnFilteredIndex.passing`: which of a list of keys a filter may accept."""


class _BuiltProducts:
    """A BM25 built in this process: its documents are the products it was built from."""

    def __init__(self, products: list[Product]) -> None:
        self._products = products

    def __len__(self) -> int:
        return len(self._products)

    def many(self, positions: Sequence[int]) -> list[Product | None]:
        return [self._products[p] for p in positions]


class _ProductsByKey:
    """A loaded BM25's documents: their keys, the products read from the index when hit."""

    def __init__(
        self, keys: list[str], products: Callable[[Sequence[str]], list[Product | None]]
    ) -> None:
        self._keys, self._products = keys, products

    def __len__(self) -> int:
        return len(self._keys)

    def many(self, positions: Sequence[int]) -> list[Product | None]:
        return self._products([self._keys[p] for p in positions])


class _Platforms:
    """Each document's platform (the part of its key before ":"), as codes a search
    narrows by at once: every per-platform search of a turn otherwise walked the other
    platforms' hits one by one (a pasted message scores most of the catalog above zero)."""

    def __init__(self, keys: Sequence[str]) -> None:
        names = [key.partition(":")[0] for key in keys]
        self._codes = {name: code for code, name in enumerate(dict.fromkeys(names))}
        self._rows = np.fromiter((self._codes[n] for n in names), np.int32, len(names))

    def allowed(self, platforms: Sequence[str]) -> np.ndarray[Any, np.dtype[np.bool_]] | None:
        """The documents on `platforms` (None: every document)."""
        if not platforms:
            return None
        wanted = [self._codes[p] for p in platforms if p in self._codes]
        return np.isin(self._rows, np.asarray(wanted, dtype=np.int32))


class LexicalIndex:
    """BM25 over the products `source()` yields; rebuilt after `invalidate()`."""

    def __init__(
        self,
        source: Callable[[], Iterable[Product]],
        *,
        cache_path: Path | None = None,
        saved: SavedLexical | None = None,
    ) -> None:
        self._source = source
        self._cache = _TokenCache(cache_path)
        self._saved = saved
        self._lock = threading.Lock()
        self._products: _Documents = _BuiltProducts([])
        self._keys: list[str] = []
        self._platforms = _Platforms([])
        self._retriever: Any = None
        self._scores: dict[tuple[str, ...], np.ndarray[Any, np.dtype[np.float32]]] = {}
        self._stale = True

    def invalidate(self) -> None:
        """The product index changed: rebuild before the next search."""
        with self._lock:
            self._stale = True
            self._scores = {}

    def _ensure_built(self) -> None:
        if not self._stale:
            return
        self._scores = {}
        state = self._saved.state() if self._saved is not None else None
        if state is not None and self._load(state):
            return
        import bm25s

        products = list(self._source())
        texts = [lexical_text(p) for p in products]
        corpus = [self._cache.tokens(t) or ["\x00empty"] for t in texts]
        retriever: Any = None
        if corpus:
            retriever = bm25s.BM25()
            retriever.index(corpus, show_progress=False)
        self._cache.save(texts)
        self._products, self._retriever, self._stale = _BuiltProducts(products), retriever, False
        self._keys = [p.key for p in products]
        self._platforms = _Platforms(self._keys)
        if state is not None and self._saved is not None and self._saved.state() == state:
            self._save(self._saved.path(state))

    def persist(self) -> None:
        """Build now and save it for the next process (ingest calls this at its end)."""
        with self._lock:
            self._ensure_built()

    def _load(self, state: str) -> bool:
        import bm25s

        assert self._saved is not None
        path = self._saved.path(state)
        if not path.is_dir():
            return False
        try:
            keys = json.loads((path / "keys.json").read_text(encoding="utf-8"))
            retriever = bm25s.BM25.load(path, mmap=True) if keys else None
        except (OSError, ValueError, KeyError) as exc:
            logger.warning("not using the saved BM25 in %s: %s", path, exc)
            return False
        self._keys, self._retriever, self._stale = keys, retriever, False
        self._products = _ProductsByKey(keys, self._saved.products)
        self._platforms = _Platforms(keys)
        return True

    def _save(self, path: Path) -> None:
        """Best effort (a BM25 that cannot be saved is built again by the next process);
        the directory appears whole or not at all, and older states' are removed."""
        if path.exists():
            return
        scratch = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
        try:
            if self._retriever is not None:
                self._retriever.save(scratch, show_progress=False)
            (scratch / "keys.json").write_text(json.dumps(self._keys), encoding="utf-8")
            os.rename(scratch, path)
        except OSError as exc:
            shutil.rmtree(scratch, ignore_errors=True)
            logger.warning("could not save the BM25 to %s: %s", path, exc)
            return
        for older in path.parent.glob(f"{_SAVED_PREFIX}*"):
            if older != path:
                shutil.rmtree(older, ignore_errors=True)

    def _scores_of(self, tokens: tuple[str, ...]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """Every document's BM25 score for `tokens` (read-only), remembered for the latest few
        queries until the BM25 changes: a turn searches each platform with the same text, and
        a pasted message's hundreds of tokens cost milliseconds each time they are scored."""
        scores = self._scores.pop(tokens, None)
        if scores is None:
            scores = np.asarray(self._retriever.get_scores(list(tokens)), dtype=np.float32)
            scores.flags.writeable = False
            if len(self._scores) >= _REMEMBERED_SCORES:
                del self._scores[next(iter(self._scores))]
        self._scores[tokens] = scores
        return scores

    def search(
        self,
        query: str,
        k: int,
        filters: SearchFilters | None = None,
        *,
        passing: Passing | None = None,
    ) -> list[tuple[Product, float]]:
        """Top-k (product, BM25 score > 0) among products that pass `filters` exactly.
        `passing` (the product index's filter columns, when it has them) marks the documents
        `filters` may accept, so the walk reads no product it would reject: a pasted message
        scores most of the catalog above zero, and a strict filter (a budget, a size) then
        read and rejected thousands of products one by one."""
        with self._lock:
            self._ensure_built()
            if self._retriever is None or k <= 0:
                return []
            tokens = tuple(t for t in _query_tokens(query) if t in self._retriever.vocab_dict)
            if not tokens:
                return []
            scores = self._scores_of(tokens)
            products, keys = self._products, self._keys
            allowed = self._platforms.allowed(filters.platforms) if filters else None
        if passing is not None and filters is not None:
            narrowed = passing(filters, keys)
            if narrowed is not None:
                allowed = narrowed if allowed is None else allowed & narrowed
        hits: list[tuple[Product, float]] = []
        order = _descending_positive(scores, allowed)
        for start in range(0, len(order), _READ_CHUNK):
            if start:
                # A pasted essay scores most of the catalog: between chunks, a shopper who
                # has used far more than others lets them run (cartwise.sharing).
                let_others_run()
            chunk = order[start : start + _READ_CHUNK].tolist()
            for position, product in zip(chunk, products.many(chunk), strict=True):
                if product is None:  # deleted since the saved BM25 was built: the index moved on
                    continue
                if filters is None or filters.accepts(product):
                    hits.append((product, float(scores[position])))
                    if len(hits) == k:
                        return hits
        return hits


def _descending_positive(
    scores: np.ndarray[Any, np.dtype[np.float32]],
    allowed: np.ndarray[Any, np.dtype[np.bool_]] | None = None,
) -> np.ndarray[Any, np.dtype[np.intp]]:
    """Positions scoring above zero (and `allowed`), best first, ties by position."""
    candidates = scores > 0 if allowed is None else (scores > 0) & allowed
    positive = np.flatnonzero(candidates)
    return positive[np.lexsort((positive, -scores[positive]))]


@functools.lru_cache(maxsize=64)
def _query_tokens(query: str) -> tuple[str, ...]:
    """A query's tokens, remembered for the searches of one turn (one per platform, in
    parallel); process memory only, as the query vectors are."""
    return tuple(tokenize(query))
