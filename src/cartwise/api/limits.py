"""Request body size limit (ASGI middleware) and the per-user turn rate limit.

The size limit is checked twice: a declared `Content-Length` over the limit is refused
before a byte is read, and a chunked body (no length) is read up to the limit and refused
the moment it passes it. Either way the application never sees a partial body.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cartwise.errors import CartwiseError

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class RateLimited(CartwiseError):
    """A user started more turns than the per-minute limit allows."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(f"too many requests; retry in {math.ceil(retry_after)} s")


class BodySizeLimit:
    """Refuse request bodies over `max_bytes` with 413 and a JSON detail."""

    def __init__(
        self, app: ASGIApp, *, max_bytes: int, on_reject: Callable[[], None] | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.on_reject = on_reject

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._reject(send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body.extend(message.get("body", b""))
            if len(body) > self.max_bytes:
                await self._reject(send)
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

    async def _reject(self, send: Send) -> None:
        if self.on_reject is not None:
            self.on_reject()
        payload = json.dumps(
            {"detail": f"request body too large; the limit is {self.max_bytes} bytes"}
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


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """A token bucket per user: `per_minute` turns, refilled continuously.

    In memory, per process: a fleet behind a load balancer gets per-instance limits, which
    is the usual trade for not putting a network round-trip in front of every turn."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.refill_per_second = per_minute / 60.0
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def acquire(self, user: str) -> None:
        """Take one token for `user`; `RateLimited` (with the wait) when there is none."""
        now = self._clock()
        with self._lock:
            bucket = self._buckets.get(user)
            if bucket is None:
                bucket = self._buckets[user] = _Bucket(tokens=self.capacity, updated=now)
            elapsed = max(0.0, now - bucket.updated)
            bucket.tokens = min(self.capacity, bucket.tokens + elapsed * self.refill_per_second)
            bucket.updated = now
            if bucket.tokens < 1.0:
                raise RateLimited((1.0 - bucket.tokens) / self.refill_per_second)
            bucket.tokens -= 1.0
