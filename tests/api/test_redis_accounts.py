"""Accounts, revocations, rate limits and the catalog version in Redis — on one server and on
a real 3-node Redis Cluster."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from limits import RateLimitItemPerMinute

from cartwise.api.accounts import RedisAccountStore, UsernameTaken
from cartwise.api.limits import RateLimited, RateLimits
from cartwise.recall.catalog_version import CatalogWatcher, RedisCatalogVersion

pytestmark = pytest.mark.redis


@pytest.fixture(
    params=["redis", pytest.param("redis-cluster", marks=pytest.mark.slow)],
)
def url(request: pytest.FixtureRequest) -> str:
    fixture = "clean_redis" if request.param == "redis" else "clean_redis_cluster"
    return str(request.getfixturevalue(fixture))


def _store(url: str) -> RedisAccountStore:
    return RedisAccountStore(url, timeout=2.0, max_connections=4)


def test_accounts_are_shared_between_two_clients(url: str) -> None:
    one, two = _store(url), _store(url)
    try:
        created = one.create("alice", "hash-1")
        seen = two.get("alice")
        assert seen is not None and seen.account_id == created.account_id
        with pytest.raises(UsernameTaken):
            two.create("alice", "hash-2")
        two.set_password_hash("alice", "hash-3")
        assert one.get("alice").password_hash == "hash-3"  # type: ignore[union-attr]
        two.set_password_hash("nobody", "x")
        assert one.get("nobody") is None  # a rehash never creates an account
        assert one.delete("alice") is True
        assert two.get("alice") is None
        assert two.delete("alice") is False
        again = two.create("alice", "hash-4")
        assert again.account_id != created.account_id
        one.ping()
    finally:
        one.close()
        two.close()


def test_a_revocation_is_seen_everywhere_and_expires_with_the_token(url: str) -> None:
    one, two = _store(url), _store(url)
    try:
        one.revoke_token("jti-1", datetime.now(UTC) + timedelta(minutes=5))
        assert two.is_revoked("jti-1")
        assert not two.is_revoked("jti-2")
        one.revoke_token("jti-old", datetime.now(UTC) - timedelta(seconds=1))
        assert not two.is_revoked("jti-old")  # nothing kept for a token that expired
    finally:
        one.close()
        two.close()


def test_rate_limits_count_across_processes_sharing_redis(url: str) -> None:
    one, two = RateLimits(url), RateLimits(url)
    item = RateLimitItemPerMinute(3)
    one.hit(item, "turn", "alice")
    two.hit(item, "turn", "alice")
    one.hit(item, "turn", "alice")
    with pytest.raises(RateLimited):
        two.hit(item, "turn", "alice")
    two.hit(item, "turn", "bob")


def test_a_catalog_change_reaches_another_watcher(url: str) -> None:
    reloads: list[int] = []
    now = [0.0]
    writer = CatalogWatcher(
        RedisCatalogVersion(url, timeout=2.0, max_connections=4), lambda: None, interval=1.0
    )
    reader = CatalogWatcher(
        RedisCatalogVersion(url, timeout=2.0, max_connections=4),
        lambda: reloads.append(1),
        interval=1.0,
        clock=lambda: now[0],
    )
    try:
        writer.announce()
        reader.sync()
        assert reloads == []  # checked at most once per interval
        now[0] = 1.5
        reader.sync()
        assert reloads == [1]
        now[0] = 3.0
        reader.sync()
        assert reloads == [1]  # nothing changed since
    finally:
        writer.close()
        reader.close()
