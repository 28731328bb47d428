"""The shopper's page in headless Chromium against the real app and agent.

Each flow registers a fresh account, so flows never see each other's memory. Screenshots of
the main states are written to docs/screenshots/ (linked from the README).
"""

from __future__ import annotations

import io
import json
import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.web.conftest import DESKTOP, PHONE, StoreOutage
from tests.web.server import RunningServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TURN_TIMEOUT_MS = 60_000
PLASTIC = re.compile(r"plastic|塑料|塑胶", re.IGNORECASE)
PASSWORD = "correct-horse-battery"


def screenshot(page: Page, name: str) -> None:
    """Save a screenshot for the README, quantized to 256 colours (a third of the bytes; flat
    UI colours survive it unchanged)."""
    from PIL import Image

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with Image.open(io.BytesIO(page.screenshot())) as image:
        palette = image.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE)
        palette.save(SCREENSHOTS / f"{name}.png", optimize=True)


def show_results(turn: Locator) -> None:
    """Scroll the chat so a turn's cards fill the screen, with the end of the reply above."""
    turn.locator(".results").evaluate(
        "el => { el.scrollIntoView({block: 'start'}); el.closest('.chat-log').scrollBy(0, -90); }"
    )


def register(page: Page, server: RunningServer) -> str:
    username = f"web_{uuid.uuid4().hex[:10]}"
    page.goto(server.url)
    page.locator("#auth-switch").click()
    page.locator("#auth-username").fill(username)
    page.locator("#auth-password").fill(PASSWORD)
    page.locator("#auth-submit").click()
    expect(page.locator("#app-view")).to_be_visible()
    expect(page.locator("#auth-view")).to_be_hidden()
    return username


def ask(page: Page, message: str, *, expect_state: str = "done") -> Locator:
    """Send a message with the keyboard and return its turn once the run has ended."""
    index = page.locator(".turn").count()
    page.locator("#chat-input").fill(message)
    page.locator("#chat-input").press("Enter")
    turn = page.locator(".turn").nth(index)
    expect(turn).to_have_attribute("data-state", expect_state, timeout=TURN_TIMEOUT_MS)
    return turn


def expect_results(turn: Locator) -> None:
    """Cards with listed prices, ratings and why-chips; the four stages all done."""
    cards = turn.locator(".card")
    expect(cards.first).to_be_visible()
    for card in cards.all():
        expect(card.locator(".price-listed")).to_have_text(re.compile(r"\d"))
        expect(card.locator(".card-title")).not_to_be_empty()
    expect(turn.locator(".why-chip").first).to_be_visible()
    expect(turn.locator(".platform-group").first).to_be_visible()
    expect(turn.locator('.stage[data-state="done"]')).to_have_count(4)
    expect(turn.locator('.stage[data-stage="searching"]')).to_contain_text(re.compile(r"\d"))
    expect(turn.locator(".perso")).to_be_visible()


def card_titles(turn: Locator) -> list[str]:
    return turn.locator(".card-title").all_inner_texts()


def excluded_plastic(turn: Locator) -> Locator:
    """The turn's set-aside reasons that name the plastic dislike."""
    return turn.locator(".reason-chip", has_text=PLASTIC)


def set_aside_for_plastic(turn: Locator) -> set[str]:
    """Titles of the products the turn set aside because of the plastic dislike."""
    items = turn.locator(".set-aside-list li", has_text=PLASTIC)
    return {title.strip() for title in items.locator(".rejected-title").all_text_contents()}


def memory_chip(page: Page, key: str) -> Locator:
    return page.locator(f'#memory-panel .pref-chip[data-key="{key}"]')


