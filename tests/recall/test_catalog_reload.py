"""A replica's index re-reads a catalog another process changed (`reload()`), flat and IVF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.faiss_ivf import FaissIvfIndex
from tests.factories import make_product

DIM = 16


def _vectors(n: int, seed: int) -> np.ndarray[Any, Any]:
    rows = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.mark.parametrize("kind", [FaissIndex, FaissIvfIndex])
def test_reload_sees_what_another_process_wrote(tmp_path: Path, kind: type[FaissIndex]) -> None:
    first = _vectors(400, seed=1)
    writer = FaissIndex(tmp_path, DIM)
    writer.upsert([make_product(str(i)) for i in range(400)], first)
    reader = kind(tmp_path, DIM, **({"exact_rows": 0} if kind is FaissIvfIndex else {}))
    try:
        assert reader.search(first[7], 1)[0].product.item_id == "7"
        added = _vectors(3, seed=2)
        writer.upsert([make_product(f"new{i}", platform="walmart") for i in range(3)], added)
        writer.delete(["jd:7"])
        assert reader.count() == 400  # its memory still holds the old catalog
        reader.reload()
        assert reader.count() == 402
        assert "walmart" in reader.platforms()
        assert reader.search(added[1], 1)[0].product.item_id == "new1"
        assert reader.get("jd:7") is None
    finally:
        reader.close()
        writer.close()
