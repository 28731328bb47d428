"""Index backends for the one contract suite: FaissIndex, FaissIvfIndex, NumpyIndex, MilvusIndex
(Milvus Lite).

FaissIvfIndex runs the suite with exhaustive probing (no exact shortcut, every cell holding a
row that passes the filter is scanned): its cells, ids, selector and replacement bookkeeping
must then give exactly the brute-force answer. Its approximate defaults are tested in
test_faiss_ivf_index.py."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cartwise.recall.indexes.base import ProductIndex
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.faiss_ivf import FaissIvfIndex
from cartwise.recall.indexes.numpy import NumpyIndex

IndexFactory = Callable[[int], ProductIndex]
"""dim → a fresh, empty index; calling it again with the same dim reopens the same storage."""

_collections = itertools.count()


def exhaustive_ivf(directory: Path, dim: int) -> FaissIvfIndex:
    """An IVF index that probes until every row passing the filter was scanned."""
    return FaissIvfIndex(
        directory, dim, candidates_per_k=10**9, min_probes=1, max_probe_fraction=1.0, exact_rows=0
    )


@pytest.fixture(scope="session")
def milvus_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One Milvus Lite file for the session (each test gets its own collection)."""
    pytest.importorskip("pymilvus")
    return str(tmp_path_factory.mktemp("milvus") / "milvus.db")


@pytest.fixture(
    params=[
        "faiss",
        "faiss_ivf",
        "numpy",
        pytest.param("milvus", marks=pytest.mark.milvus),
    ]
)
def index_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[IndexFactory]:
    opened: list[ProductIndex] = []
    collection = f"contract_{next(_collections)}"

    def factory(dim: int) -> ProductIndex:
        index: ProductIndex
        if request.param == "faiss":
            index = FaissIndex(tmp_path / "faiss", dim)
        elif request.param == "faiss_ivf":
            index = exhaustive_ivf(tmp_path / "faiss_ivf", dim)
        elif request.param == "numpy":
            index = NumpyIndex(dim)
        else:
            from cartwise.recall.indexes.milvus import MilvusIndex

            index = MilvusIndex(request.getfixturevalue("milvus_db"), dim, collection=collection)
        opened.append(index)
        return index

    factory.backend = request.param  # type: ignore[attr-defined]
    yield factory
    for index in opened:
        index.close()
