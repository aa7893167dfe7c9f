"""A tournament in the browser: the organiser creates it through the form, players register
decks (one through the registration page), the organiser starts it from the controls (round 1
is paired in that request: no worker needed), both players of a match report on their match
page, and the standings page shows the right leader and the chart of match points; round 2 is
paired from the controls, and the standings page, left open, refreshes itself when it ends.

The controls and the report form go through htmx: the page is not reloaded (a marker set in
the page's JavaScript before the click is still there after it) and the answer is swapped in.

With EAGLES_SCREENSHOTS=DIR the list, detail and standings pages are saved at 375 and 1280 px.
"""

import os
from pathlib import Path

from django.contrib.auth.models import User
from playwright.sync_api import expect

from decks import checks as deck_checks
from decks import services as deck_services
from tournaments import services
from tournaments.models import Entry, Match, Tournament

from ..tournament_helpers import give_cards, pool

PASSWORD = "s3cret-pass-1815"
NO_OVERFLOW = "document.documentElement.scrollWidth <= innerWidth"
SIZES: dict = {}


def small_deck(army: str) -> list[tuple]:
    """A valid standard Quatre Bras deck at scale 1/2 (the first cards of the army's pool)."""
    if army not in SIZES:
        cards = pool(army, "quatre-bras")
        for size in range(3, len(cards) + 1):
            entries = [(n, 1, None) for n in cards[:size]]
            if deck_checks.check(battle="quatre-bras", army=army, scale="1/2",
                                   entries=entries).valid:
                SIZES[army] = entries
                break
        else:  # pragma: no cover
            raise AssertionError(f"no valid {army} deck at Quatre Bras, scale 1/2")
    return SIZES[army]


def player(name: str):
    """A user who owns the cards of a French and a British deck (scale 1/2)."""
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    versions = {}
    for army in ("french", "british"):
        entries = small_deck(army)
        give_cards(user, [n for n, _, _ in entries])
        deck = deck_services.create_deck(user, name=f"{name} {army}", battle="quatre-bras",
                                         army=army, scale="1/2", entries=entries)
        versions[army] = deck.latest
    return user, versions


def log_in(browser, live_server, username: str):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    return page


def set_marker(page):
    """A JavaScript variable that a page load would lose."""
    page.evaluate("window.eaglesMarker = 'still here'")


def assert_no_reload(page):
    assert page.evaluate("window.eaglesMarker") == "still here"


def report_on_my_match(page, t, result_label: str):
    page.goto(f"/tournaments/{t.pk}/")
    page.get_by_test_id("my-match-link").click()
    expect(page.get_by_test_id("report-form")).to_be_visible()
    page.get_by_label(result_label).check()
    set_marker(page)
    page.get_by_test_id("report-submit").click()
    expect(page.locator(".messages")).to_contain_text("Your report is in")
    assert_no_reload(page)  # htmx swapped the match card


def tab(page, name: str):
    return page.get_by_role("navigation", name="Tournament").get_by_role("link", name=name)


