"""The llm engine's prompts, kept in `prompts.yml` beside this module.

Loaded through `importlib.resources` so they work from a wheel as well as a checkout.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from cartwise.errors import ConfigurationError
from cartwise.yaml_data import load_yaml

PromptName = Literal["reader_prompt", "memory_curator_prompt", "reply_prompt"]
PROMPT_NAMES: tuple[PromptName, ...] = ("reader_prompt", "memory_curator_prompt", "reply_prompt")


@cache
def load_prompts() -> dict[str, str]:
    """All prompts by name; a missing or empty prompt is a packaging error."""
    text = resources.files(__package__).joinpath("prompts.yml").read_text(encoding="utf-8")
    loaded = load_yaml(text)
    if not isinstance(loaded, dict):
        raise ConfigurationError("prompts.yml must be a mapping of prompt name to text")
    prompts = {str(name): str(value).strip() for name, value in loaded.items()}
    missing = [name for name in PROMPT_NAMES if not prompts.get(name)]
    if missing:
        raise ConfigurationError(f"prompts.yml lacks {', '.join(missing)}")
    return prompts


def get_prompt(name: PromptName) -> str:
    """One prompt's text."""
    return load_prompts()[name]
