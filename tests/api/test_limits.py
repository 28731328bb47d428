"""Rate limits over the `limits` library, and the sign-in throttle's policy."""

from __future__ import annotations

import pytest
from limits import RateLimitItemPerHour, RateLimitItemPerMinute

from cartwise.api.limits import RateLimited, RateLimits, SignInThrottle


def test_a_full_window_refuses_with_the_wait_and_keys_are_separate() -> None:
    limits = RateLimits()
    item = RateLimitItemPerMinute(2)
    limits.hit(item, "turns", "alice")
    limits.hit(item, "turns", "alice")
    with pytest.raises(RateLimited) as refused:
        limits.hit(item, "turns", "alice")
    assert 1.0 <= refused.value.retry_after <= 60.0
    limits.hit(item, "turns", "bob")  # bob has his own window


def test_check_counts_nothing() -> None:
    limits = RateLimits()
    item = RateLimitItemPerMinute(1)
    for _ in range(5):
        limits.check(item, "k")
    limits.hit(item, "k")
    with pytest.raises(RateLimited):
        limits.check(item, "k")


def _throttle(per_address: int = 100) -> SignInThrottle:
    return SignInThrottle(
        RateLimits(),
        per_address=RateLimitItemPerMinute(per_address),
        failures=[RateLimitItemPerMinute(3), RateLimitItemPerHour(10)],
    )


def test_failures_from_one_address_never_lock_the_owner_out_from_another() -> None:
    throttle = _throttle()
    for _ in range(3):
        throttle.before_attempt("alice", "10.0.0.66")
        throttle.failed("alice", "10.0.0.66")
    with pytest.raises(RateLimited):
        throttle.before_attempt("alice", "10.0.0.66")
    throttle.before_attempt("alice", "10.0.0.1")  # the owner, elsewhere
    throttle.before_attempt("bob", "10.0.0.66")  # another name from the same address


def test_one_address_is_capped_across_usernames() -> None:
    throttle = _throttle(per_address=4)
    for index in range(4):
        throttle.before_attempt(f"user{index}", "10.0.0.66")
    with pytest.raises(RateLimited):
        throttle.before_attempt("someone-else", "10.0.0.66")
    throttle.before_attempt("alice", "10.0.0.1")


def test_expired_windows_are_evicted_from_memory() -> None:
    """Memory is bounded by recent traffic: a passed window's counters are dropped."""
    limits = RateLimits()
    item = RateLimitItemPerMinute(5)
    for index in range(50):
        limits.hit(item, "sign-in", f"10.0.{index}.1")
    storage = limits._storage
    assert len(storage.storage) == 50  # type: ignore[attr-defined]
    for key in storage.expirations:  # type: ignore[attr-defined]
        storage.expirations[key] = 0.0  # type: ignore[attr-defined]  # as if the windows passed
    storage._MemoryStorage__expire_events()  # type: ignore[attr-defined]
    assert len(storage.storage) == 0  # type: ignore[attr-defined]
    assert storage.expirations == {}  # type: ignore[attr-defined]
