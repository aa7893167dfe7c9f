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
    expect(page.locator("[data-testid=matchup-cards] svg .chart-row").first).to_be_visible()
    # Done: the fragment stops polling.
    assert page.get_by_test_id("matchup-live").get_attribute("hx-trigger") is None
