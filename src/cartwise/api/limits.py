"""Request body size limit (ASGI middleware) and rate limits (turns, sign-up, sign-in).

The size limit is checked twice: a declared `Content-Length` over the limit is refused
before a byte is read, and a chunked body (no length) is read up to the limit and refused
the moment it passes it. Either way the application never sees a partial body.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from limits import RateLimitItem
from limits.errors import StorageError
from limits.storage import storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cartwise.errors import CartwiseError, StoreUnavailable
from cartwise.redis_connection import redact_url
from cartwise.settings import Settings

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class RateLimited(CartwiseError):
    """A client went over one of its rate limits."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(f"too many requests; retry in {math.ceil(retry_after)} s")


class BodySizeLimit:
    """Refuse request bodies over `max_bytes` with 413 and a JSON detail."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_bytes: int,
        per_path: Mapping[str, int] | None = None,
        on_reject: Callable[[], None] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.per_path = dict(per_path or {})
        """Routes with their own limit (the AG-UI run, whose clients resend history)."""
        self.on_reject = on_reject

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        limit = self.per_path.get(scope["path"], self.max_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await self._reject(send, limit)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body.extend(message.get("body", b""))
            if len(body) > limit:
                await self._reject(send, limit)
                return
            if not message.get("more_body", False):
                break

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            # After the body, pass through so streaming responses still see a disconnect.
            return await receive()

        await self.app(scope, replay, send)

    async def _reject(self, send: Send, limit: int) -> None:
        if self.on_reject is not None:
            self.on_reject()
        payload = json.dumps(
            {"detail": f"request body too large; the limit is {limit} bytes"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class RateLimits:
    """Sliding-window-counter limits (the maintained `limits` library) over one storage.

    `memory://` keeps the windows in this process; the storage evicts a key once its window
    has passed, so memory is bounded by the traffic of one window, not by how many names or
    addresses were ever seen. Replicas pass a shared storage URI (`redis://…`) instead."""

    def __init__(self, storage_uri: str = "memory://", **options: Any) -> None:
        self.url = redact_url(storage_uri)
        # wrap_exceptions: a storage failure is one `StorageError` whatever the driver.
        self._storage = storage_from_string(storage_uri, wrap_exceptions=True, **options)
        self._limiter = SlidingWindowCounterRateLimiter(self._storage)

    @classmethod
    def for_settings(cls, settings: Settings) -> RateLimits:
        """In this process (one server), or in Redis (replicas count together). The Redis
        URL notation is the `limits` library's own, `redis+cluster://` included."""
        if settings.store_backend != "redis":
            return cls()
        timeouts = {
            "socket_timeout": settings.redis_timeout_seconds,
            "socket_connect_timeout": settings.redis_timeout_seconds,
        }
        return cls(settings.redis_url, **timeouts)

    def hit(self, item: RateLimitItem, *identifiers: str) -> None:
        """Count one event; `RateLimited` (with the wait) when the window is full."""
        with self._guard():
            allowed = self._limiter.hit(item, *identifiers)
        if not allowed:
            raise RateLimited(self._wait(item, identifiers))

    def check(self, item: RateLimitItem, *identifiers: str) -> None:
        """`RateLimited` when the window is full, without counting anything."""
        with self._guard():
            allowed = self._limiter.test(item, *identifiers)
        if not allowed:
            raise RateLimited(self._wait(item, identifiers))

    def _wait(self, item: RateLimitItem, identifiers: tuple[str, ...]) -> float:
        with self._guard():
            stats = self._limiter.get_window_stats(item, *identifiers)
        return max(1.0, stats.reset_time - time.time())

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except StorageError as exc:
            raise StoreUnavailable(self.url, str(exc) or type(exc).__name__) from exc


class SignInThrottle:
    """Sign-in limits that slow guessing without letting a stranger lock the owner out.

    - every attempt from one client address counts against `per_address` (a cap on how fast
      one address may try any names at all);
    - failures for one username from one address count against `failures` (e.g.
      `5/minute;20/hour`: a short wait first, then a long one — escalating backoff).

    Nothing is keyed by username alone, so failures from an attacker's address never stop
    the owner signing in from their own."""

    def __init__(
        self, limits: RateLimits, *, per_address: RateLimitItem, failures: list[RateLimitItem]
    ) -> None:
        self._limits = limits
        self._per_address = per_address
        self._failures = failures

    def before_attempt(self, username: str, address: str) -> None:
        for item in self._failures:
            self._limits.check(item, "sign-in-failures", username, address)
        self._limits.hit(self._per_address, "sign-in", address)

    def failed(self, username: str, address: str) -> None:
        for item in self._failures:
            # hit() refuses once full; the attempt was already refused, so ignore that.
            with contextlib.suppress(RateLimited):
                self._limits.hit(item, "sign-in-failures", username, address)
