"""Follow-ups on the page, in each language: the result list's sort and "more" controls, a
card's offers of the same model, and typed references ("第二个" / "the 2nd one")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.server import RunningServer
from tests.web.test_browser import ask, register, screenshot, show_results

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TURN_TIMEOUT_MS = 60_000
NUMBER = re.compile(r"[\d,]+(?:\.\d+)?")


def listed_prices(turn: Locator) -> list[float]:
    """Each card's first price: the shopper's currency for every card (converted, "≈", when
    listed in another)."""
    prices: list[float] = []
    for card in turn.locator(".card").all():
        text = card.locator(".price-listed").inner_text()
        match = NUMBER.search(text.replace("≈", ""))
        assert match is not None, text
        prices.append(float(match.group().replace(",", "")))
    return prices


def item_ids(turn: Locator) -> list[str]:
    return [card.get_attribute("data-item") or "" for card in turn.locator(".card").all()]


def click_and_wait(page: Page, button: Locator) -> Locator:
    """Click a result control; return the turn it started once it has finished."""
    index = page.locator(".turn").count()
    button.click()
    turn = page.locator(".turn").nth(index)
    expect(turn).to_have_attribute("data-state", "done", timeout=TURN_TIMEOUT_MS)
    return turn


def test_chinese_sort_more_and_an_ordinal(zh_page: Page, live_server: RunningServer) -> None:
    page = zh_page
    register(page, live_server)
    first = ask(page, "推荐头戴式耳机")
    expect(first.locator(".result-controls")).to_be_visible()

    by_price = click_and_wait(page, first.locator('.sort-button[data-sort="price_asc"]'))
    expect(by_price.locator(".msg-user")).to_contain_text("按价格从低到高排序")
    expect(by_price.locator('.sort-button[data-sort="price_asc"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    prices = listed_prices(by_price)
    assert len(prices) >= 3 and prices == sorted(prices)

    more = click_and_wait(page, by_price.locator(".more-button"))
    expect(more.locator(".msg-user")).to_contain_text("换一批")
    assert set(item_ids(more)) and not set(item_ids(more)) & set(item_ids(by_price))
    expect(more.locator(".result-page")).to_contain_text("第 2 页")

    second_title = more.locator(".card-title").nth(1).inner_text()
    answer = ask(page, "第二个有链接吗")
    expect(answer.locator(".bubble-text")).to_contain_text(second_title)
    expect(answer.locator(".bubble-text")).to_contain_text(re.compile("链接"))
    show_results(more)
    screenshot(page, "desktop-zh-followups")


def test_english_offers_cheaper_and_where_cheapest(
    en_phone_page: Page, live_server: RunningServer
) -> None:
    page = en_phone_page
    register(page, live_server)
    first = ask(page, "over-ear headphones")
    offers = first.locator(".card-offers").first
    expect(offers).to_be_visible()
    expect(offers.locator(".card-offer")).not_to_have_count(1)
    # One model on several platforms is one card: no two cards share a title's model.
    titles = first.locator(".card-title").all_inner_texts()
    assert len(titles) == len(set(titles))

    dearest = click_and_wait(page, first.locator('.sort-button[data-sort="price_desc"]'))
    expect(dearest.locator(".msg-user")).to_contain_text("sort by price, high to low")
    prices = listed_prices(dearest)
    assert prices == sorted(prices, reverse=True)
    cheaper = ask(page, "anything cheaper than the first one?")
    cheaper_prices = listed_prices(cheaper)
    assert cheaper_prices and all(price < prices[0] for price in cheaper_prices)
    expect(cheaper.locator(".bubble-text")).not_to_contain_text("cheaper")

    where = ask(page, "where is the first one cheapest?")
    expect(where.locator(".bubble-text")).to_contain_text(
        re.compile(r"is (cheapest|in stock only) on")
    )
    expect(where.locator(".bubble-text")).to_contain_text(re.compile(r"\$\d"))
    screenshot(page, "phone-en-followups")
