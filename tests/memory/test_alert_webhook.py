"""Alerts posted to a shopper's webhook: signed with the server's secret, retried after a
failure, never making the caller wait — against a real HTTP server on loopback."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cartwise.catalog.ingest import IngestReport
from cartwise.errors import InvalidInput
from cartwise.memory.alert_webhook import AlertWebhook, check_webhook_url
from cartwise.memory.prices import Alert
from cartwise.settings import Settings

SECRET = "test-webhook-secret"


class Hook:
    """A webhook receiver that answers 503 to the first `failures` posts."""

    def __init__(self, failures: int = 0, delay: float = 0.0) -> None:
        self.failures = failures
        self.delay = delay
        self.received: list[tuple[bytes, dict[str, str]]] = []
        self.attempts = 0
        self.arrived = threading.Event()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                hook.attempts += 1
                time.sleep(hook.delay)
                if hook.attempts <= hook.failures:
                    self.send_response(503)
                    self.end_headers()
                    return
                hook.received.append((body, dict(self.headers)))
                self.send_response(204)
                self.end_headers()
                hook.arrived.set()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hook() -> Iterator[Hook]:
    opened = Hook(failures=2, delay=0.2)
    yield opened
    opened.close()


def alert(user: str = "ann") -> Alert:
    return Alert(user=user, watch_id="w1", title="Sony WH-1000XM5", kind="price", platform="jd",
                 item_id="1", price=1999.0, currency="CNY", target=2000.0)  # fmt: skip


def test_an_alert_is_signed_retried_and_never_waited_for(hook: Hook) -> None:
    webhook = AlertWebhook(lambda user: hook.url if user == "ann" else "", secret=SECRET,
                           backoff=0.05)  # fmt: skip
    started = time.perf_counter()
    webhook.notify([alert("ann"), alert("bob")])  # bob set no webhook
    assert time.perf_counter() - started < 0.1  # the receiver takes 0.2 s per post
    assert hook.arrived.wait(10)
    webhook.close()
    ((body, headers),) = hook.received
    expected = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Cartwise-Signature"] == expected
    assert Alert.model_validate_json(body).user == "ann"
    assert hook.attempts == 3 and (webhook.delivered, webhook.failed) == (1, 0)


def test_a_dead_webhook_is_given_up_after_its_attempts() -> None:
    dead = Hook(failures=100)
    try:
        webhook = AlertWebhook(lambda user: dead.url, secret=SECRET, attempts=3, backoff=0.01)
        webhook.notify([alert()])
        webhook.close(wait=10)
        assert (dead.attempts, webhook.delivered, webhook.failed) == (3, 0, 1)
    finally:
        dead.close()


def test_only_web_urls_are_webhooks() -> None:
    assert check_webhook_url(" https://hooks.example/x ") == "https://hooks.example/x"
    assert check_webhook_url("") == ""
    for bad in ("javascript:alert(1)", "ftp://x.example/y", "/relative", "https://"):
        with pytest.raises(InvalidInput):
            check_webhook_url(bad)


def test_an_ingest_that_raises_an_alert_posts_it_without_waiting_for_the_webhook(
    settings: Settings, tmp_path: Path
) -> None:
    """The recorder `cartwise ingest` uses, with ALERT_WEBHOOK_SECRET set: the ingest returns
    while the shopper's slow, failing-once webhook is still being tried; closing the
    recorder lets the post finish, signed."""
    from cartwise.catalog.model_identity import model_identity
    from cartwise.catalog.pipeline import ingest_file
    from cartwise.catalog.product import Product
    from cartwise.embedding.hashing import HashingEmbedder
    from cartwise.memory import create_price_recorder, create_watch_store
    from cartwise.memory.prices import new_watch
    from cartwise.recall.service import RecallService

    settings = settings.model_copy(update={"alert_webhook_secret": SECRET})
    slow = Hook(failures=1, delay=1.5)
    service = RecallService.open(settings, HashingEmbedder(256))
    source = tmp_path / "shop.jsonl"
    row = {"platform": "jd", "item_id": "A1", "title": "Sony WH-1000XM5 headphones",
           "brand": "Sony", "price": 2299, "currency": "CNY"}  # fmt: skip

    def ingest(price: float) -> tuple[IngestReport, float, int]:
        source.write_text(json.dumps({**row, "price": price}) + "\n", encoding="utf-8")
        recorder = create_price_recorder(settings)
        assert recorder is not None
        started = time.perf_counter()
        report = ingest_file(source, settings=settings, service=service,
                             embedder=service.embedder, progress=False, prices=recorder)  # fmt: skip
        took, delivered = time.perf_counter() - started, len(slow.received)
        recorder.close()
        return report, took, delivered

    try:
        assert ingest(2299)[0].alerts == 0
        watches = create_watch_store(settings)
        watches.add(new_watch("ann", model=model_identity(Product.model_validate(row)),
                              title="Sony WH-1000XM5", kind="price", target=2000,
                              currency="CNY"))  # fmt: skip
        watches.set_webhook("ann", slow.url)
        watches.close()
        report, took, delivered_then = ingest(1999)
        assert report.alerts == 1
        assert delivered_then == 0 and took < 1.5  # the post was not waited for
        ((body, headers),) = slow.received  # delivered while the recorder closed
        assert (
            headers["X-Cartwise-Signature"]
            == "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
        )
        sent = Alert.model_validate_json(body)
        assert (sent.user, sent.platform, sent.price) == ("ann", "jd", 1999.0)
        assert slow.attempts == 2  # retried after the 503
    finally:
        service.close()
        slow.close()