def test_chinese_flow_remembers_edits_and_forgets_a_dislike(
    zh_page: Page, live_server: RunningServer
) -> None:
    page = zh_page
    page.goto(live_server.url)
    expect(page.locator("#auth-submit")).to_have_text("登录")
    screenshot(page, "desktop-login-zh")
    register(page, live_server)

    first = ask(page, "不要塑料的耳机")
    expect_results(first)
    expect(first.locator(".bubble-text")).not_to_be_empty()
    expect(excluded_plastic(first).first).to_be_visible()
    assert not [t for t in card_titles(first) if PLASTIC.search(t)]
    expect(first.locator(".remembered")).to_contain_text("已记住")
    expect(first.locator(".remembered")).to_contain_text("不要塑料 (数码电子)")

    chip = memory_chip(page, "dislike:material:electronics:plastic")
    expect(chip).to_be_visible()
    expect(chip).to_contain_text("不要塑料")
    expect(chip).to_contain_text("必须")
    show_results(first)
    screenshot(page, "desktop-zh-results")

    page.set_viewport_size(PHONE)
    show_results(first)
    screenshot(page, "phone-zh-results")
    page.locator("#panel-open").click()
    expect(chip).to_be_in_viewport()
    screenshot(page, "phone-zh-memory")
    page.keyboard.press("Escape")
    expect(chip).not_to_be_in_viewport()
    page.set_viewport_size(DESKTOP)

    # Correct the memory: make the dislike global (a domain-scoped one applies by relevance).
    chip.locator(".pref-main").click()
    editor = chip.locator(".pref-editor")
    expect(editor).to_be_visible()
    show_results(first)
    screenshot(page, "desktop-zh-memory-edit")
    editor.get_by_label("品类（留空 = 全局）").fill("")
    editor.get_by_role("button", name="保存").click()
    chip = memory_chip(page, "dislike:material::plastic")
    expect(chip).to_contain_text("全局")
    expect(memory_chip(page, "dislike:material:electronics:plastic")).to_have_count(0)

    page.locator("#new-chat").click()
    second = ask(page, "推荐头戴式耳机")
    expect_results(second)
    expect(excluded_plastic(second).first).to_be_visible()
    assert not [t for t in card_titles(second) if PLASTIC.search(t)]
    kept_out = set_aside_for_plastic(second)

    page.locator("#tab-session").click()
    expect(page.locator("#session-panel .session-intent")).to_be_visible()
    expect(page.locator("#session-panel .session-rejected")).to_contain_text(PLASTIC)
    show_results(second)
    screenshot(page, "desktop-zh-session")
    page.locator("#tab-memory").click()

    chip.get_by_role("button", name="删除 不要塑料").click()
    expect(page.locator("#memory-panel .pref-chip")).to_have_count(0)
    expect(page.locator("#memory-panel .empty-note")).to_be_visible()

    page.locator("#new-chat").click()
    third = ask(page, "推荐头戴式耳机")
    expect_results(third)
    expect(excluded_plastic(third)).to_have_count(0)
    # Same question, same catalog: with the dislike forgotten, what it kept out comes back.
    assert kept_out & set(card_titles(third))


