"""Build a deck in the builder as a user would: add cards, see the problems update, save,
export, import it back."""

import re

from playwright.sync_api import expect

from cards.models import Card
from decks.models import Deck


def french_cards(n=18) -> list[Card]:
    """Cards for a Waterloo French deck at scale 1/2 (18 cards; no Terrain of another battle)."""
    return list(Card.objects.filter(army="french").exclude(type="terrain").order_by("number")[:n])


def test_build_valid_deck_see_duplicate_save_export_import(logged_in_page, live_server):
    page = logged_in_page
    page.get_by_role("link", name="Decks").first.click()
    expect(page.get_by_test_id("no-decks")).to_be_visible()

    # A new Waterloo French standard deck at scale 1/2: 18 cards.
    page.get_by_label("Name").fill("Armée du Nord")
    page.get_by_label("Battle").select_option("waterloo")
    page.get_by_label("Army").select_option("french")
    page.get_by_label("Kind").select_option("standard")
    page.get_by_label("Scale").fill("1/2")
    page.get_by_role("button", name="Create deck").click()
    expect(page.get_by_test_id("deck-name")).to_have_text("Armée du Nord")
    deck = Deck.objects.get(name="Armée du Nord")
    page.evaluate("window.__notReloaded = true")

    cards = french_cards()
    rows = page.get_by_test_id("deck-row")
    state = page.get_by_test_id("deck-state")
    for i, card in enumerate(cards[:-1], start=1):
        page.get_by_test_id(f"add-{card.number}").click()
        expect(rows).to_have_count(i)
    expect(state).to_have_attribute("data-state", "invalid")
    expect(page.locator("[data-code=deck_size]")).to_be_visible()
    expect(page.get_by_test_id("fig-size")).to_have_text("17 / 18")

    # The last card through the search box, in the query language.
    last = cards[-1]
    page.get_by_test_id("deck-search").fill(f"number:{last.number}")
    expect(page.get_by_test_id("catalogue-count")).to_contain_text("1 French card")
    page.get_by_test_id(f"add-{last.number}").click()
    expect(rows).to_have_count(18)
    expect(state).to_have_attribute("data-state", "valid")
    expect(page.locator(".problem-error")).to_have_count(0)
    expect(page.locator(".no-problems")).to_be_visible()
    expect(page.get_by_test_id("warnings")).to_contain_text("18 warnings")  # alice owns none
    expect(page.get_by_test_id("fig-muster")).to_have_text("9")
    expect(page.locator(".deck-chart")).to_be_visible()

    # A second copy of a card: the duplicate problem appears at once.
    page.get_by_test_id(f"add-{last.number}").click()
    duplicate = page.locator("[data-code=duplicate]")
    expect(duplicate).to_be_visible()
    expect(duplicate).to_contain_text(f"#{last.number} {last.name} appears 2 times")
    expect(state).to_have_attribute("data-state", "invalid")
    page.get_by_role("button", name=f"One fewer {last.name}").click()
    expect(duplicate).to_have_count(0)
    expect(state).to_have_attribute("data-state", "valid")
    assert page.evaluate("window.__notReloaded") is True  # every edit updated in place
    assert deck.versions.count() == 1  # edits are not saved

    page.get_by_test_id("save-note").fill("first muster")
    page.get_by_test_id("save").click()
    expect(page.locator(".messages")).to_contain_text("Saved version 2 (valid)")
    latest = deck.latest
    assert latest.valid and sorted(n for n, _, _ in latest.entries) == [c.number for c in cards]

    # Export, then import the text back as a new deck.
    page.get_by_test_id("export-link").click()
    text = page.get_by_test_id("export-text").input_value()
    assert last.name in text
    page.goto("/decks/import/")
    page.get_by_label("Deck list (text)").check()
    page.get_by_label("Deck list or deck code").fill(text)
    page.get_by_label("Name").fill("Imported")
    page.get_by_label("Battle").select_option("waterloo")
    page.get_by_label("Army").select_option("french")
    page.get_by_label("Scale").fill("1/2")
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("deck-name")).to_have_text("Imported")
    expect(page.get_by_test_id("deck-state")).to_have_attribute("data-state", "valid")
    numbers = [int(n) for n in page.get_by_test_id("deck-row").evaluate_all(
        "rows => rows.map(r => r.dataset.number)")]
    assert sorted(numbers) == [c.number for c in cards]


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

    from cards import collection_services
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
