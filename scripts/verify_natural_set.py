"""Verify the natural conversation set against the demo catalog (rules: cartwise.eval.natural_verify).

    .venv/bin/python scripts/verify_natural_set.py            # our dev and test splits
    .venv/bin/python scripts/verify_natural_set.py FILE...    # other files in the same format

Prints every problem and the set's make-up (languages, kinds, messages, check keys); exits 1
when a check asks for something the catalog cannot give. Run it again whenever the demo
catalog is regenerated: a check that no longer holds is reported, not silently edited.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from cartwise.eval.natural_set import load_natural, own_set_path
from cartwise.eval.natural_verify import Verifier, load_catalog, load_facts

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "src/cartwise/catalog/demo/demo_catalog.jsonl.gz"
TYPES = ROOT / "src/cartwise/vocabulary/data/taxonomy.yml"
FACTS = ROOT / "src/cartwise/eval/data/natural_facts.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--facts", type=Path, default=FACTS)
    args = parser.parse_args()
    paths = args.sets or [own_set_path("dev"), own_set_path("test")]
    conversations = [c for path in paths for c in load_natural(path)]
    verifier = Verifier(load_catalog(CATALOG, TYPES))
    problems = verifier.problems(conversations, load_facts(args.facts))
    for problem in problems:
        print(problem)
    langs = Counter(c.lang for c in conversations)
    kinds = Counter(c.kind for c in conversations)
    keys = Counter(key for c in conversations for check in c.checks for key in check.set_keys())
    messages = sum(len(c.messages) for c in conversations)
    print(
        f"{len(conversations)} conversations, {messages} messages, "
        f"{sum(len(c.checks) for c in conversations)} check objects"
    )
    print("languages:", dict(sorted(langs.items())))
    print("kinds:", dict(sorted(kinds.items())))
    print("check keys:", dict(keys.most_common()))
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
