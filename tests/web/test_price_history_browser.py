"""Price history on the page: a card's deal badge and 180-day chart, a watch made in the
conversation shown (and editable) in the memory panel, the alert it raises shown with the
next turn and in the panel, a watch cancelled from the panel that then never fires, and a
watch made shopping for mum shown as hers, with its alert; in English on a phone, the badge
and chart and a back-in-stock watch on a listing the reply left out, its alert, and the
watch re-armed from the alert. Screenshots: docs/screenshots/desktop-zh-price-watch and
-alert."""

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

    # Shopping for mum: the watch says it is hers, and so does its alert.
    ask(page, "给我妈推荐一款蓝牙耳机")
    ask(page, "第一个降到100以下提醒我")
    expect(watch).to_have_count(1)
    expect(watch.locator(".watch-for")).to_have_text("给妈妈")
    store = create_watch_store(web_settings)
    try:
        (hers,) = store.list(user)
        assert hers.recipient == "mum"
        trigger = Trigger(hers.model, "jd", "X3", 99.0, "CNY", 99.0, True)
        assert len(store.fire([trigger], web_settings.fx_to_base, now=time.time())) == 1
    finally:
        store.close()
    ask(page, "谢谢")
    expect(page.locator("#memory-panel .alert-item")).to_have_count(2)
    expect(page.locator("#memory-panel .alert-item").first.locator(".watch-for")).to_have_text(
        "给妈妈"
    )
    expect(page.locator("#memory-panel .alert-item").last.locator(".watch-for")).to_have_count(0)


def test_english_badge_chart_stock_watch_and_its_alert_on_a_phone(
    en_phone_page: Page, live_server: RunningServer, web_settings: Settings
) -> None:
    page = en_phone_page
    user = register(page, live_server)
    first = ask(page, "bluetooth earbuds")
    card = first.locator(".card").first
    expect(card.locator(".price-history .price-chart path")).to_have_count(1)
    expect(card.locator(".price-history-note")).to_contain_text("90-day low")
    deals = first.locator(".deal-badge").all_inner_texts()
    assert deals and set(deals) <= {"90-day low", "Below usual", "Usual price", "Above usual"}

    # The shown earbuds are in stock: the watch is on a listing the reply left out.
    asked = ask(page, "let me know when it's back in stock")
    expect(asked.locator(".bubble-text")).to_contain_text("back")
    page.locator("#panel-open").click()
    watch = page.locator("#memory-panel .watch-item")
    expect(watch).to_have_count(1)
    expect(watch).to_contain_text("back in stock")
    page.locator("#panel-close").click()

    store = create_watch_store(web_settings)
    try:
        (made,) = store.list(user)
        assert made.kind == "stock"
        restock = Trigger(made.model, made.platform, made.item_id, 99.0, "CNY", 99.0, True,
                          restocked=True)  # fmt: skip
        assert len(store.fire([restock], web_settings.fx_to_base, now=time.time())) == 1
    finally:
        store.close()

    after = ask(page, "thanks")
    expect(after.locator(".alert-notice")).to_contain_text("is back in stock on")
    page.locator("#panel-open").click()
    expect(page.locator("#memory-panel .alert-item")).to_have_count(1)
    expect(page.locator("#memory-panel .watch-item")).to_have_count(0)

    # Re-armed from its alert: live again in the panel, and the next restock fires it once more.
    page.locator("#memory-panel .alert-item .watch-rearm").click()
    expect(page.locator("#memory-panel .watch-item")).to_have_count(1)
    expect(page.locator("#memory-panel .watch-item")).to_contain_text("back in stock")
    expect(page.locator("#memory-panel .watch-rearm")).to_have_count(0)
    store = create_watch_store(web_settings)
    try:
        assert store.get(user, made.id).status == "active"
        assert len(store.fire([restock], web_settings.fx_to_base, now=time.time())) == 1
    finally:
        store.close()
