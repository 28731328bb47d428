"""The before/after table of natural talk: `docs/reports/natural_talk.md`.

    python scripts/natural_talk_report.py                       # "after" = this checkout
    python scripts/natural_talk_report.py --before-checkout /work/wt/before   # also "before"
    python scripts/natural_talk_report.py --render-only          # table from the stored JSON
    python scripts/natural_talk_report.py --only shopsim,acts    # rerun some sections only

Each column is measured by `scripts/natural_talk_collect.py` run with that checkout's own
Python inside it (its agent, reader and earlier evaluations). The harnesses an older checkout
lacks — natural conversations, ShopSim, acts — are this checkout's, copied into a temporary
`nt_harness` package with this checkout's natural sets and understanding cases (read-only
copies; nothing is written into the other checkout). "Before" is the checkout at the tag
`before-natural-talk` (`git worktree add /work/wt/before before-natural-talk`, `make setup`
there); its numbers are stored in `docs/reports/natural_talk_before.json`, "after" in
`natural_talk_after.json`, so the table can be rendered again without rerunning either.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EVAL = REPO / "src" / "cartwise" / "eval"
REPORTS = REPO / "docs" / "reports"
BEFORE_JSON = REPORTS / "natural_talk_before.json"
AFTER_JSON = REPORTS / "natural_talk_after.json"
HARNESS_MODULES = ("natural", "natural_checks", "natural_set", "shopsim", "shopsim_tasks", "acts")
HARNESS_DATA = (
    "natural_dev.jsonl",
    "natural_test.jsonl",
    "shopsim_listings.yml",
    "understanding_dev.jsonl",
    "understanding_test.jsonl",
    "acts_dev.jsonl",
    "acts_test.jsonl",
)


def write_harness(folder: Path) -> Path:
    """`folder/nt_harness`: this checkout's harness modules, importing each other (and the
    measured checkout for everything else), with their data files; returns its data folder."""
    package = folder / "nt_harness"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text('"""Harness copies for natural_talk_collect."""\n')
    own = "|".join(HARNESS_MODULES)
    for name in HARNESS_MODULES:
        text = (EVAL / f"{name}.py").read_text(encoding="utf-8")
        text = re.sub(rf"\bcartwise\.eval\.({own})\b", r"nt_harness.\1", text)
        text = text.replace('resources.files("cartwise.eval")', 'resources.files("nt_harness")')
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    for name in HARNESS_DATA:
        shutil.copyfile(EVAL / "data" / name, package / "data" / name)
    shutil.copyfile(REPO / "scripts" / "natural_talk_collect.py", folder / "collect.py")
    return package / "data"


def collect(checkout: Path, out: Path, *, label: str, args: argparse.Namespace) -> None:
    python = checkout / ".venv" / "bin" / "python"
    if not python.is_file():
        sys.exit(f"{python} is absent: run `make setup` in {checkout} first")
    with tempfile.TemporaryDirectory(prefix="natural-talk-harness-") as folder:
        data = write_harness(Path(folder))
        env = {**os.environ, "PYTHONPATH": folder, "OPENBLAS_NUM_THREADS": "1"}
        if args.home:
            env["CARTWISE_HOME"] = str(args.home)
        command = [
            str(python),
            str(Path(folder) / "collect.py"),
            "--harness", str(data),
            "--data", str(args.data.resolve()),
            "--out", str(out.resolve()),
            "--label", label,
            "--only", args.only,
            "--shopsim-sample", str(args.shopsim_sample),
        ]  # fmt: skip
        subprocess.run(command, cwd=checkout, env=env, check=True)
    commit = subprocess.run(
        ["git", "-C", str(checkout), "describe", "--tags", "--always", "--dirty"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    numbers = json.loads(out.read_text(encoding="utf-8"))
    numbers["commit"] = commit
    out.write_text(json.dumps(numbers, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _get(numbers: dict[str, Any], path: str) -> Any:
    value: Any = numbers
    for part in path.split("/"):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, list) and len(value) == 2:
        passed, total = value
        return f"{passed}/{total} ({passed / total:.1%})" if total else "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


Row = tuple[str, str]
"""(what is measured, the path of the number in the collected JSON)."""


def rows() -> list[tuple[str, list[Row]]]:
    natural = [
        (f"{name}: {what}", f"natural/{name}/{key}")
        for name in ("shared-dev", "dev", "test")
        for what, key in (("conversations passed", "conversations"), ("turns passed", "turns"))
    ]
    shop: list[Row] = []
    for mode, agent in (("single", "agent"), ("multi", "agent, last reply")):
        for split in ("dev", "test"):
            at = f"shopsim/{mode}:{split}"
            shop += [
                (f"{mode} {split}: target shown, {agent}", f"{at}/agent/target_shown"),
                (
                    f"{mode} {split}: target shown, bare search"
                    + (" of the whole script" if mode == "multi" else ""),
                    f"{at}/bare/target_shown",
                ),
            ]
            if mode == "multi":
                shop.append(
                    (f"{mode} {split}: target shown, bare search of the opening",
                     f"{at}/bare_opening/target_shown")
                )  # fmt: skip
            shop += [
                (f"{mode} {split}: within stated budget, {agent}", f"{at}/agent/within_stated"),
                (f"{mode} {split}: within stated budget, bare search", f"{at}/bare/within_stated"),
            ]
    acts = [
        ("our dev split: exact set", "acts/dev/exact"),
        ("our dev split: macro F1", "acts/dev/macro_f1"),
        ("our test split: exact set", "acts/test/exact"),
        ("our test split: macro F1", "acts/test/macro_f1"),
        ("MG-ShopDial: accuracy (likeliest act's class)", "acts/mg_shopdial/accuracy"),
        ("MG-ShopDial: macro F1", "acts/mg_shopdial/macro_f1"),
    ]
    earlier = [
        (f"dialogue {s}: conversations passed", f"dialogue/{s}/conversations")
        for s in ("dev", "test")
    ]
    for split in ("dev", "test"):
        earlier += [
            (f"not carried {split}: precision", f"dialogue/{split}/not_carried_precision"),
            (f"not carried {split}: recall", f"dialogue/{split}/not_carried_recall"),
        ]
    for split in ("dev", "test"):
        earlier += [
            (f"understanding {split}: {what}", f"understanding/{split}/{key}")
            for what, key in (
                ("polarity accuracy", "polarity_accuracy"),
                ("dedup_key F1", "dedup_key_f1"),
                ("slot accuracy", "slot_accuracy"),
                ("cases (whose)", "cases_from"),
            )
        ]
    earlier += [
        ("retrieval: zh hybrid MRR@10", "retrieval/zh_hybrid_mrr10"),
        ("retrieval: WebMall hybrid recall@20", "retrieval/webmall_hybrid_recall20"),
    ]
    for split in ("dev", "test"):
        earlier += [
            (f"domain {split}: accuracy", f"domain/{split}/accuracy"),
            (f"domain {split}: wrong-domain misses", f"domain/{split}/wrong_domain_misses"),
        ]
    return [
        ("Natural conversation sets (`cartwise eval natural`)", natural),
        ("ShopSim (`cartwise eval shopsim [--multi-turn]`, top 8)", shop),
        ("Dialogue acts (`cartwise eval acts`)", acts),
        ("Earlier evaluations", earlier),
    ]


def spec_rows(before: dict[str, Any], after: dict[str, Any]) -> list[Row]:
    names: list[str] = []
    for numbers in (before, after):
        for name, value in (numbers.get("specs") or {}).items():
            if isinstance(value, dict) and name not in names:
                names.append(name)
    return [
        (f"specs {name}: {what}", f"specs/{name}/{what}")
        for name in names
        for what in ("precision", "recall")
    ]


def render(before: dict[str, Any], after: dict[str, Any]) -> str:
    lines = [
        "# Natural talk: before and after",
        "",
        "Generated by `python scripts/natural_talk_report.py` (see its docstring). **before**: "
        f"`{before.get('commit', 'before-natural-talk')}`; **after**: "
        f"`{after.get('commit', '?')}`. Both columns run the same harnesses (this checkout's) "
        "against each checkout's own agent and reader: rules engine, bundled e5. Splits are "
        "named in every row; test splits and MG-ShopDial are reports, never tuned on. ShopSim: "
        f"{_cell(_get(after, 'shopsim/sample'))} tasks per split in a seeded order "
        "(`docs/reports/shopsim.md` defines every column); the task attributes the scripted "
        "shopper says are words of the target's title, so the bare search of the whole script "
        "is a generous reference. A dash: the checkout cannot run "
        "it (the act classifier did not exist before) or it failed (the error is in the JSON).",
        "",
    ]
    sections = rows()
    sections[-1][1].extend(spec_rows(before, after))
    for title, section in sections:
        lines += [f"## {title}", "", "| measure | before | after |", "|---|---:|---:|"]
        lines += [
            f"| {what} | {_cell(_get(before, path))} | {_cell(_get(after, path))} |"
            for what, path in section
        ]
        lines.append("")
    errors = [
        f"- {label}: `{name}`: {value['error']}"
        for label, numbers in (("before", before), ("after", after))
        for name, value in numbers.items()
        if isinstance(value, dict) and "error" in value
    ]
    if errors:
        lines += ["## Sections that did not run", "", *errors, ""]

    def seconds(numbers: dict[str, Any]) -> str:
        return ", ".join(f"{k} {v:.0f} s" for k, v in (numbers.get("seconds") or {}).items())

    lines += [f"Run time — before: {seconds(before)}; after: {seconds(after)}.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before-checkout", type=Path, help="Also measure this checkout.")
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--no-after", action="store_true", help="Measure only --before-checkout.")
    parser.add_argument("--data", type=Path, default=REPO / ".." / "shared" / "data")
    parser.add_argument("--home", type=Path, help="CARTWISE_HOME (its embedding cache).")
    parser.add_argument("--only", default="natural,shopsim,acts,dialogue,understanding,specs,"
                        "retrieval,domain")  # fmt: skip
    parser.add_argument("--shopsim-sample", type=int, default=200)
    parser.add_argument("--out", type=Path, default=REPORTS / "natural_talk.md")
    args = parser.parse_args()
    if not args.render_only:
        if args.before_checkout is not None:
            collect(args.before_checkout.resolve(), BEFORE_JSON, label="before", args=args)
        if not args.no_after:
            collect(REPO, AFTER_JSON, label="after", args=args)

    def load(path: Path) -> dict[str, Any]:
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}

    args.out.write_text(render(load(BEFORE_JSON), load(AFTER_JSON)), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
