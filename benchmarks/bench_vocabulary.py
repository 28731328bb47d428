"""Vocabulary matcher benchmark: which Aho-Corasick library the one matcher is built on, and
what the matcher costs against the lexicon scanner it replaced, in the same run.

What is measured, exactly:
1. Build: an automaton over every spelling of the whole vocabulary (`cartwise.vocabulary`:
   taxonomy, attributes, colours, currencies, sizes, recipients, pets, safety, platforms,
   brands, gaps; plurals and hyphen variants included) with `ahocorasick_rs` and with
   `pyahocorasick`, median of BUILD_RUNS; memory as the resident-set growth of a fresh
   process that builds one of them (nothing else loaded but the spellings).
2. Raw search: every occurrence (overlaps included, what the matcher asks the library for)
   over real text — Taobao search queries (zh) and WebShop goals (en) from ../shared/data —
   folded as the matcher folds it.
3. End to end: `Matcher.find` (boundaries, longest-first choice, original offsets) over the
   same texts with each library, and, on the lexicon's own vocabulary (attributes, colours,
   sizes, platforms, product nouns, brands), the scanner the lexicon used before (a dict of
   forms by first character, longest first at each position — kept here as the baseline)
   against the matcher on both libraries.

Run: `python -m benchmarks.bench_vocabulary` (`make bench` runs it). Environment:
BENCH_VOCABULARY_TEXTS (20000 queries and 12000 goals at most), BENCH_VOCABULARY_BUILDS (5),
BENCH_VOCABULARY_RUNS (5 interleaved rounds of every search; medians reported).
Writes benchmarks/reports/vocabulary.md. Skips cleanly (exit 0, no report) when
../shared/data is absent.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import ahocorasick
import psutil
from rich.console import Console
from rich.progress import Progress

from cartwise.understanding.rules.lexicon import LEXICON_KINDS
from cartwise.vocabulary.matcher import Automaton, Matcher, RustAutomaton, plurals
from cartwise.vocabulary.surfaces import KINDS, NOUN_KINDS, surface_forms

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / ".." / "shared" / "data"
QUERIES = SHARED / "nlu" / "taobao_queries" / "queries.txt"
GOALS = SHARED / "nlu" / "webshop" / "human_goals.json"
REPORT = Path(__file__).resolve().parent / "reports" / "vocabulary.md"
TEXTS = int(os.environ.get("BENCH_VOCABULARY_TEXTS", "20000"))
BUILD_RUNS = int(os.environ.get("BENCH_VOCABULARY_BUILDS", "5"))
SEARCH_RUNS = int(os.environ.get("BENCH_VOCABULARY_RUNS", "5"))

console = Console(stderr=True)


class PyAutomaton:
    """`pyahocorasick` behind the matcher's `Automaton` protocol."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        for index, pattern in enumerate(patterns):
            self._automaton.add_word(pattern, (index, len(pattern)))
        self._automaton.make_automaton()

    def occurrences(self, text: str) -> Iterable[tuple[int, int, int]]:
        return [
            (index, last + 1 - size, last + 1) for last, (index, size) in self._automaton.iter(text)
        ]


LIBRARIES: dict[str, Callable[[Sequence[str]], Automaton]] = {
    "ahocorasick-rs": RustAutomaton,
    "pyahocorasick": PyAutomaton,
}


