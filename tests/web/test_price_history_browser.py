"""Price history on the page: a card's deal badge and 180-day chart, a watch made in the
conversation shown (and editable) in the memory panel, the alert it raises shown with the
next turn and in the panel, and a watch cancelled from the panel that then never fires.
Screenshots: docs/screenshots/desktop-zh-price-watch and -alert."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from cartwise.memory import create_watch_store
from cartwise.memory.prices import Trigger
from cartwise.settings import Settings
from tests.web.server import RunningServer
from tests.web.test_browser import ask, register, screenshot, show_results

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_chart_badge_watch_and_alert(
    zh_page: Page, live_server: RunningServer, web_settings: Settings
) -> None:
    page = zh_page
    user = register(page, live_server)
    first = ask(page, "推荐一款蓝牙耳机")
    card = first.locator(".card").first
    expect(card.locator(".price-history .deal-badge")).to_be_visible()
    expect(card.locator(".price-history .price-chart path")).to_have_count(1)
    expect(card.locator(".price-history-note")).to_contain_text("90天最低")
    deals = first.locator(".deal-badge").all_inner_texts()
    assert set(deals) <= {"90天最低价", "低于常价", "常规价", "高于常价"} and deals

    watch_turn = ask(page, "第一个降到100以下提醒我")
    expect(watch_turn.locator(".bubble-text")).to_contain_text("提醒你")
    watch = page.locator("#memory-panel .watch-item")
    expect(watch).to_have_count(1)
    expect(watch).to_contain_text("降到 ¥100 或更低")

    # Edited in the panel: a new target.
    watch.locator(".watch-main").click()
    page.locator("#memory-panel .watch-target").fill("120")
    page.locator("#memory-panel .watch-editor button[type=submit]").click()
    expect(watch).to_contain_text("降到 ¥120 或更低")
    show_results(first)
    screenshot(page, "desktop-zh-price-watch")

    # An ingest brings another platform's offer of the model under the target.
    store = create_watch_store(web_settings)
    try:
        (made,) = store.list(user)
        raised = store.fire(
            [Trigger(made.model, "jd", "X1", 109.0, "CNY", 109.0, True)],
            web_settings.fx_to_base,
            now=time.time(),
        )
        assert len(raised) == 1
    finally:
        store.close()

    after = ask(page, "谢谢")
    expect(after.locator(".alert-notice")).to_contain_text("¥109")
    expect(page.locator("#memory-panel .alert-item")).to_have_count(1)
    expect(page.locator("#memory-panel .watch-item")).to_have_count(0)  # fired: no longer live
    after.locator(".alert-notice").scroll_into_view_if_needed()
    screenshot(page, "desktop-zh-price-alert")

    # Cancelled in the panel: gone from it, and an offer meeting its target raises nothing.
    ask(page, "第二个降到500以下提醒我")
    expect(watch).to_have_count(1)
    expect(watch).to_contain_text("降到 ¥500 或更低")
    watch.locator(".watch-cancel").click()
    expect(watch).to_have_count(0)
    store = create_watch_store(web_settings)
    try:
        (cancelled,) = (w for w in store.list(user, include_closed=True) if w.target == 500)
        assert cancelled.status == "cancelled"
        trigger = Trigger(cancelled.model, "jd", "X2", 399.0, "CNY", 399.0, True)
        assert store.fire([trigger], web_settings.fx_to_base, now=time.time()) == []
    finally:
        store.close()
