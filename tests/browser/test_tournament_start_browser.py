"""Tournaments (issue 28): "Start now and pair round 1" answers with the pairings (not the
page as it was), and a match played on the site never says "waiting for reports"."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from ..tournament_helpers import player, register, tournament


def test_start_answers_with_the_pairings_and_online_matches_are_being_played(logged_in_page):
    alice = User.objects.get(username="alice")
    t = tournament(alice, online=True)
    for name in ("ney", "blucher"):
        user, versions = player(name)
        register(t, user, versions)
    page = logged_in_page
    page.goto(f"/tournaments/{t.pk}/manage/")
    expect(page.get_by_test_id("current-pairings")).to_have_count(0)
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_test_id("start").click()
    assert answer.value.status == 200
    text = answer.value.text()
    assert 'data-testid="current-pairings"' in text and "Table 1" in text  # in the answer
    pairing = page.get_by_test_id("pairing-1")
    expect(pairing).to_contain_text("ney")
    expect(pairing).to_contain_text("blucher")
    expect(page.get_by_test_id("status")).to_have_text("Running")

    page.goto(f"/tournaments/{t.pk}/pairings/")
    row = page.get_by_test_id("table-1")
    expect(row).to_contain_text("being played on the site")
    expect(row).not_to_contain_text("waiting for reports")
