"""Alerts posted to the webhook a shopper set: signed, retried, never in an ingest's way.

Each alert is one POST of its JSON with `X-Cartwise-Signature: sha256=<hex HMAC of the body>`
(the key is ALERT_WEBHOOK_SECRET) and `X-Cartwise-Timestamp`. Posts run on a background thread
from a bounded queue: an ingest only enqueues. A failed post (connection error, timeout, 5xx)
is retried with a growing pause, up to `attempts` times, then logged and dropped — the alert
itself is already stored and shown in the app.
"""

from __future__ import annotations

import hashlib
import hmac
import queue
import threading
import time
from collections.abc import Callable, Sequence

import httpx

from cartwise.catalog.product import safe_web_url
from cartwise.errors import InvalidInput
from cartwise.log import logger
from cartwise.memory.prices import Alert

QUEUE_SIZE = 10_000


def check_webhook_url(url: str) -> str:
    """`url` when it can be a webhook (an absolute http(s) URL), "" for ""; else
    `InvalidInput`."""
    url = url.strip()
    if url and not safe_web_url(url):
        raise InvalidInput(f"not a webhook URL (absolute http or https): {url!r}")
    return url


def sign(body: bytes, secret: str) -> str:
    """The signature header's value for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class AlertWebhook:
    """Posts alerts to their users' webhooks from one background thread."""

    def __init__(
        self,
        webhook_of: Callable[[str], str],
        *,
        secret: str,
        attempts: int = 4,
        timeout: float = 5.0,
        backoff: float = 0.5,
    ) -> None:
        self._webhook_of = webhook_of
        self._secret = secret
        self._attempts = attempts
        self._backoff = backoff
        self._client = httpx.Client(timeout=timeout, follow_redirects=False)
        self._queue: queue.Queue[tuple[str, Alert] | None] = queue.Queue(QUEUE_SIZE)
        self._thread = threading.Thread(target=self._run, name="cartwise-webhook", daemon=True)
        self._thread.start()
        self.delivered = 0
        self.failed = 0

    def notify(self, alerts: Sequence[Alert]) -> None:
        """Queue each alert whose user set a webhook; never waits for a post."""
        for alert in alerts:
            url = self._webhook_of(alert.user)
            if not url:
                continue
            try:
                self._queue.put_nowait((url, alert))
            except queue.Full:
                self.failed += 1
                logger.warning("alert webhook queue full: alert %s not posted", alert.id)

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                self._post(*job)
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def _post(self, url: str, alert: Alert) -> None:
        body = alert.model_dump_json().encode()
        for attempt in range(self._attempts):
            headers = {
                "Content-Type": "application/json",
                "X-Cartwise-Signature": sign(body, self._secret),
                "X-Cartwise-Timestamp": str(int(time.time())),
            }
            try:
                answer = self._client.post(url, content=body, headers=headers)
                if answer.status_code < 500:
                    self.delivered += answer.is_success
                    if not answer.is_success:
                        logger.warning("alert webhook refused alert %s: %d", alert.id,
                                       answer.status_code)  # fmt: skip
                    return
            except httpx.HTTPError:
                pass
            time.sleep(self._backoff * 2**attempt)
        self.failed += 1
        logger.warning("alert webhook unreachable after %d attempts: alert %s dropped",
                       self._attempts, alert.id)  # fmt: skip

    def close(self, *, wait: float = 10.0) -> None:
        """Let queued posts finish for at most `wait` seconds, then stop."""
        deadline = time.monotonic() + wait
        self._queue.put(None)
        self._thread.join(max(0.0, deadline - time.monotonic()))
        self._client.close()
