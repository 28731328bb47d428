"""Index backends for the one contract suite: FaissIndex, NumpyIndex, MilvusIndex (Milvus Lite)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cartwise.recall.indexes.base import ProductIndex
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.numpy import NumpyIndex

IndexFactory = Callable[[int], ProductIndex]
"""dim → a fresh, empty index; calling it again with the same dim reopens the same storage."""

_collections = itertools.count()


@pytest.fixture(scope="session")
def milvus_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One Milvus Lite file for the session (each test gets its own collection)."""
    pytest.importorskip("pymilvus")
    return str(tmp_path_factory.mktemp("milvus") / "milvus.db")


@pytest.fixture(
    params=[
        "faiss",
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
