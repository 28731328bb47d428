"""The per-user token bucket, on a fake clock."""

from __future__ import annotations

import pytest

from cartwise.api.limits import RateLimited, RateLimiter


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_bucket_allows_a_burst_then_refills_continuously() -> None:
    clock = FakeClock()
    limiter = RateLimiter(6, clock=clock)  # 6 a minute: one token every 10 s
    for _ in range(6):
        limiter.acquire("alice")
    with pytest.raises(RateLimited) as refused:
        limiter.acquire("alice")
    assert refused.value.retry_after == pytest.approx(10.0)
    clock.now += 4.0
    with pytest.raises(RateLimited) as still:
        limiter.acquire("alice")
    assert still.value.retry_after == pytest.approx(6.0)
    clock.now += 6.0
    limiter.acquire("alice")


def test_buckets_are_per_user_and_never_exceed_capacity() -> None:
    clock = FakeClock()
    limiter = RateLimiter(2, clock=clock)
    limiter.acquire("alice")
    limiter.acquire("alice")
    limiter.acquire("bob")  # bob has his own bucket
    clock.now += 3600.0  # an idle hour refills to capacity, not beyond
    limiter.acquire("alice")
    limiter.acquire("alice")
    with pytest.raises(RateLimited):
        limiter.acquire("alice")