class FirstCharacterScanner:
    """The lexicon's scanner before the vocabulary matcher (the baseline): surface forms
    indexed by first character, the longest tried first at each position, ASCII word
    boundaries and the same plural rule."""

    def __init__(self, forms: dict[str, object], nouns: set[str]) -> None:
        self._variant_of: dict[str, str] = {}
        for surface in forms:
            variants = [surface]
            if " " in surface:
                variants += [surface.replace(" ", "-"), surface.replace(" ", "")]
            for variant in variants:
                self._variant_of.setdefault(variant, surface)
        self._by_first: dict[str, list[str]] = {}
        for variant in sorted(self._variant_of, key=len, reverse=True):
            self._by_first.setdefault(variant[0], []).append(variant)
        self._nouns = nouns

    def scan(self, text: str) -> list[tuple[int, int, str]]:
        lowered = text.lower()
        found: list[tuple[int, int, str]] = []
        position = 0
        while position < len(lowered):
            hit = self._match_at(lowered, position)
            if hit is None:
                position += 1
                continue
            found.append((position, hit[0], hit[1]))
            position = hit[0]
        return found

    def _match_at(self, text: str, start: int) -> tuple[int, str] | None:
        def word(char: str) -> bool:
            return char.isascii() and char.isalnum()

        candidates = self._by_first.get(text[start], ())
        if candidates and start > 0 and word(text[start - 1]) and word(text[start]):
            return None
        for variant in candidates:
            if not text.startswith(variant, start):
                continue
            end = start + len(variant)
            surface = self._variant_of[variant]
            if surface in self._nouns:
                for plural in plurals(variant):
                    after = start + len(plural)
                    if text.startswith(plural, start) and not (
                        after < len(text) and word(text[after])
                    ):
                        end = after
                        break
            if end < len(text) and word(text[end]) and word(variant[-1]):
                continue
            return end, surface
        return None


def load_texts() -> tuple[list[str], list[str]]:
    with QUERIES.open(encoding="utf-8") as lines:
        queries = [
            line.split("\t", 1)[-1].strip() for _, line in zip(range(TEXTS), lines, strict=False)
        ]
    goals = [str(g) for g in json.loads(GOALS.read_text(encoding="utf-8"))][: min(TEXTS, 12000)]
    return [q for q in queries if q], goals


def spellings(kinds: Sequence[str]) -> list[str]:
    """The automaton's patterns for `kinds`, exactly as the matcher builds them."""
    return Matcher(surface_forms(kinds), plural_kinds=NOUN_KINDS).spellings()  # type: ignore[arg-type]


