"""Browser-test fixtures: Debian Chromium through Playwright, and real uvicorn servers running
`create_app` with the real agent over the indexed demo catalog."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, sync_playwright

from cartwise.api.main import create_app
from cartwise.settings import Settings
from tests.redis_cluster import free_port
from tests.web.server import RunningServer, indexed_settings, start_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[Playwright]:
    """Per module, not per session: while Playwright's sync driver runs, its event loop is
    the running loop of the thread, and an asyncio test that a parallel worker runs after a
    browser module would find it there."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail("Debian chromium is missing: run `make system-deps`")
    chromium = playwright_driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def web_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """One data directory with the demo catalog indexed, shared by the session."""
    return indexed_settings(tmp_path_factory.mktemp("web") / "home")


@pytest.fixture(scope="session")
def live_server(web_settings: Settings) -> Iterator[RunningServer]:
    """The real app (real agent, rules engine, SQLite stores) on a loopback port."""
    server = start_server(create_app(web_settings))
    yield server
    server.stop()


@dataclass
class StoreOutage:
    """The real app on a private redis-server that the test can stop."""

    server: RunningServer
    redis: subprocess.Popen[bytes]

    def stop_redis(self) -> None:
        self.redis.terminate()
        self.redis.wait(timeout=20)


@pytest.fixture
def store_outage(tmp_path: Path) -> Iterator[StoreOutage]:
    """The real app in Redis mode on a redis-server of its own: accounts live in Redis, so a
    shopper signs in while it runs; once the test stops it every store-backed route answers
    503."""
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        cartwise_home=tmp_path / "home",
        embedder="hashing:256",
        store_backend="redis",
        redis_url=f"redis://127.0.0.1:{port}/0",
        auth_secret="web-test-secret-" + "x" * 32,  # Redis mode needs an explicit one
    )
    server = start_server(create_app(settings))
    outage = StoreOutage(server=server, redis=redis)
    yield outage
    server.stop()
    if redis.poll() is None:
        outage.stop_redis()


def _page(browser: Browser, *, locale: str, viewport: dict[str, int]) -> Iterator[Page]:
    # Reduced motion: the phone sheet and smooth scrolling settle at once, so screenshots and
    # visibility checks never catch a half-finished transition.
    context = browser.new_context(  # type: ignore[arg-type]
        locale=locale, viewport=viewport, reduced_motion="reduce"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))

    def csp_violation(message: ConsoleMessage) -> None:
        # The page must work under its own Content-Security-Policy, not merely load.
        if message.type == "error" and "Content Security Policy" in message.text:
            problems.append(message.text)

    page.on("console", csp_violation)
    yield page
    context.close()
    assert not problems, f"uncaught errors in the page: {problems}"


@pytest.fixture
def browser_page_factory(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Fresh pages in a given locale and viewport, each checked like `zh_page` when closed."""
    opened: list[Iterator[Page]] = []

    def make(*, locale: str, viewport: dict[str, int]) -> Page:
        pages = _page(browser, locale=locale, viewport=viewport)
        opened.append(pages)
        return next(pages)

    yield make
    for pages in opened:
        next(pages, None)


@pytest.fixture
def zh_page(browser: Browser) -> Iterator[Page]:
    """A fresh browser profile whose language is Chinese, at desktop width."""
    yield from _page(browser, locale="zh-CN", viewport=DESKTOP)


@pytest.fixture
def en_phone_page(browser: Browser) -> Iterator[Page]:
    """A fresh browser profile whose language is English, at phone width."""
    yield from _page(browser, locale="en-US", viewport=PHONE)
