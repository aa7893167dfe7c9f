"""Build decks in the builder as a user would: a custom deck (15.0) over its BP limit, saved,
exported and imported back; a dealt deck (2.0) with its pool."""

import re

from playwright.sync_api import expect

from cards.models import Card
from decks.models import Deck


def french_cards(n=18) -> list[Card]:
    """Cards for a Waterloo French deck at scale 1/2 (18 cards; no Terrain of another battle)."""
    return list(Card.objects.filter(army="french").exclude(type="terrain").order_by("number")[:n])


def test_15_0_custom_deck_over_the_limit_shows_the_error_then_save_export_import(
        logged_in_page, live_server):
    page = logged_in_page
    page.get_by_role("link", name="Decks").first.click()
    expect(page.get_by_test_id("no-decks")).to_be_visible()

    # The first choice is the kind. A custom Waterloo French deck at scale 1/12: BP 380/12.
    page.get_by_label("Kind").select_option("custom")
    page.get_by_label("Name").fill("Armée du Nord")
    page.get_by_label("Battle").select_option("waterloo")
    page.get_by_label("Army").select_option("french")
    page.get_by_label("Scale").fill("1/12")
    page.get_by_role("button", name="Create deck").click()
    expect(page.get_by_test_id("deck-name")).to_have_text("Armée du Nord")
    expect(page.get_by_test_id("deck-kind")).to_have_text("Custom Battle Points (15.0)")
    deck = Deck.objects.get(name="Armée du Nord")
    page.evaluate("window.__notReloaded = true")

    rows = page.get_by_test_id("deck-row")
    state = page.get_by_test_id("deck-state")
    napoleon, guard = Card.objects.get(number=1), Card.objects.get(number=67)
    page.get_by_test_id("add-1").click()
    expect(rows).to_have_count(1)
    expect(state).to_have_attribute("data-state", "valid")
    expect(page.get_by_test_id("fig-bp")).to_have_text(f"{napoleon.bp} / 31")

    # One card more through the search box: over the limit, the error is shown at once.
    page.get_by_test_id("deck-search").fill("number:67")
    expect(page.get_by_test_id("catalogue-count")).to_contain_text("1 French card")
    page.get_by_test_id("add-67").click()
    expect(rows).to_have_count(2)
    over = page.locator("[data-code=bp_exceeded]")
    expect(over).to_be_visible()
    total = napoleon.bp + guard.bp
    expect(over).to_contain_text(f"the cards total {total} BP")
    expect(over).to_contain_text("may not exceed 31 BP")
    expect(state).to_have_attribute("data-state", "invalid")
    expect(page.get_by_test_id("fig-bp")).to_have_text(f"{total} / 31")
    page.get_by_test_id("remove-67").click()
    expect(over).to_have_count(0)
    expect(state).to_have_attribute("data-state", "valid")

    # A General twice: 15.0 never allows it.
    page.get_by_test_id("deck-search").fill("number:1")
    page.get_by_test_id("add-1").click()
    expect(page.locator("[data-code=duplicate_general]")).to_be_visible()
    # said as a player would (issue 28), not as the rule's code
    expect(page.locator("[data-code=duplicate_general]")).to_contain_text(
        "A General more than once")
    expect(page.get_by_test_id("problems")).not_to_contain_text("duplicate_general")
    page.get_by_role("button", name=f"One fewer {napoleon.name}").click()
    expect(page.locator("[data-code=duplicate_general]")).to_have_count(0)
    assert page.evaluate("window.__notReloaded") is True  # every edit updated in place
    assert deck.versions.count() == 1  # edits are not saved

    page.get_by_test_id("save-note").fill("the Emperor alone")
    page.get_by_test_id("save").click()
    expect(page.locator(".messages")).to_contain_text("Saved version 2 (valid)")
    assert deck.latest.valid and deck.latest.entries == [[1, 1, None]]

    # Export, then paste the text into Import with every setting left at its default: the
    # export's first line gives battle, army, kind and scale.
    page.get_by_test_id("export-link").click()
    text = page.get_by_test_id("export-text").input_value()
    assert text.startswith("// Waterloo, French, custom deck, scale 1/12")
    page.goto("/decks/import/")
    page.get_by_label("Deck list (text)").check()
    page.get_by_label("Deck list or deck code").fill(text)
    page.get_by_label("Name").fill("Imported")
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("deck-name")).to_have_text("Imported")
    expect(page.get_by_test_id("deck-state")).to_have_attribute("data-state", "valid")
    imported = Deck.objects.get(name="Imported")
    assert (imported.battle, imported.kind, imported.scale) == ("waterloo", "custom", "1/12")


