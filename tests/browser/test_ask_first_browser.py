"""Decisions that cannot be undone ask first, everywhere (issue 28, "Retreat concedes a
battle in one click"): cancelling a tournament, dropping a player (the organiser), dropping
out (a player), declining an invitation and cancelling one's own open game were one click
each. Each now opens a question with its consequence; nothing happens until "Yes"."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services as battles
from battles.models import Battle
from battles.models import Status as BattleStatus
from tournaments import services
from tournaments.models import Entry, Status, Tournament

from ..tournament_helpers import player, register, tournament


def _running(alice):
    t = tournament(alice, online=True)
    for name in ("ney", "blucher", "soult"):
        user, versions = player(name)
        register(t, user, versions)
    services.start_tournament(t.pk, alice)
    return Tournament.objects.get(pk=t.pk)


def test_cancel_and_drop_ask_before_they_are_done(logged_in_page, browser, live_server):
    alice = User.objects.get(username="alice")
    t = _running(alice)
    page = logged_in_page
    page.goto(f"/tournaments/{t.pk}/manage/")

    # the organiser drops a player: chosen, then asked
    ney = Entry.objects.get(tournament=t, user__username="ney")
    page.locator("#drop-entry").select_option(str(ney.pk))
    expect(page.get_by_test_id("drop")).to_be_hidden()
    page.get_by_test_id("drop-ask").locator("summary").click()
    expect(page.get_by_test_id("drop-ask")).to_contain_text("cannot be undone")
    assert not Entry.objects.get(pk=ney.pk).dropped  # asking changed nothing
    page.get_by_test_id("drop").click()
    # the panel's answer: ney is no longer among the players who can be dropped
    expect(page.locator(f"#drop-entry option[value='{ney.pk}']")).to_have_count(0)
    assert Entry.objects.get(pk=ney.pk).dropped

    # a player drops out of the running tournament: asked first
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(10_000)
    try:
        other = context.new_page()
        other.goto("/accounts/login/")
        other.fill("input[name=username]", "soult")
        other.fill("input[name=password]", "s3cret-pass-1815")
        other.click("form button[type=submit]")
        other.wait_for_url(live_server.url + "/")
        other.goto(f"/tournaments/{t.pk}/")
        expect(other.get_by_test_id("withdraw")).to_be_hidden()
        ask = other.get_by_test_id("withdraw-ask")
        expect(ask.locator("summary")).to_have_text("Drop from the tournament…")
        ask.locator("summary").click()
        expect(ask).to_contain_text("This cannot be undone")
        soult = Entry.objects.get(tournament=t, user__username="soult")
        assert not soult.dropped
        other.get_by_test_id("withdraw").click()
        expect(other.get_by_test_id("my-entry")).to_contain_text("dropped")
        assert Entry.objects.get(pk=soult.pk).dropped
    finally:
        context.close()

    # the organiser cancels the tournament: asked first
    page.goto(f"/tournaments/{t.pk}/manage/")
    expect(page.get_by_test_id("cancel")).to_be_hidden()
    page.get_by_test_id("cancel-ask").locator("summary").click()
    expect(page.get_by_test_id("cancel-ask")).to_contain_text("cannot be undone")
    assert Tournament.objects.get(pk=t.pk).status == Status.RUNNING
    page.get_by_test_id("cancel").click()
    expect(page.get_by_test_id("manage-panel")).to_contain_text("Cancelled")
    expect(page.get_by_test_id("cancel-ask")).to_have_count(0)
    assert Tournament.objects.get(pk=t.pk).status == Status.CANCELLED


def test_decline_and_cancel_ask_before_they_are_done(logged_in_page):
    alice = User.objects.get(username="alice")
    bob = User.objects.create_user("bob", password="s3cret-pass-1815")
    invited = battles.create_battle(bob, "ligny", "french", opponent="alice")
    mine = battles.create_battle(alice, "wavre", "allied", opponent="open")
    page = logged_in_page

    page.goto("/battles/")
    row = page.get_by_test_id(f"invitation-{invited.pk}")
    expect(row.get_by_test_id("decline")).to_be_hidden()
    row.get_by_test_id("decline-ask").locator("summary").click()
    expect(row.get_by_test_id("decline-ask")).to_contain_text("cannot be undone")
    assert Battle.objects.get(pk=invited.pk).status == BattleStatus.WAITING
    row.get_by_test_id("decline").click()
    page.wait_for_url("**/battles/")
    expect(page.get_by_test_id(f"invitation-{invited.pk}")).to_have_count(0)
    assert Battle.objects.get(pk=invited.pk).status == BattleStatus.DECLINED

    page.goto(f"/battles/{mine.pk}/")
    expect(page.get_by_test_id("cancel")).to_be_hidden()
    page.get_by_test_id("cancel-ask").locator("summary").click()
    expect(page.get_by_test_id("cancel-ask")).to_contain_text("cannot be undone")
    assert Battle.objects.get(pk=mine.pk).status == BattleStatus.WAITING
    page.get_by_test_id("cancel").click()
    page.wait_for_url("**/battles/")
    assert Battle.objects.get(pk=mine.pk).status == BattleStatus.CANCELLED
