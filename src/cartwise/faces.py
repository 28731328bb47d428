"""`lazy_face`: a package's public names, each imported from its home module on first use.

A package's face (`cartwise`, `cartwise.catalog`, `cartwise.recall`, ...) names what users
import; importing the package itself must not import every module behind the face, or
`cartwise --help` would load numpy, pydantic models and YAML tables it never uses (PEP 562).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_face(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """The module `__getattr__` of `package`: `homes` maps each public name to the module
    that defines it; the first access imports that module and keeps the value."""

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(importlib.import_module(package), name, value)
        return value

    return __getattr__