def test_english_flow_on_a_phone(en_phone_page: Page, live_server: RunningServer) -> None:
    page = en_phone_page
    page.goto(live_server.url)
    expect(page.locator("#auth-submit")).to_have_text("Log in")
    screenshot(page, "phone-login-en")
    username = register(page, live_server)
    expect(page.locator("#chat-input")).to_have_attribute(
        "placeholder", "What are you shopping for?"
    )

    first = ask(page, "headphones without plastic")
    expect_results(first)
    expect(excluded_plastic(first).first).to_be_visible()
    assert not [t for t in card_titles(first) if PLASTIC.search(t)]
    kept_out = set_aside_for_plastic(first)
    expect(first.locator(".remembered")).to_contain_text("Remembered: no plastic (Electronics)")
    show_results(first)
    screenshot(page, "phone-en-results")

    page.locator("#panel-open").click()
    chip = memory_chip(page, "dislike:material:electronics:plastic")
    expect(chip).to_be_in_viewport()
    expect(chip).to_contain_text("no plastic")
    expect(chip).to_contain_text("must")
    screenshot(page, "phone-en-memory")
    chip.get_by_role("button", name="Delete no plastic").click()
    expect(page.locator("#memory-panel .pref-chip")).to_have_count(0)
    page.locator("#panel-close").click()

    page.locator("#new-chat").click()
    second = ask(page, "headphones")
    expect_results(second)
    expect(excluded_plastic(second)).to_have_count(0)
    assert kept_out & set(card_titles(second))

    # The token lives for the tab's session: a reload keeps the shopper signed in.
    page.reload()
    expect(page.locator("#app-view")).to_be_visible()
    expect(page.locator(".history .msg-user")).to_have_text(["headphones"])
    ask(page, "over-ear headphones")

    # The language toggle re-labels everything, including what is already on screen.
    page.get_by_role("button", name="Switch language to Chinese").click()
    expect(page.locator("#chat-input")).to_have_attribute("placeholder", "想买点什么？")
    expect(page.locator('.stage[data-stage="understanding"]').first).to_have_text("理解需求")
    page.get_by_role("button", name="切换为英文").click()

    page.get_by_role("button", name="Log out").click()
    expect(page.locator("#auth-view")).to_be_visible()
    assert page.evaluate("sessionStorage.getItem('cartwise.token')") is None
    page.locator("#auth-username").fill(username)
    page.locator("#auth-password").fill("not-the-password")
    page.locator("#auth-submit").click()
    expect(page.locator("#auth-error")).to_contain_text("401")
    page.locator("#auth-password").fill(PASSWORD)
    page.locator("#auth-submit").click()
    expect(page.locator("#app-view")).to_be_visible()


