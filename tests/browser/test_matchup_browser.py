"""The matchup lab in a browser: asked from the deck page, the progress bar moves as chunks
finish (htmx polling, no inline script), then the results are drawn as SVG."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from decks import services as deck_services
from matchups import enqueue, services
from matchups.models import Matchup


def test_matchup_page_shows_progress_then_the_drawn_results(logged_in_page, monkeypatch):
    sent = []
    monkeypatch.setattr(enqueue, "send_chunk", lambda *args: sent.append(args))  # no broker here
    alice = User.objects.get(username="alice")
    deck = deck_services.create_deck(alice, name="Grande Armée", battle="ligny", army="french",
                                      kind="dealt", pool="set")
    deck_services.create_deck(alice, name="Blücher", battle="ligny", army="prussian",
                              kind="dealt", pool="set")
    page = logged_in_page
    page.goto(f"/decks/{deck.pk}/")
    form = page.get_by_test_id("matchup-form")
    form.get_by_label("Against").select_option(label="Blücher v1 (Prussian)")
    form.get_by_label("Battles (N)").fill("20")
    form.get_by_role("button", name="Play the matchup").click()
    m = Matchup.objects.get()
    page.wait_for_url(f"**/matchups/{m.pk}/")
    assert sent == [(m.pk, 0), (m.pk, 1)]
    expect(page.get_by_test_id("matchup-progress")).to_have_text("0/20")
    services.run_chunk(m.pk, 0)  # what a worker does; the page polls every second
    expect(page.get_by_test_id("matchup-progress")).to_have_text("10/20")
    expect(page.locator(".matchup-progress")).to_have_attribute("aria-valuenow", "10")
    expect(page.get_by_test_id("matchup-results")).to_have_count(0)
    services.run_chunk(m.pk, 1)
    expect(page.get_by_test_id("matchup-live")).to_have_attribute("data-status", "done")
    expect(page.get_by_test_id("matchup-results")).to_be_visible()
    expect(page.locator("[data-testid=matchup-plot] svg .win-rate")).to_have_count(1)
    # dealt decks differ from game to game: the cards that went with wins or losses
    expect(page.locator("[data-testid=matchup-cards] .chart-row").first).to_be_visible()
    # Done: the fragment stops polling.
    assert page.get_by_test_id("matchup-live").get_attribute("hx-trigger") is None


def test_the_lab_has_a_page_to_start_from_and_says_what_differs(logged_in_page, monkeypatch):
    """GET /matchups/ (a blank 405 before issue 28) lists my decks; one leads to its form.
    A custom deck holds the same cards in every game: the page says no card differs
    instead of listing every card with the same count."""
    monkeypatch.setattr(enqueue, "send_chunk", lambda *args: None)  # no broker here
    alice = User.objects.get(username="alice")
    deck_services.create_deck(alice, name="Grande Armée", battle="ligny", army="french",
                              kind="dealt", pool="set")
    page = logged_in_page
    response = page.goto("/matchups/")
    assert response.status == 200
    expect(page.get_by_role("heading", name="Matchup lab")).to_be_visible()
    page.get_by_test_id("matchup-deck").filter(has_text="Grande Armée").click()
    form = page.get_by_test_id("matchup-form")
    form.get_by_label("Battles (N)").fill("10")
    form.get_by_role("button", name="Play the matchup").click()
    m = Matchup.objects.get()
    page.wait_for_url(f"**/matchups/{m.pk}/")
    services.run_chunk(m.pk, 0)
    expect(page.get_by_test_id("matchup-live")).to_have_attribute("data-status", "done")
    rows = page.locator("[data-testid=matchup-cards] .chart-row")
    expect(rows.first).to_be_visible()
    names = [t.strip() for t in page.locator(
        "[data-testid=matchup-cards] .chart-row td:first-child").all_inner_texts()]
    assert names and not any(n.endswith("…") for n in names)  # names in full
    # the same question for a deck whose cards never change: nothing differs, and it says so
    m.refresh_from_db()
    games = [{**g, "cards_a": [1, 2, 3]} for c in m.chunks.all() for g in c.games]
    from matchups import stats
    m.results = stats.summarize(games)
    m.save(update_fields=["results"])
    page.reload()
    expect(page.get_by_test_id("matchup-same-cards")).to_be_visible()
    expect(page.locator("[data-testid=matchup-cards] .chart-row")).to_have_count(0)
    page.goto("/matchups/")
    expect(page.get_by_test_id("matchup-earlier")).to_contain_text("Grande Armée")
