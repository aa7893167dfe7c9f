"""A campaign's presence, absence claim and pause: the game service's own (``play.presence``,
``play.pausing``), as a battle's (tests/test_battle_clock.py and
tests/test_tournament_pause_clocks.py).

Time is moved by rewriting the clock and presence columns."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import selectors, services
from campaigns.models import Campaign
from config.errors import Conflict
from play import pausing, presence, registry
from play.signals import match_changed, match_finished

from .campaign.helpers import passive, small_pools
from .kinds import campaign_tasks as tasks

pytestmark = pytest.mark.django_db

LIVE = {"kind": "live", "base": 900, "increment": 10}
CORR = {"kind": "correspondence", "days": 2}
LIMIT = presence.ABSENCE_LIMIT


@pytest.fixture
def small(monkeypatch, catalogue):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    return pools


@pytest.fixture
def booked(monkeypatch) -> dict[str, list[tuple]]:
    """The tasks the service books, recorded instead of sent (no broker here)."""
    calls: dict[str, list[tuple]] = {"flag_fall": [], "bot_move": []}
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: calls["flag_fall"].append(args))
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: calls["bot_move"].append(args))
    return calls


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def page(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def start(user, other_user, tc=LIVE) -> Campaign:
    """alice (French) against bob (Allied); the French split first."""
    c = services.create_campaign(user, "french", opponent="open", time_control=tc)
    services.join_campaign(c.pk, other_user)
    return Campaign.objects.get(pk=c.pk)


def away(c: Campaign, side: str, seconds: float) -> None:
    """``side`` got the move and was last seen ``seconds`` ago."""
    then = timezone.now() - timedelta(seconds=seconds)
    Campaign.objects.filter(pk=c.pk).update(seen={side: then.isoformat()},
                                            clock_started_at=then)


def fresh(c: Campaign) -> Campaign:
    return Campaign.objects.get(pk=c.pk)


# --- presence --------------------------------------------------------------------------------

def test_the_api_the_page_and_the_games_api_touch_the_players_side(user, other_user, small,
                                                                    booked):
    c = start(user, other_user)
    assert c.seen == {}
    client(other_user).get(f"/api/campaigns/{c.pk}/")
    assert set(fresh(c).seen) == {"allied"}
    page(user).get(f"/campaigns/{c.pk}/")
    assert set(fresh(c).seen) == {"allied", "french"}
    long_ago = (timezone.now() - timedelta(seconds=60)).isoformat()
    Campaign.objects.filter(pk=c.pk).update(seen={"french": long_ago, "allied": long_ago})
    client(user).get(f"/api/games/campaign/{c.pk}/")
    seen = fresh(c).seen
    assert seen["french"] > long_ago and seen["allied"] == long_ago
    spectator = APIClient()  # a public campaign's spectator marks nobody
    spectator.get(f"/campaigns/{c.pk}/")
    assert fresh(c).seen == seen


@pytest.mark.django_db(transaction=True)  # the consumer reads and writes from its own thread
def test_an_open_socket_is_presence(user, other_user, small, booked):
    from channels.layers import channel_layers

    from .test_campaign_live import connect, hello, run

    channel_layers.backends.clear()
    c = start(user, other_user)

    async def scenario():
        bob = await connect(c.pk, other_user)
        await hello(bob)
        await bob.disconnect()

    try:
        run(scenario)
    finally:
        channel_layers.backends.clear()
    assert set(fresh(c).seen) == {"allied"}


# --- the absence claim -----------------------------------------------------------------------

def test_a_claim_is_refused_with_its_reason_until_the_limit(user, other_user, small, booked):
    c = start(user, other_user)
    assert c.to_move == "french"  # alice has the move: bob may claim her absence
    url = f"/api/games/campaign/{c.pk}/claim/"

    def claim(who, at=url):
        return client(who).post(at)

    away(c, "french", LIMIT - 5)
    r = claim(other_user)
    assert r.status_code == 409 and r.json()["code"] == "not_claimable"
    assert r.json()["detail"] == (f"you cannot claim this campaign: your opponent has been "
                                  f"away {LIMIT - 5} s; a claim needs more than {LIMIT} s")
    assert client(other_user).get(f"/api/campaigns/{c.pk}/").json()["can_claim"] is False
    away(c, "french", LIMIT + 5)
    r = claim(user)  # the player to move cannot claim their opponent
    assert r.status_code == 409 and r.json()["detail"] == (
        "you cannot claim this campaign: your opponent is not to move: only a player who has "
        "the move can be absent")
    # seen recently, but got the move long ago: still here
    Campaign.objects.filter(pk=c.pk).update(seen={"french": timezone.now().isoformat()})
    assert claim(other_user).status_code == 409
    assert fresh(c).status == "active"
    assert 'data-testid="claim"' not in page(other_user).get(f"/campaigns/{c.pk}/").content.decode()


def test_only_a_live_campaign_between_people_can_be_claimed(user, other_user, small, booked):
    for tc, words in ((CORR, "correspondence"), ({}, "untimed")):
        c = start(user, other_user, tc=tc)
        away(c, "french", 10_000)
        r = client(other_user).post(f"/api/campaigns/{c.pk}/claim/")  # the old URL's alias
        assert r.status_code == 409 and r.json()["detail"] == (
            f"you cannot claim this campaign: only a live campaign can be claimed for absence "
            f"(this one is {words})")
    computer = services.create_campaign(user, "allied", bot="greedy", time_control=LIVE)
    away(computer, "french", 10_000)
    r = client(user).post(f"/api/campaigns/{computer.pk}/claim/")
    assert r.status_code == 409 and r.json()["detail"].endswith("the computer is never absent")
    waiting = services.create_campaign(user, "french", opponent="open", time_control=LIVE)
    r = client(user).post(f"/api/campaigns/{waiting.pk}/claim/")
    assert r.status_code == 409 and "has not started: you cannot claim it yet" in r.json()["detail"]
    kind = registry.get("campaign")
    assert presence.claim_refusal(waiting, "french", timezone.now(), kind) == \
        "the campaign is not under way"


def test_after_the_limit_the_claim_wins_through_end_by(user, other_user, small, booked,
                                                       monkeypatch):
    c = start(user, other_user)
    ended, finished = [], []
    real = presence.end_by
    monkeypatch.setattr(presence, "end_by", lambda kind, *args: ended.append(
        (kind.kind, args[2])) or real(kind, *args))
    match_finished.connect(lambda **kw: finished.append((kw["kind"], kw["match"].pk)),
                           weak=False, dispatch_uid="campaign-claim")
    try:
        away(c, "french", LIMIT + 5)
        view = client(other_user).get(f"/api/games/campaign/{c.pk}/").json()
        assert view["can_claim"] is True
        html = page(other_user).get(f"/campaigns/{c.pk}/").content.decode()
        assert 'data-testid="claim"' in html and "Claim the campaign" in html
        assert f'action="/campaigns/{c.pk}/claim/"' in html
        assert f"away for more than {LIMIT} s" in html
        r = client(other_user).post(f"/api/games/campaign/{c.pk}/claim/")
        assert r.status_code == 200, r.content
    finally:
        match_finished.disconnect(dispatch_uid="campaign-claim")
    assert ended == [("campaign", "claim it")] and finished == [("campaign", c.pk)]
    c = fresh(c)
    assert c.status == "finished" and c.deadline is None
    assert c.outcome == {"winner": "allied", "reason": "absent", "loser": "french",
                         "results": c.outcome["results"]}
    assert r.json()["outcome"] == c.outcome
    r = client(other_user).post(f"/api/games/campaign/{c.pk}/claim/")
    assert r.status_code == 409 and "is over" in r.json()["detail"]


def test_the_page_claims_and_shows_a_refusal(user, other_user, small, booked):
    c = start(user, other_user)
    away(c, "french", LIMIT - 30)
    r = page(other_user).post(f"/campaigns/{c.pk}/claim/")
    assert r.status_code == 409
    assert "You cannot claim this campaign: your opponent has been away" in r.content.decode()
    away(c, "french", LIMIT + 30)
    r = page(other_user).post(f"/campaigns/{c.pk}/claim/")
    assert r.status_code == 302 and r["Location"] == f"/campaigns/{c.pk}/"
    assert fresh(c).outcome["reason"] == "absent"
    assert page(user).post(f"/campaigns/{c.pk}/claim/").status_code == 409


# --- pausing ---------------------------------------------------------------------------------

def test_a_paused_campaign_stands_still_and_its_resume_restarts_the_clock(
        user, other_user, small, booked, django_capture_on_commit_callbacks):
    c = start(user, other_user)
    kind = registry.get("campaign")
    changes = []
    match_changed.connect(lambda **kw: changes.append((kw["kind"], kw["paused"])), weak=False,
                          dispatch_uid="campaign-pause")
    now = timezone.now()
    left = (c.deadline - now).total_seconds()
    try:
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            assert pausing.pause(kind, [c.pk], now) == [c.pk]
            assert pausing.pause("campaign", [c.pk], now) == []  # already paused
    finally:
        match_changed.disconnect(dispatch_uid="campaign-pause")
    assert changes == [("campaign", True)]
    c = fresh(c)
    assert c.paused_at == now and c.deadline is None and c.clock_started_at is None
    assert c.clocks["french"] == pytest.approx(left, abs=0.01) and c.clocks["allied"] == 900
    # every action is refused: acting, resigning, claiming; nothing is offered
    legal = selectors.campaign_view(Campaign.objects.get(pk=c.pk), user)
    assert legal["paused"] is True and legal["legal_actions"] == [] and not legal["can_undo"]
    api = client(user)
    r = api.post(f"/api/games/campaign/{c.pk}/act/", {"seq": c.seq, "action": {"type": "x"}},
                 format="json")
    assert r.status_code == 409 and r.json()["code"] == "paused"
    assert r.json()["detail"].startswith("the tournament's organiser has paused this campaign")
    assert api.post(f"/api/campaigns/{c.pk}/resign/").json()["code"] == "paused"
    Campaign.objects.filter(pk=c.pk).update(
        seen={"french": (now - timedelta(hours=1)).isoformat()})
    r = client(other_user).post(f"/api/campaigns/{c.pk}/claim/")
    assert r.status_code == 409 and r.json()["code"] == "paused"  # refused before the rule
    assert presence.claim_refusal(fresh(c), "allied", now) == \
        "the campaign is paused by its tournament's organiser"
    html = page(user).get(f"/campaigns/{c.pk}/").content.decode()
    assert 'data-testid="paused"' in html
    # no flag falls, the beat skips it
    assert tasks.flag_fall(c.pk, c.seq) is False and tasks.overdue_flags() == []
    # the resume: the clock runs again with the time it had, the flag fall is booked again
    later = now + timedelta(minutes=10)
    booked["flag_fall"].clear()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        assert pausing.resume(kind, [c.pk], later) == [c.pk]
    c = fresh(c)
    assert c.paused_at is None and c.clock_started_at == later
    assert c.deadline == later + timedelta(seconds=c.clocks["french"])
    assert booked["flag_fall"] == [(c.pk, c.seq, c.deadline)]
    assert presence.claim_refusal(c, "allied", later).startswith(
        "your opponent has been away 0 s")  # the whole limit again, from the resume
    view = selectors.campaign_view(c, user)
    assert view["paused"] is False and view["legal_actions"]
    services.act(c.pk, user, c.seq, passive(view["legal_actions"]))
    assert fresh(c).seq == c.seq + 1


def test_a_resume_asks_the_computer_when_it_is_its_move(user, small, booked,
                                                        django_capture_on_commit_callbacks):
    c = services.create_campaign(user, "allied", bot="greedy", time_control=LIVE)
    assert c.to_move == "french" and c.computer_side() == "french"
    now = timezone.now()
    with transaction.atomic():
        pausing.pause("campaign", [c.pk], now)
    assert tasks.bot_move(c.pk, c.seq) == 0  # paused: the computer does not move
    booked["bot_move"].clear()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        assert pausing.resume("campaign", [c.pk], now) == [c.pk]
    assert booked["bot_move"] == [(c.pk, c.seq)]
    assert tasks.bot_move(c.pk, c.seq) >= 1


def test_a_finished_campaign_is_not_paused(user, other_user, small, booked):
    c = start(user, other_user)
    services.resign(c.pk, user)
    with transaction.atomic():
        assert pausing.pause("campaign", [c.pk], timezone.now()) == []
    assert fresh(c).paused_at is None
    with pytest.raises(Conflict):
        services.claim_absence(c.pk, other_user)
