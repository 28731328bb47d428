"""item_search: parallel per-platform searches inherit the turn's profile from the context."""

from __future__ import annotations

import threading

import pytest

from cartwise.agent.context import turn_context
from cartwise.embedding import create_embedder
from cartwise.recall.item_search import search_platforms, user_profile
from cartwise.recall.service import RecallService, SearchResponse
from cartwise.settings import Settings
from tests.factories import make_product

PLATFORMS = ["taobao", "jd", "amazon"]


class ProfileSpy(RecallService):
    """The real service, recording the profile and thread each search ran with."""

    def __init__(self, inner: RecallService) -> None:
        super().__init__(inner.index, inner.embedder, beta=inner.beta, lexical=inner.lexical)
        self.seen: list[tuple[str | None, str, int]] = []
        self._seen_lock = threading.Lock()

    def search(self, query: str, **kwargs: object) -> SearchResponse:  # type: ignore[override]
        with self._seen_lock:
            platform = kwargs["filters"].platforms[0]  # type: ignore[attr-defined]
            self.seen.append((kwargs["profile"], platform, threading.get_ident()))  # type: ignore[arg-type]
        return super().search(query, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def service(settings: Settings) -> ProfileSpy:
    embedder = create_embedder(settings.embedder)
    inner = RecallService.open(settings, embedder)
    products = [
        make_product(f"{p}-{i}", platform=p, title=f"{title} {p}", brand=brand)
        for p in PLATFORMS
        for i, (title, brand) in enumerate([("metal headphones", "Sony"), ("wool coat", "Uniqlo")])
    ]
    inner.upsert(products, embedder.embed_documents([x.title for x in products]))
    return ProfileSpy(inner)


async def test_parallel_searches_inherit_the_profile_from_the_context(service: ProfileSpy) -> None:
    with turn_context("u1", "t1", "likes Sony metal"):
        responses = await search_platforms(service, "headphones", PLATFORMS, k=2)
    assert list(responses) == PLATFORMS
    assert all(r.personalization for r in responses.values())
    assert sorted(platform for _, platform, _ in service.seen) == sorted(PLATFORMS)
    assert {profile for profile, _, _ in service.seen} == {"likes Sony metal"}
    # The searches really ran off the event loop thread (asyncio.to_thread).
    assert threading.get_ident() not in {ident for _, _, ident in service.seen}
    for platform, response in responses.items():
        assert {hit.product.platform for hit in response.results} == {platform}


async def test_explicit_empty_profile_overrides_the_context(service: ProfileSpy) -> None:
    with turn_context("u1", "t1", "likes Sony metal"):
        responses = await search_platforms(service, "headphones", ["jd"], profile="")
    assert responses["jd"].personalization is False
    assert service.seen[0][0] == ""


async def test_no_profile_in_context_means_inactive(service: ProfileSpy) -> None:
    assert user_profile.get() is None
    responses = await search_platforms(service, "coat", [], k=1)
    assert sorted(responses) == sorted(PLATFORMS)
    assert not any(r.personalization for r in responses.values())
