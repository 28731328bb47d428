"""A whole conversation in the page: after every turn of an 8-turn conversation, on a desktop
(Chinese) and a phone (English), the header and the input stay on screen, the newest reply is
in view, the screen is not mostly empty, cards quote the reply's currency, and the Chinese page
shows no English of its own. Screenshots of the first and last turn go to docs/screenshots/."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.conftest import PHONE
from tests.web.server import RunningServer
from tests.web.test_browser import ask, register, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP_TALL = {"width": 1280, "height": 900}
MAX_EMPTY_SHARE = 0.40

CHINESE_TURNS = [
    "想买一副头戴式耳机，不要塑料的",
    "一千五以内吧",
    "按价格从低到高排",
    "比较一下第一个和第二个",
    "换一批看看",
    "第一个哪个平台最便宜",
    "再帮我看看蓝牙音箱",
    "好的谢谢",
]
ENGLISH_TURNS = [
    "over-ear headphones, nothing plastic please",
    "keep it under $250",
    "sort them by price, cheapest first",
    "compare the first and the second",
    "show me some more",
    "where is the first one cheapest?",
    "now a bluetooth speaker",
    "great, thanks!",
]
COMPARE_TURN = 3

# Containers that hold content but are not content themselves: a point on one of them is
# empty screen.
BACKGROUND = (
    "#app-view, .layout, main.chat, .chat-log, .turn, .msg, .msg-body, .turn-results, "
    ".turn-notice, .turn-error, .results, .platform-groups, .platform-group, .cards, "
    ".sorted-cards, .empty-state"
)
EMPTY_SHARE_JS = """(background) => {
  const w = innerWidth, h = innerHeight;
  let empty = 0, total = 0;
  for (let y = 4; y < h; y += 16) {
    for (let x = 4; x < w; x += 16) {
      total += 1;
      const el = document.elementFromPoint(x, y);
      if (!el || el === document.body || el === document.documentElement || el.matches(background)) empty += 1;
    }
  }
  return empty / total;
}"""

# What the Chinese page may show in Latin letters of its own: its name, the language toggle,
# a platform that has no Chinese name, money and units.
LATIN_ALLOWED = {"cartwise", "en", "shopee", "us", "sgd", "cny", "usd", "mah", "gb", "tb", "hz"}
PRODUCT_TEXT = (
    ".card-title, .card-brand, .rejected-title, .compare-title, .msg-user, .user-name, "
    ".pref-keywords, .bubble-text"
)
UI_TEXT_JS = """(skip) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest(skip) || el.closest("[hidden], script, style, noscript, #auth-view")) continue;
    if (!el.checkVisibility()) continue;
    if (node.textContent.trim()) out.push(node.textContent.trim());
  }
  return out;
}"""
SYMBOLS = {"CNY": "¥", "USD": "$", "SGD": "S$"}


def _inside_viewport(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, (selector, box)


def _reply_of(turn: Locator) -> Locator:
    text = turn.locator(".bubble-text")
    return text if text.inner_text().strip() else turn.locator(".msg-assistant")


def _currencies_agree(page: Page, turn: Locator) -> None:
    """Every card's first price is in the shopper's currency, the one the reply quotes."""
    cards = turn.locator(".card .price")
    if not cards.count():
        return
    codes = set(cards.evaluate_all("els => els.map(e => e.dataset.currency)"))
    assert len(codes) == 1, codes
    [code] = codes
    reply = turn.locator(".bubble-text").inner_text()
    quoted = set(re.findall(r"(S\$|US\$|\$|¥|€|£)\s?\d", reply))
    assert quoted <= {SYMBOLS[code], "US$" if code == "USD" else SYMBOLS[code]}, (code, quoted)
    for price in turn.locator(".card .price-listed").all_inner_texts():
        assert SYMBOLS[code].lstrip("S") in price, (code, price)


def _no_english_of_its_own(page: Page, turn: Locator) -> None:
    texts = page.evaluate(UI_TEXT_JS, PRODUCT_TEXT)
    # The reply quotes listings (titles, brands, attribute values as listed): take those out,
    # then what is left is the assistant's own words.
    quoted = set(
        turn.locator(".card-title, .rejected-title, .card-brand").all_inner_texts()
        + turn.locator(".bubble-text td").all_inner_texts()
    )
    reply = turn.locator(".bubble-text").inner_text()
    for listing in sorted(quoted, key=len, reverse=True):
        reply = reply.replace(listing.strip(), " ")
    reply = re.sub(r"\[[^\]]*\]|「[^」]*」|\b\d+\.\s.*", " ", reply)  # quoted and listed titles
    words = {
        w.casefold()
        for text in [*texts, reply]
        for w in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", text)
    }
    english = sorted(words - LATIN_ALLOWED)
    assert not english, english


PICTURES_LOADED_JS = """async (turn) => {
  const before = turn.getBoundingClientRect().height;
  const pictures = [...turn.querySelectorAll("img")];
  for (const img of pictures) img.loading = "eager";
  await Promise.all(pictures.map((img) => img.decode().catch(() => null)));
  await new Promise(requestAnimationFrame);
  return [before, turn.getBoundingClientRect().height];
}"""


def _pictures_keep_the_turn_in_shape(turn: Locator) -> None:
    """A turn keeps its height when its pictures arrive: anything it grows by pushes the turns
    below it, the newest among them, out of view."""
    before, after = turn.evaluate(PICTURES_LOADED_JS)
    assert abs(after - before) <= 1, (before, after)


def _check_turn(page: Page, turn: Locator, *, chinese: bool) -> None:
    _pictures_keep_the_turn_in_shape(turn)
    _inside_viewport(page, ".topbar")
    _inside_viewport(page, "#chat-input")
    assert page.evaluate("window.scrollY") == 0
    expect(_reply_of(turn)).to_be_in_viewport()
    empty = page.evaluate(EMPTY_SHARE_JS, BACKGROUND)
    assert empty <= MAX_EMPTY_SHARE, f"{empty:.0%} of the screen is empty"
    _currencies_agree(page, turn)
    if chinese:
        _no_english_of_its_own(page, turn)


@pytest.mark.parametrize(
    ("layout", "locale", "viewport", "turns"),
    [
        ("desktop-zh", "zh-CN", DESKTOP_TALL, CHINESE_TURNS),
        ("phone-en", "en-US", PHONE, ENGLISH_TURNS),
    ],
)
def test_an_eight_turn_conversation_keeps_the_page_in_place(
    browser_page_factory: Callable[..., Page],
    live_server: RunningServer,
    layout: str,
    locale: str,
    viewport: dict[str, int],
    turns: list[str],
) -> None:
    page = browser_page_factory(locale=locale, viewport=viewport)
    register(page, live_server)
    for index, message in enumerate(turns):
        turn = ask(page, message)
        if index == COMPARE_TURN:
            expect(turn.locator(".bubble-text table")).to_be_visible()
            expect(turn.locator(".bubble-text table th").nth(1)).not_to_be_empty()
        _check_turn(page, turn, chinese=locale.startswith("zh"))
        if index in (0, len(turns) - 1):
            screenshot(page, f"{layout}-turn{index + 1}")


def test_reply_markdown_is_rendered_and_sanitised(
    browser_page_factory: Callable[..., Page], live_server: RunningServer
) -> None:
    """Bold, lists and tables render; markup a reply must not carry (an image with a script
    handler, a javascript: link, a script tag) does not survive."""
    page = browser_page_factory(locale="en-US", viewport=DESKTOP_TALL)
    register(page, live_server)
    reply = (
        "**Top pick** and a list:\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        '<img src=x onerror="window.pwned=1"> [click](javascript:window.pwned=2) '
        "<script>window.pwned=3</script> [shop](https://item.jd.com/1.html)"
    )
    frames = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": reply},
        {"type": "TEXT_MESSAGE_END", "messageId": "m"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    body = "".join(f"data: {json.dumps(frame)}\n\n" for frame in frames)
    page.route(
        "**/api/agent",
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=body),
    )
    turn = ask(page, "anything")
    text = turn.locator(".bubble-text")
    expect(text.locator("strong")).to_have_text("Top pick")
    expect(text.locator("ul li")).to_have_count(2)
    expect(text.locator("table td")).to_have_text(["1", "2"])
    expect(text.locator("img, script")).to_have_count(0)
    expect(text.locator("a[href^='javascript']")).to_have_count(0)
    link = text.locator("a", has_text="shop")
    expect(link).to_have_attribute("href", "https://item.jd.com/1.html")
    expect(link).to_have_attribute("target", "_blank")
    assert page.evaluate("window.pwned") is None