def screenshots(page, paths: dict[str, str]):
    folder = os.environ.get("EAGLES_SCREENSHOTS")
    for width in (375, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        for name, path in paths.items():
            page.goto(path)
            assert page.evaluate(NO_OVERFLOW), (path, width)
            if folder:
                Path(folder).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{folder}/{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_organiser_creates_players_register_round_paired_reported_standings(
        logged_in_page, live_server, browser):
    org = logged_in_page  # alice organises
    org.get_by_role("link", name="Tournaments").first.click()
    org.get_by_test_id("new-tournament").click()
    org.get_by_label("Name", exact=True).fill("Quatre Bras Open")
    org.get_by_label("Battle").select_option("quatre-bras")
    org.get_by_label("Decks", exact=True).select_option("custom")
    org.get_by_label("Scale").fill("1/2")
    org.get_by_label("Format").select_option("swiss")
    org.get_by_label("Round length (minutes)").fill("40")
    org.get_by_label("Next round is paired").select_option("on_completion")
    org.get_by_label("1st tiebreaker").select_option("omw")
    org.get_by_test_id("create-submit").click()
    expect(org.get_by_test_id("tournament-name")).to_have_text("Quatre Bras Open")
    expect(org.get_by_test_id("status")).to_have_text("Registration open")
    t = Tournament.objects.get(name="Quatre Bras Open")
    assert (t.scale, t.round_seconds, t.organiser.username) == ("1/2", 2400, "alice")

    # Four players with valid decks; the first registers through the page as a user would.
    players = [player(name) for name in ("ney", "reille", "picton", "brunswick")]
    ney_page = log_in(browser, live_server, "ney")
    ney_page.goto(f"/tournaments/{t.pk}/")
    ney_page.get_by_test_id("register-link").click()
    ney_versions = players[0][1]
    ney_page.get_by_label("French deck").select_option(str(ney_versions["french"].pk))
    ney_page.get_by_label("British deck").select_option(str(ney_versions["british"].pk))
    ney_page.get_by_test_id("register-submit").click()
    expect(ney_page.get_by_test_id("my-entry")).to_contain_text("You are registered")
    for user, versions in players[1:]:
        services.register(t.pk, user, french_version=versions["french"].pk,
                          british_version=versions["british"].pk)
    org.reload()
    expect(org.get_by_test_id("players-count")).to_have_text("4")

    # The organiser starts it from the controls: round 1 is paired in that request.
    org.get_by_test_id("manage-link").click()
    set_marker(org)
    org.get_by_test_id("start").click()
    expect(org.locator(".messages")).to_contain_text("round 1 is paired")
    expect(org.get_by_test_id("status")).to_have_text("Running")  # the header, out of band
    assert_no_reload(org)
    # Pause and resume through htmx too. The panel is stale once the tournament was paused
    # elsewhere: the refusal (409) shows inline with the panel as it is now, still no reload.
    org.get_by_test_id("pause").click()
    expect(org.get_by_test_id("status")).to_have_text("Paused")
    expect(org.get_by_test_id("notice")).to_contain_text("the clock is stopped")
    org.get_by_test_id("resume").click()
    expect(org.get_by_test_id("status")).to_have_text("Running")
    services.pause(t.pk, t.organiser)  # elsewhere (another tab)
    org.get_by_test_id("pause").click()
    expect(org.get_by_test_id("manage-error")).to_contain_text(
        "only a running tournament can be paused")
    expect(org.get_by_test_id("status")).to_have_text("Paused")
    if os.environ.get("EAGLES_SCREENSHOTS"):  # the refusal, inline, at a phone's width
        org.set_viewport_size({"width": 375, "height": 900})
        Path(os.environ["EAGLES_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        org.screenshot(path=f"{os.environ['EAGLES_SCREENSHOTS']}/manage-refused-375.png")
        org.set_viewport_size({"width": 1280, "height": 900})
    org.get_by_test_id("resume").click()
    expect(org.get_by_test_id("status")).to_have_text("Running")
    expect(org.get_by_test_id("manage-error")).to_have_count(0)
    assert_no_reload(org)
    tab(org, "Pairings").click()
    expect(org.get_by_test_id("pairings").locator("tbody tr")).to_have_count(2)

    # Both players of ney's match report on their match page; the other match via services.
    ney = Entry.objects.get(tournament=t, user__username="ney")
    mine = Match.objects.get(round__tournament=t, round__number=1, french=ney) if (
        Match.objects.filter(round__tournament=t, round__number=1, french=ney).exists()) \
        else Match.objects.get(round__tournament=t, round__number=1, allied=ney)
    opponent = mine.allied if mine.french_id == ney.pk else mine.french
    opponent_page = log_in(browser, live_server, opponent.user.username)
    report_on_my_match(ney_page, t, "(French) won")
    expect(ney_page.get_by_test_id("match-state")).to_contain_text("waiting for")
    report_on_my_match(opponent_page, t, "(French) won")
    expect(opponent_page.get_by_test_id("result")).to_have_text("French won")
    for m in Match.objects.filter(round__tournament=t, round__number=1).exclude(pk=mine.pk):
        for entry in (m.french, m.allied):
            services.report_result(m.pk, entry.user, {"result": "french"})

    # Standings after round 1: a French winner leads.
    winners = set(Match.objects.filter(round__tournament=t, round__number=1)
                  .values_list("french__user__username", flat=True))
    tab(org, "Standings").click()
    expect(org.get_by_test_id("standings-title")).to_have_text("Standings after round 1")
    leader = org.get_by_test_id("rank-1").get_by_test_id("name").inner_text()
    assert leader in winners
    expect(org.get_by_test_id("rank-1").get_by_test_id("mp")).to_have_text("3")
    # The chart: a line per player (4 players, all drawn), a legend naming them
    chart = org.get_by_test_id("standings-chart")
    expect(chart.locator("svg[role=img]")).to_be_visible()
    expect(chart.locator("g.chart-line")).to_have_count(4)
    expect(chart.locator("g.chart-line circle.chart-point")).to_have_count(4)  # 1 round
    for user, _ in players:
        expect(chart.locator(f'g.chart-line[data-name="{user.username}"]')).to_have_count(1)
        expect(chart.locator("g.chart-legend-item")).to_contain_text([user.username])
    expect(chart.locator(f'g.chart-line[data-name="{leader}"]')).to_have_attribute(
        "data-points", "3")

    # Round 2 from the controls (without waiting for the worker), results, final standings.
    org.get_by_test_id("manage-link").click()
    org.get_by_test_id("pair-next").click()
    expect(org.locator(".messages")).to_contain_text("next round is paired")
    # The standings page, left open while round 2 is played, polls itself (every 15 s).
    tab(org, "Standings").click()
    expect(org.get_by_test_id("standings-title")).to_have_text("Standings after round 1")
    expect(org.get_by_test_id("standings-live")).to_have_attribute("hx-trigger", "every 15s")
    set_marker(org)
    top = None
    for m in Match.objects.filter(round__tournament=t, round__number=2).select_related(
            "french__user", "allied__user"):
        if {m.french.user.username, m.allied.user.username} <= winners:
            top = m
        for entry in (m.french, m.allied):
            services.report_result(m.pk, entry.user, {"result": "french"})
    assert top is not None  # the two winners meet in round 2
    expect(org.get_by_test_id("standings-title")).to_have_text("Standings after round 2",
                                                              timeout=25_000)
    assert_no_reload(org)  # the fragment was swapped by the poll
    expect(org.get_by_test_id("status")).to_have_text("Finished")  # out of band
    expect(org.get_by_test_id("standings-live")).not_to_have_attribute("hx-trigger",
                                                                       "every 15s")
    expect(org.get_by_test_id("standings-chart").locator("circle.chart-point")
           ).to_have_count(8)  # 4 lines, 2 rounds
    expect(org.get_by_test_id("rank-1").get_by_test_id("name")).to_have_text(
        top.french.user.username)
    expect(org.get_by_test_id("rank-1").get_by_test_id("mp")).to_have_text("6")
    expect(org.get_by_test_id("status")).to_have_text("Finished")
    org.get_by_test_id("how-link").click()
    expect(org.get_by_test_id("how-1")).to_contain_text("mean over opponents")

    screenshots(org, {"list": "/tournaments/", "detail": f"/tournaments/{t.pk}/",
                      "standings": f"/tournaments/{t.pk}/standings/",
                      "pairings": f"/tournaments/{t.pk}/pairings/1/",
                      "how": f"/tournaments/{t.pk}/standings/how/",
                      "manage": f"/tournaments/{t.pk}/manage/",
                      "create": "/tournaments/new/"})
    screenshots(ney_page, {"my-match": f"/tournaments/{t.pk}/my-match/"})
    for p in (ney_page, opponent_page):
        p.context.close()
