"""Search the catalogue and open a card in a real browser, as a user would."""

import re

from playwright.sync_api import expect

from cards.models import Card


def test_search_updates_results_in_place(page):
    page.goto("/cards/")
    count = page.get_by_test_id("result-count")
    expect(count).to_contain_text("300 cards")
    page.evaluate("window.__notReloaded = true")
    expected = Card.objects.filter(army="french", type="cavalry").count()

    page.get_by_test_id("search-box").press_sequentially("army:french type:cavalry", delay=20)
    expect(count).to_contain_text(f"{expected} card")
    expect(page.locator(".card-tile")).to_have_count(expected)
    assert page.evaluate("window.__notReloaded") is True  # updated without a reload
    expect(page).to_have_url(re.compile(r"q=army%3Afrench\+type%3Acavalry"))
    # Polled from here: wait_for_function evaluates its predicate with eval() inside the page,
    # which the Content-Security-Policy (no 'unsafe-eval') rightly refuses.
    width = "document.querySelector('.card-tile img').naturalWidth"
    for _ in range(100):
        if page.evaluate(width) == 250:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(width) == 250  # the card face (an SVG drawn on the server) loaded

    # A filter select narrows it further, still in place.
    page.select_option("select[name=morale]", "b")
    expected_b = Card.objects.filter(army="french", type="cavalry", morale="b").count()
    expect(count).to_contain_text(f"{expected_b} card")
    assert page.evaluate("window.__notReloaded") is True


def test_bad_query_shows_error_with_caret(page):
    page.goto("/cards/")
    page.get_by_test_id("search-box").fill("army:french bp>=x")
    page.get_by_test_id("search-box").press("Enter")
    error = page.get_by_test_id("query-error")
    expect(error).to_be_visible()
    expect(page.get_by_test_id("query-caret")).to_have_attribute("data-position", "16")


def test_table_toggle_and_open_card_and_switch_printing(page):
    page.goto("/cards/?q=napoleon")
    page.get_by_label("Table").check()
    expect(page.get_by_test_id("card-table")).to_be_visible()
    page.get_by_role("link", name="Napoléon").first.click()
    expect(page.get_by_test_id("card-name")).to_have_text("Napoléon")
    face = page.locator("#card-face svg")
    expect(face).to_have_attribute("data-finish", "bronze")
    page.evaluate("window.__notReloaded = true")
    page.locator(".finish-switch").get_by_role("link", name="Gold").click()
    expect(face).to_have_attribute("data-finish", "gold")
    expect(page).to_have_url(re.compile(r"finish=gold"))
    expect(page.locator(".finish-switch a[aria-current]")).to_have_text("Gold")
    assert page.evaluate("window.__notReloaded") is True
    page.go_back()
    expect(page.locator("#card-face svg")).to_have_attribute("data-finish", "bronze")


def test_works_without_javascript(browser, live_server, catalogue):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/cards/")
    page.fill("input[name=q]", "type:general")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"q=type%3Ageneral"))
    generals = Card.objects.filter(type="general").count()
    expect(page.get_by_test_id("result-count")).to_contain_text(f"{generals} cards")
    context.close()
