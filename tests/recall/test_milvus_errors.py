"""MilvusIndex translates third-party failures into Cartwise errors at its boundary."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from cartwise.errors import ConfigurationError, StoreUnavailable
from cartwise.recall.indexes import create_index
from cartwise.recall.indexes.milvus import MilvusIndex
from cartwise.settings import Settings
from tests.factories import make_product

pytestmark = pytest.mark.milvus


def test_unreachable_server_is_store_unavailable() -> None:
    with pytest.raises(StoreUnavailable) as error:
        MilvusIndex("http://127.0.0.1:1", 8)
    assert error.value.url == "http://127.0.0.1:1"


def test_missing_pymilvus_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pymilvus", None)
    with pytest.raises(ConfigurationError, match=r"pip install 'cartwise\[milvus\]'"):
        MilvusIndex("unused.db", 8)


def test_dimension_change_is_refused(tmp_path: Path) -> None:
    uri = str(tmp_path / "milvus.db")
    first = MilvusIndex(uri, 8, collection="dims")
    first.upsert([make_product("1")], np.ones((1, 8), dtype=np.float32) / np.sqrt(8))
    first.close()
    with pytest.raises(ConfigurationError, match="8-d"):
        MilvusIndex(uri, 16, collection="dims")


def test_create_index_picks_milvus_lite_under_home(settings: Settings) -> None:
    index = create_index(
        settings.model_copy(update={"index_backend": "milvus"}), 8, embedder_name="hashing:8"
    )
    try:
        assert isinstance(index, MilvusIndex)
        assert (settings.home / "milvus.db").exists()
    finally:
        index.close()