def test_2_0_create_a_dealt_deck_see_its_pool_and_figures(logged_in_page, live_server):
    page = logged_in_page
    page.goto(f"{live_server.url}/decks/")
    page.get_by_label("Kind").select_option("dealt")
    page.get_by_label("Dealt from").select_option("set")
    page.get_by_label("Name").fill("Quatre Bras, as dealt")
    page.get_by_label("Battle").select_option("quatre-bras")
    page.get_by_label("Army").select_option("french")
    page.get_by_label("Scale").fill("1")
    page.get_by_role("button", name="Create deck").click()
    expect(page.get_by_test_id("deck-name")).to_have_text("Quatre Bras, as dealt")
    expect(page.get_by_test_id("dealt-explainer")).to_contain_text("deals 14 cards")
    expect(page.get_by_test_id("deck-search")).to_have_count(0)  # nothing to pick
    expect(page.get_by_test_id("fig-size")).to_have_text("14")
    expect(page.get_by_test_id("fig-muster")).to_have_text("10")
    expect(page.get_by_test_id("fig-rate")).to_have_text("1 a turn")
    expect(page.get_by_test_id("deck-state")).to_have_attribute("data-state", "valid")
    deck = Deck.objects.get(name="Quatre Bras, as dealt")
    assert (deck.kind, deck.pool, deck.latest.entries) == ("dealt", "set", [])

    # Alice owns no cards: dealt from her collection, the pool is too small.
    page.get_by_test_id("deck-settings").locator("summary").click()
    page.get_by_test_id("pool-select").select_option("collection")
    expect(page.locator("[data-code=pool_too_small]")).to_contain_text("has 0 distinct")
    expect(page.get_by_test_id("fig-pool")).to_have_text("0 cards")
    expect(page.get_by_test_id("deck-state")).to_have_attribute("data-state", "invalid")


def test_import_errors_show_line_numbers(logged_in_page):
    page = logged_in_page
    page.goto("/decks/import/")
    page.get_by_label("Deck list or deck code").fill("1 #1\n2 Napoleom\n")
    page.get_by_label("Name").fill("Bad")
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("import-errors")).to_contain_text("line 2:")
    assert not Deck.objects.exists()


def test_only_cards_i_own_toggle(logged_in_page):
    from django.contrib.auth.models import User

    from cards.collection import services as collection_services
    from decks import services

    alice = User.objects.get(username="alice")
    collection_services.add_copies(alice, 1, "gold", 2)
    deck = services.create_deck(alice, name="Mine", battle="waterloo", army="french")
    page = logged_in_page
    page.goto(f"/decks/{deck.pk}/")
    page.get_by_test_id("only-owned").check()
    expect(page.get_by_test_id("catalogue-count")).to_have_text(
        re.compile(r"1 French card that you own"))
    expect(page.get_by_test_id("pick-1")).to_contain_text("own 2")


def _wait_for(page, condition, timeout_ms=5_000):
    """Let Playwright deliver events (a dialog) until ``condition()`` holds."""
    for _ in range(timeout_ms // 100):
        if condition():
            return True
        page.wait_for_timeout(100)
    return condition()


def test_unsaved_changes_ask_before_leaving_and_save_clears_it(logged_in_page, live_server):
    from django.contrib.auth.models import User

    from decks import services

    alice = User.objects.get(username="alice")
    deck = services.create_deck(alice, name="Vieille Garde", battle="waterloo", army="french",
                                scale="1/2")
    builder_url = f"{live_server.url}/decks/{deck.pk}/"
    page = logged_in_page
    dialogs = []

    def on_dialog(dialog):
        dialogs.append(dialog.type)
        dialog.dismiss()  # "stay on this page"

    page.on("dialog", on_dialog)
    page.goto(builder_url)
    expect(page.get_by_test_id("deck-description")).to_have_count(0)
    card = french_cards(1)[0]

    # A card added, not saved: leaving asks, and staying keeps the working list.
    page.get_by_test_id(f"add-{card.number}").click()
    expect(page.get_by_test_id("deck-row")).to_have_count(1)
    expect(page.get_by_test_id("unsaved")).to_be_visible()
    page.get_by_role("link", name="History").click()
    assert _wait_for(page, lambda: dialogs), "no beforeunload prompt"
    assert dialogs == ["beforeunload"]
    page.wait_for_timeout(300)
    assert page.url == builder_url
    expect(page.get_by_test_id("deck-row")).to_have_count(1)
    assert deck.versions.count() == 1

    # Name and description typed in the builder, saved with the version.
    page.get_by_test_id("deck-settings").locator("summary").click()
    page.get_by_test_id("deck-name-input").fill("La Garde")
    page.get_by_test_id("deck-description-input").fill("Ney's charge\n<b>not bold</b>")
    page.get_by_test_id("save").click()
    expect(page.locator(".messages")).to_contain_text("Saved version 2")
    assert dialogs == ["beforeunload"]  # Save itself leaves without asking
    expect(page.get_by_test_id("deck-name")).to_have_text("La Garde")
    expect(page.get_by_test_id("deck-description")).to_have_text("Ney's charge<b>not bold</b>")
    expect(page.get_by_test_id("unsaved")).to_have_count(0)

    # Saved: leaving does not ask.
    page.get_by_role("link", name="History").click()
    page.wait_for_url(f"{builder_url}history/")
    assert dialogs == ["beforeunload"]

    # The description survives a reload; typing in it alone makes the page ask again.
    page.goto(builder_url)
    page.reload()
    description = page.get_by_test_id("deck-description-input")
    expect(description).to_have_value("Ney's charge\n<b>not bold</b>")
    expect(page.get_by_test_id("deck-row")).to_have_count(1)
    deck.refresh_from_db()
    assert (deck.name, deck.description) == ("La Garde", "Ney's charge\n<b>not bold</b>")
    page.get_by_test_id("deck-settings").locator("summary").click()
    description.fill("Ney's charge, repulsed")
    page.get_by_role("link", name="Export").click()
    assert _wait_for(page, lambda: len(dialogs) == 2), "no prompt for an unsaved description"
    assert dialogs == ["beforeunload", "beforeunload"]
    assert page.url == builder_url
