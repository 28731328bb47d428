"""`load_yaml`: the one way Cartwise reads its YAML data files (lexicon, product types,
compatibility, prompts, nouns, column mappings).

libyaml's C parser, not PyYAML's pure-Python one: on the lexicon and the product types it is
five to six times faster, and every process that reads a message pays for both.
"""

from __future__ import annotations

from typing import Any

import yaml


def load_yaml(text: str) -> Any:
    """The document in `text`, safe tags only (`yaml.YAMLError` when it is not YAML)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
