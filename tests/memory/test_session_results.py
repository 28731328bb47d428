"""The conversation's results in P_t — the active search, the last shortlist, the item last
referred to — through both backends: stored whole, replaced by a patch, expiring with the
thread."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from cartwise.memory import create_session_store
from cartwise.memory.session_state import (
    ActiveSearch,
    SessionPatch,
    SessionStore,
    ShownItem,
)
from cartwise.settings import Settings

USER = "alice"
THREAD = "thread-results"


def search(page: int = 1) -> ActiveSearch:
    return ActiveSearch(
        product_type="跑步鞋",
        phrase="跑步鞋",
        product_types=["running_shoes"],
        domain="shoes",
        exclusions={"xiaomi": ["xiaomi", "小米"]},
        max_price_base=199.99,
        sort="price_asc",
        page=page,
        shown_models=["nike|model:pegasus40"],
    )


def item(n: int) -> ShownItem:
    return ShownItem(
        platform="jd",
        item_id=f"i{n}",
        title=f"跑步鞋 {n}",
        price_base=100.0 + n,
        product_type="running_shoes",
        brand="Nike",
        model=f"nike|model:m{n}",
        colors=["black"],
        offers=[f"jd:i{n}", f"taobao:t{n}"],
    )


def test_active_search_and_shortlist_round_trip(sessions: SessionStore) -> None:
    patch = SessionPatch(active_search=search(), shortlist=[item(1), item(2)], focus_item="jd:i2")
    written = sessions.patch(USER, THREAD, patch)
    read = sessions.get(USER, THREAD)
    assert read.active_search == search() and read.shortlist == [item(1), item(2)]
    assert read.focus_item == "jd:i2" and read == written and not read.is_empty


def test_a_patch_without_them_keeps_them_and_one_with_them_replaces(
    sessions: SessionStore,
) -> None:
    sessions.patch(USER, THREAD, SessionPatch(active_search=search(), shortlist=[item(1)]))
    sessions.patch(USER, THREAD, SessionPatch(slots_patch={"size": "42"}))
    kept = sessions.get(USER, THREAD)
    assert kept.active_search == search() and kept.shortlist == [item(1)]
    sessions.patch(USER, THREAD, SessionPatch(active_search=search(page=2), shortlist=[item(3)]))
    replaced = sessions.get(USER, THREAD)
    assert replaced.active_search is not None and replaced.active_search.page == 2
    assert replaced.shortlist == [item(3)]


@pytest.fixture
def short_lived(backend_settings: Settings) -> Iterator[SessionStore]:
    opened = create_session_store(
        backend_settings.model_copy(update={"session_ttl_hours": 1 / 3600})
    )
    yield opened
    opened.close()


def test_results_expire_with_the_thread(short_lived: SessionStore) -> None:
    short_lived.patch(USER, THREAD, SessionPatch(active_search=search(), shortlist=[item(1)]))
    written_at = time.monotonic()
    time.sleep(max(0.0, written_at + 1.1 - time.monotonic()))  # the TTL is wall-clock time
    expired = short_lived.get(USER, THREAD)
    assert expired.active_search is None and expired.shortlist == []
