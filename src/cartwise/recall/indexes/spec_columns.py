"""`SpecColumns`: the listings' specs as flat numpy columns, so a spec filter is a few
vectorized comparisons instead of a `check` call per product.

One column pair per attribute: `rows` (the position of each stated value) and `values`
(the value, or a code for labels). A listing that states several values of one attribute
(a cable sold in 1 m and 3 m) has several entries. Per spec, a row *meets* when one of its
values holds, *violates* when it states the attribute and none holds, and is *unknown* when
it states nothing — exactly `cartwise.catalog.specs.check`; the property tests hold both
side by side.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cartwise.catalog.product import Product
from cartwise.catalog.specs import ATTRIBUTES, LabelSpec, NumericSpec

BoolMask = npt.NDArray[np.bool_]

_EQ_SLACK = 1e-9
"""The same absolute slack `numeric_holds` allows on "eq"."""


class SpecColumns:
    """Built once per catalog state (the table drops it on every write)."""

    def __init__(self, products: Iterable[Product]) -> None:
        self.size = 0
        numbers: dict[str, tuple[list[int], list[float]]] = {}
        labels: dict[str, tuple[list[int], list[str]]] = {}
        for row, product in enumerate(products):
            self.size = row + 1
            for name, values in product.specs.numbers.items():
                rows, found = numbers.setdefault(name, ([], []))
                rows.extend([row] * len(values))
                found.extend(values)
            for name, words in product.specs.labels.items():
                label_rows, label_values = labels.setdefault(name, ([], []))
                label_rows.extend([row] * len(words))
                label_values.extend(words)
        self._numbers = {
            name: (np.asarray(rows, dtype=np.int64), np.asarray(found, dtype=np.float64))
            for name, (rows, found) in numbers.items()
        }
        self._labels = {
            name: (np.asarray(rows, dtype=np.int64), np.asarray(words, dtype=np.str_))
            for name, (rows, words) in labels.items()
        }

    def save(self, path: Path) -> None:
        """All columns in one `.npz` (`load` reads them back without any product)."""
        arrays: dict[str, npt.NDArray[np.generic]] = {"size": np.asarray(self.size)}
        for name, (rows, found) in self._numbers.items():
            arrays[f"number_rows:{name}"], arrays[f"number_values:{name}"] = rows, found
        for name, (rows, words) in self._labels.items():
            arrays[f"label_rows:{name}"], arrays[f"label_values:{name}"] = rows, words
        with open(path, "wb") as handle:
            np.savez(handle, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> SpecColumns:
        columns = cls([])
        with np.load(path, allow_pickle=False) as saved:
            columns.size = int(saved["size"])
            for key in saved.files:
                kind, _, name = key.partition(":")
                if kind == "number_rows":
                    columns._numbers[name] = (saved[key], saved[f"number_values:{name}"])
                elif kind == "label_rows":
                    columns._labels[name] = (saved[key], saved[f"label_values:{name}"])
        return columns

    def _rows_mask(self, rows: npt.NDArray[np.int64]) -> BoolMask:
        mask = np.zeros(self.size, dtype=np.bool_)
        mask[rows] = True
        return mask

    def _numeric(self, spec: NumericSpec) -> tuple[BoolMask, BoolMask]:
        """(stated, meets) for one comparison."""
        rows, values = self._numbers.get(spec.attribute, (np.zeros(0, np.int64), np.zeros(0)))
        target = spec.value
        if spec.op == "lt":
            holds = values < target
        elif spec.op == "le":
            holds = values <= target
        elif spec.op == "gt":
            holds = values > target
        elif spec.op == "ge":
            holds = values >= target
        else:
            info = ATTRIBUTES.get(spec.attribute)
            tolerance = info.relative_tolerance if info else 0.0
            holds = np.abs(values - target) <= tolerance * abs(target) + _EQ_SLACK
        return self._rows_mask(rows), self._rows_mask(rows[holds])

    def _label(self, spec: LabelSpec) -> tuple[BoolMask, BoolMask]:
        empty = (np.zeros(0, np.int64), np.zeros(0, dtype=np.str_))
        rows, words = self._labels.get(spec.attribute, empty)
        stated = self._rows_mask(rows)
        hit = self._rows_mask(rows[np.isin(words, list(spec.values))])
        return stated, (stated & ~hit) if spec.negated else hit

    def verdict_masks(
        self, numeric: Sequence[NumericSpec], labels: Sequence[LabelSpec]
    ) -> tuple[BoolMask, BoolMask]:
        """(meets, unknown) over every row: meets every spec / breaks none but leaves one
        unstated. Rows in neither violate some spec."""
        violates = np.zeros(self.size, dtype=np.bool_)
        unknown = np.zeros(self.size, dtype=np.bool_)
        pairs = [self._numeric(s) for s in numeric] + [self._label(s) for s in labels]
        for stated, meets in pairs:
            violates |= stated & ~meets
            unknown |= ~stated
        return ~violates & ~unknown, ~violates & unknown