def test_undo_and_keyboard_use_of_the_memory_panel(
    zh_page: Page, live_server: RunningServer
) -> None:
    page = zh_page
    register(page, live_server)
    expect(page.locator("#chat-input")).to_be_focused()
    turn = ask(page, "不要塑料的耳机")
    chip = memory_chip(page, "dislike:material:electronics:plastic")
    expect(chip).to_be_visible()

    # Keyboard only: open the chip's editor, land in its first field, close it with Escape.
    chip.locator(".pref-main").focus()
    page.keyboard.press("Enter")
    expect(chip.locator(".pref-editor select[name=polarity]")).to_be_focused()
    page.keyboard.press("Escape")
    expect(chip.locator(".pref-editor")).to_have_count(0)
    expect(chip.locator(".pref-main")).to_be_focused()
    page.locator("#tab-memory").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-session")).to_be_focused()
    expect(page.locator("#session-panel")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#memory-panel")).to_be_visible()

    turn.get_by_role("button", name="撤销本轮记住的内容").click()
    expect(turn.locator(".remembered")).to_contain_text("已撤销")
    expect(page.locator("#memory-panel .pref-chip")).to_have_count(0)


def test_a_store_outage_is_shown_with_retry(zh_page: Page, store_outage: StoreOutage) -> None:
    page = zh_page
    register(page, store_outage.server)
    store_outage.stop_redis()
    page.reload()
    expect(page.locator("#memory-panel .error-box")).to_contain_text("HTTP 503")
    expect(page.locator("#memory-panel .error-box .retry")).to_be_visible()
    page.locator("#tab-session").click()
    expect(page.locator("#session-panel .error-box")).to_contain_text("HTTP 503")
    page.locator("#tab-memory").click()

    turn = ask(page, "不要塑料的耳机", expect_state="error")
    error = turn.locator(".error-box")
    expect(error).to_be_visible()
    expect(error).to_contain_text("出了点问题")
    expect(error).to_contain_text("HTTP 503")
    expect(error.locator(".error-message")).not_to_be_empty()
    expect(turn.locator(".activity")).to_be_hidden()
    screenshot(page, "desktop-error-zh")

    error.get_by_role("button", name="重试").click()
    expect(page.locator(".turn")).to_have_count(1)
    expect(page.locator(".turn").first).to_have_attribute("data-state", "error")
    expect(page.locator(".turn .error-box .retry")).to_be_visible()


def test_rate_limit_and_run_errors_are_shown_then_retry_succeeds(
    zh_page: Page, live_server: RunningServer
) -> None:
    page = zh_page
    register(page, live_server)
    attempts: list[str] = []

    def agent_route(route: Route) -> None:
        attempts.append(route.request.method)
        if len(attempts) == 1:
            route.fulfill(
                status=429,
                content_type="application/json",
                body=json.dumps({"detail": "too many turns: wait 20 s"}),
            )
        elif len(attempts) == 2:
            broken = {
                "platform": "jd",
                "item_id": "1",
                "title": "木质耳机",
                "price": 459.0,
                "currency": "CNY",
                "price_base": 459.0,
                "image_url": "/static/no-such-image.png",
                "url": "",
                "rating": 4.5,
                "why": ["木质"],
            }
            frames = [
                {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
                {"type": "STEP_STARTED", "stepName": "understanding"},
                {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "正在"},
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "查找"},
                {"type": "STATE_SNAPSHOT", "snapshot": {"products": [broken]}},
                {"type": "RUN_ERROR", "message": "the index is being rebuilt", "code": "X"},
            ]
            body = "".join(f"data: {json.dumps(frame)}\n\n" for frame in frames)
            route.fulfill(status=200, content_type="text/event-stream", body=body)
        else:
            route.continue_()

    page.route("**/api/agent", agent_route)
    turn = ask(page, "不要塑料的耳机", expect_state="error")
    expect(turn.locator(".error-box")).to_contain_text("too many turns: wait 20 s (HTTP 429)")

    turn.get_by_role("button", name="重试").click()
    retried = page.locator(".turn").first
    expect(retried).to_have_attribute("data-state", "error")
    expect(retried.locator(".error-box")).to_contain_text("the index is being rebuilt")
    expect(retried.locator(".bubble-text")).to_have_text("正在查找")
    expect(retried.locator(".card .card-image.placeholder")).to_be_visible()
    expect(retried.locator('.stage[data-stage="understanding"]')).to_have_attribute(
        "data-state", "failed"
    )

    retried.get_by_role("button", name="重试").click()
    final = page.locator(".turn").first
    expect(final).to_have_attribute("data-state", "done", timeout=TURN_TIMEOUT_MS)
    expect_results(final)
    assert len(attempts) == 3


def test_personalization_and_price_compare_are_visible(
    zh_page: Page, live_server: RunningServer
) -> None:
    page = zh_page
    register(page, live_server)
    turn = ask(page, "我喜欢木质的耳机")
    expect_results(turn)
    badge = turn.locator(".perso")
    expect(badge).to_have_attribute("data-active", "true")
    expect(badge).to_contain_text("木")
    expect(turn.locator(".why-chip", has_text="符合你的偏好").first).to_be_visible()
    expect(memory_chip(page, "like:material:electronics:wood")).to_contain_text("喜欢")

    compare = turn.locator(".compare")
    compare.locator("summary").click()
    row = compare.locator(".compare-row").first
    expect(row).to_be_visible()
    expect(row.locator(".offer").nth(1)).to_be_visible()
    expect(row.locator(".offer.cheapest .badge")).to_have_text("最低价")
    expect(row.locator(".offer.cheapest .offer-price")).to_have_text(re.compile(r"\d"))
    compare.evaluate("el => el.scrollIntoView({block: 'center'})")
    screenshot(page, "desktop-zh-compare")


def _remember(page: Page, entry: dict[str, object]) -> None:
    """Write a preference through the page's own API client (the signed-in session)."""
    page.evaluate("entry => import('/static/api.js').then(m => m.api.addMemory(entry))", entry)


def test_the_memory_panel_groups_and_edits_by_recipient(
    zh_page: Page, live_server: RunningServer
) -> None:
    page = zh_page
    register(page, live_server)
    common = {"strength": "hard", "domain": ""}
    _remember(page, {**common, "polarity": "dislike", "category": "material", "slug": "plastic", "keywords": ["plastic", "塑料"]})  # fmt: skip
    _remember(page, {**common, "recipient": "mum", "polarity": "dislike", "category": "color", "slug": "purple", "keywords": ["purple", "紫色"]})  # fmt: skip
    _remember(page, {**common, "recipient": "mum", "polarity": "like", "category": "material", "slug": "wool", "strength": "soft", "keywords": ["wool", "羊毛"]})  # fmt: skip
    _remember(page, {**common, "recipient": "dad", "polarity": "dislike", "category": "color", "slug": "brown", "strength": "soft", "keywords": ["brown", "棕色"]})  # fmt: skip
    _remember(page, {**common, "recipient": "mum", "polarity": "dislike", "category": "material", "slug": "plastic", "keywords": ["plastic", "塑料"]})  # fmt: skip
    page.locator("#memory-refresh").click()

    groups = page.locator("#memory-panel .memory-recipient")
    expect(groups).to_have_count(3)
    expect(groups.nth(0)).to_have_attribute("data-recipient", "self")  # the shopper's own first
    expect(groups.nth(0).locator(".recipient-title")).to_contain_text("你的偏好")
    expect(page.locator('.memory-recipient[data-recipient="mum"] .recipient-title')).to_contain_text("妈妈的偏好")  # fmt: skip
    expect(page.locator('.memory-recipient[data-recipient="mum"] .pref-chip')).to_have_count(3)
    # The same key for two recipients is two chips.
    expect(memory_chip(page, "dislike:material::plastic")).to_have_count(2)
    screenshot(page, "desktop-zh-memory-recipients")

    # Dad's brown was really mum's: move it with the editor.
    chip = page.locator('.pref-chip[data-recipient="dad"]')
    chip.locator(".pref-main").click()
    chip.locator(".pref-editor input[name=recipient]").fill("mum")
    chip.locator(".pref-editor button[type=submit]").click()
    expect(page.locator('.memory-recipient[data-recipient="dad"]')).to_have_count(0)
    expect(page.locator('.memory-recipient[data-recipient="mum"] .pref-chip')).to_have_count(4)

    # Deleting mum's plastic leaves mine.
    mums = page.locator('.memory-recipient[data-recipient="mum"]')
    mums.locator('.pref-chip[data-key="dislike:material::plastic"] .pref-delete').click()
    expect(memory_chip(page, "dislike:material::plastic")).to_have_count(1)
    expect(memory_chip(page, "dislike:material::plastic")).to_have_attribute(
        "data-recipient", "self"
    )


def expect_pictures_and_links(turn: Locator, product_type: str) -> None:
    """Every card shows a drawn pictogram that loaded and links to its product page;
    the best card is of the requested type."""
    cards = turn.locator(".card")
    expect(cards.first).to_be_visible()
    expect(cards.first.locator("img.card-image")).to_have_attribute(
        "src", re.compile(rf"^/images/{product_type}/[a-z]+\.svg$")
    )
    for card in cards.all():
        image = card.locator("img.card-image")
        expect(image).to_have_attribute("src", re.compile(r"^/images/\w+/[a-z]+\.svg$"))
        image.scroll_into_view_if_needed()  # cards load their pictures lazily
        width = image.evaluate(
            "img => img.complete ? img.naturalWidth"
            " : new Promise(done => { img.onload = img.onerror = () => done(img.naturalWidth) })"
        )
        assert width > 0, image.get_attribute("src")
        expect(card.locator("a.card-link")).to_have_attribute("href", re.compile(r"^https://"))


def test_cards_show_a_picture_and_a_link(
    zh_page: Page, en_phone_page: Page, live_server: RunningServer
) -> None:
    register(zh_page, live_server)
    shelves = ask(zh_page, "推荐一个书架")
    expect_pictures_and_links(shelves, "bookshelf")
    show_results(shelves)
    screenshot(zh_page, "desktop-zh-cards-images")
    register(en_phone_page, live_server)
    raincoats = ask(en_phone_page, "a raincoat for my commute")
    expect_pictures_and_links(raincoats, "raincoat")
    show_results(raincoats)
    screenshot(en_phone_page, "phone-en-cards-images")