def timed(run: Callable[[], object], repeat: int = 1) -> float:
    """Median seconds of `repeat` runs."""
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def memory_of(library: str) -> float:
    """MiB a fresh process grows by when it builds the whole vocabulary's automaton."""
    code = (
        "import json,sys,psutil\n"
        "from benchmarks.bench_vocabulary import LIBRARIES\n"
        "patterns = json.load(sys.stdin)\n"
        "proc = psutil.Process()\n"
        "before = proc.memory_info().rss\n"
        f"automaton = LIBRARIES[{library!r}](patterns)\n"
        "print((proc.memory_info().rss - before) / 2**20)\n"
    )
    patterns = json.dumps(spellings(KINDS))
    result = subprocess.run(
        [sys.executable, "-c", code],
        input=patterns,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return float(result.stdout.strip())


def main() -> int:
    if not QUERIES.exists() or not GOALS.exists():
        console.print("../shared/data is absent: vocabulary benchmark skipped")
        return 0
    queries, goals = load_texts()
    corpora = {"Taobao queries (zh)": queries, "WebShop goals (en)": goals}
    chars = {name: sum(map(len, texts)) for name, texts in corpora.items()}
    patterns = spellings(KINDS)
    rows: dict[str, dict[str, float]] = {name: {} for name in LIBRARIES}
    runs: dict[str, dict[str, list[float]]] = {name: {} for name in LIBRARIES}
    lexicon_forms = surface_forms(LEXICON_KINDS)
    nouns = {f for f, es in lexicon_forms.items() if any(e.kind == "product_noun" for e in es)}
    baseline = FirstCharacterScanner(dict(lexicon_forms), nouns)
    base_runs: dict[str, list[float]] = {corpus: [] for corpus in corpora}
    folded = {k: [t.casefold() for t in v] for k, v in corpora.items()}
    built = {
        name: (
            factory(patterns),
            Matcher(surface_forms(KINDS), plural_kinds=NOUN_KINDS, automaton=factory),
            Matcher(lexicon_forms, plural_kinds={"product_noun"}, automaton=factory),
        )
        for name, factory in LIBRARIES.items()
    }
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("vocabulary matcher", total=SEARCH_RUNS + len(LIBRARIES))
        for name, factory in LIBRARIES.items():
            rows[name]["build"] = timed(lambda f=factory: f(patterns), BUILD_RUNS)
            rows[name]["memory"] = memory_of(name)
            progress.advance(task)
        # Interleaved rounds, so a busy moment on the shared machine hits every contender.
        for _ in range(SEARCH_RUNS):
            for corpus, texts in corpora.items():
                for name, (automaton, whole, lexicon) in built.items():
                    measured = runs[name]
                    measured.setdefault(f"raw {corpus}", []).append(
                        timed(
                            lambda a=automaton, ts=folded[corpus]: [
                                list(a.occurrences(t)) for t in ts
                            ]
                        )
                    )
                    measured.setdefault(f"find {corpus}", []).append(
                        timed(lambda m=whole, ts=texts: [m.find(t) for t in ts])
                    )
                    measured.setdefault(f"lexicon {corpus}", []).append(
                        timed(lambda m=lexicon, ts=texts: [m.find(t) for t in ts])
                    )
                base_runs[corpus].append(timed(lambda ts=texts: [baseline.scan(t) for t in ts]))
            progress.advance(task)
    for name, measured in runs.items():
        rows[name].update({key: statistics.median(values) for key, values in measured.items()})
    base = {corpus: statistics.median(values) for corpus, values in base_runs.items()}
    write_report(rows, base, corpora, chars, len(patterns), len(spellings(LEXICON_KINDS)))
    console.print(REPORT.read_text(encoding="utf-8"))
    return 0


def write_report(
    rows: dict[str, dict[str, float]],
    base: dict[str, float],
    corpora: dict[str, list[str]],
    chars: dict[str, int],
    patterns: int,
    lexicon_patterns: int,
) -> None:
    libs = list(rows)
    lines = [
        "# Vocabulary matcher: ahocorasick-rs vs pyahocorasick",
        "",
        "Generated by `python -m benchmarks.bench_vocabulary` (`make bench`). "
        f"Machine: {os.cpu_count()} CPUs (shared), Python {sys.version.split()[0]}, "
        f"{psutil.virtual_memory().total / 2**30:.0f} GiB.",
        "",
        f"Whole vocabulary: {patterns:,} spellings (forms, plurals, hyphen variants); the "
        f"lexicon's part of it: {lexicon_patterns:,}. Search times are medians of {SEARCH_RUNS} "
        "interleaved rounds. Texts: "
        + ", ".join(f"{len(t):,} {c} ({chars[c]:,} characters)" for c, t in corpora.items())
        + " from ../shared/data.",
        "",
        "| measure | " + " | ".join(libs) + " |",
        "|---|" + "---:|" * len(libs),
        f"| build, whole vocabulary (median of {BUILD_RUNS}) | "
        + " | ".join(f"{rows[lib]['build'] * 1000:.1f} ms" for lib in libs)
        + " |",
        "| memory of the built automaton (RSS growth of a fresh process) | "
        + " | ".join(f"{rows[lib]['memory']:.1f} MiB" for lib in libs)
        + " |",
    ]
    for corpus, texts in corpora.items():
        per = 1e6 / len(texts)
        lines.append(
            f"| raw search (all occurrences), {corpus}, per text | "
            + " | ".join(f"{rows[lib][f'raw {corpus}'] * per:.1f} µs" for lib in libs)
            + " |"
        )
        lines.append(
            f"| `Matcher.find`, whole vocabulary, {corpus}, per text | "
            + " | ".join(f"{rows[lib][f'find {corpus}'] * per:.1f} µs" for lib in libs)
            + " |"
        )
    lines += [
        "",
        "Against the lexicon's former scanner (first-character index, longest first), on the "
        "lexicon's own vocabulary, end to end, same run (in brackets: the former scanner's time "
        "over the matcher's; above 1 the matcher is faster):",
        "",
        "| texts | former scanner | " + " | ".join(f"matcher on {lib}" for lib in libs) + " |",
        "|---|---:|" + "---:|" * len(libs),
    ]
    for corpus, texts in corpora.items():
        per = 1e6 / len(texts)
        cells = [
            f"{rows[lib][f'lexicon {corpus}'] * per:.1f} µs "
            f"({base[corpus] / rows[lib][f'lexicon {corpus}']:.1f}×)"
            for lib in libs
        ]
        lines.append(f"| {corpus} | {base[corpus] * per:.1f} µs | " + " | ".join(cells) + " |")
    REPORT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
