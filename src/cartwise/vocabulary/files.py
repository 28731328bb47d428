"""Reading the vocabulary's data files (`data/*.yml`), once per process."""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import yaml

from cartwise.errors import ConfigurationError
from cartwise.yaml_data import load_yaml

DATA: Traversable = resources.files("cartwise.vocabulary").joinpath("data")
"""Where the data files are: the packaged `data/` folder."""


@cache
def data_file(name: str) -> dict[str, Any]:
    """The parsed mapping of `data/<name>.yml`; a malformed file is a `ConfigurationError`."""
    path = DATA.joinpath(f"{name}.yml")
    try:
        loaded = load_yaml(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigurationError(f"vocabulary file {name}.yml cannot be read: {exc}") from exc
    if not isinstance(loaded, dict):
        raise ConfigurationError(f"vocabulary file {name}.yml must be a mapping")
    return loaded


def words(value: object, where: str) -> tuple[str, ...]:
    """A list of surface forms as strings. YAML reads `no`, `on` or `42` as other types, so a
    form that is not a string is a mistake in the file, not a word."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigurationError(f"vocabulary: {where} must be a list of strings, not {value!r}")
    return tuple(v.strip() for v in value if v.strip())
