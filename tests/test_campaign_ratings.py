"""Rated campaigns: a campaign between two people may be rated (never the computer's); its
end, whatever ended it (the core's outcome, a resignation, a flag fall: ``services.finish``),
updates both players' Glicko-2 ratings once, in the finishing transaction, and shows on the
player page and in its API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import services
from campaigns.models import Campaign, Status
from play.signals import match_finished
from ratings import campaigns as rated
from ratings import glicko2
from ratings.models import RatedCampaign, Rating
from ratings.services import rate_players

from .campaign.helpers import small_pools
from .kinds import campaign_tasks as tasks
from .test_campaign_service import drive

pytestmark = pytest.mark.django_db
LIVE = {"kind": "live", "base": 900, "increment": 10}


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: None)
    return pools


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def rated_campaign(user, other_user, **kwargs) -> Campaign:
    r = client(user).post("/api/campaigns/", {"side": "french", "opponent": "open",
                                              "rated": True, **kwargs}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["rated"] is True
    services.join_campaign(r.json()["id"], other_user)
    return Campaign.objects.get(pk=r.json()["id"])


def figures(user) -> tuple[float, float, int]:
    r = Rating.objects.get(user=user)
    return r.rating, r.rd, r.games


def test_a_resigned_rated_campaign_updates_both_ratings_once(user, other_user, small):
    c = rated_campaign(user, other_user)
    services.resign(c.pk, user)  # the French resign: the Allies win
    rc = RatedCampaign.objects.get(campaign=c)
    fr, fa = glicko2.rate_game(glicko2.Rating(), glicko2.Rating(), 0.0)
    assert rc.french_player == user and rc.allied_player == other_user
    assert rc.french_score == 0.0 and rc.french_before == rc.allied_before == 1500
    assert rc.french_after == pytest.approx(fr.rating) and rc.allied_after == \
        pytest.approx(fa.rating)
    assert figures(user) == (pytest.approx(fr.rating), pytest.approx(fr.rd), 1)
    assert figures(other_user) == (pytest.approx(fa.rating), pytest.approx(fa.rd), 1)
    assert fa.rating > 1500 > fr.rating
    # Idempotent: the rating call and the signal again change nothing.
    before = (figures(user), figures(other_user))
    c.refresh_from_db()
    assert rated.rate_campaign(c) is None
    match_finished.send(sender=Campaign, kind="campaign", match=c)
    assert (figures(user), figures(other_user)) == before
    assert RatedCampaign.objects.count() == 1


def test_a_rated_campaign_lost_on_time_is_rated(user, other_user, small):
    c = rated_campaign(user, other_user, time_control=LIVE)
    Campaign.objects.filter(pk=c.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.flag_fall(c.pk, c.seq) is True
    rc = RatedCampaign.objects.get(campaign=c)
    assert rc.campaign.outcome["reason"] == "time" and rc.french_score == 0.0  # French to split
    profile = client(user).get(f"/api/players/{user.username}/").json()
    assert profile["games"] == 1
    assert profile["campaigns"]["records"] == [
        {"side": "french", "played": 1, "won": 0, "lost": 1, "drawn": 0},
        {"side": "allied", "played": 0, "won": 0, "lost": 0, "drawn": 0}]
    recent = profile["campaigns"]["recent"]
    assert [(r["campaign_id"], r["side"], r["opponent"], r["result"], r["reason"])
            for r in recent] == [(c.pk, "french", other_user.username, "lost", "time")]
    assert recent[0]["change"] < 0
    assert profile["recent"] == []  # no rated battle: campaigns are kept apart


def test_a_campaign_the_core_decides_is_rated_with_its_winner(
        user, other_user, small, django_capture_on_commit_callbacks):
    c = rated_campaign(user, other_user, settings={"turn_cap": 2})
    drive(c, {"french": user, "allied": other_user}, django_capture_on_commit_callbacks)
    assert c.status == Status.FINISHED and c.outcome["reason"] == "campaign"
    rc = RatedCampaign.objects.get(campaign=c)
    assert rc.french_score == (1.0 if c.outcome["winner"] == "french" else 0.0)
    assert Rating.objects.get(user=user).games == 1


def test_unrated_and_computer_campaigns_are_never_rated(user, other_user, small):
    r = client(user).post("/api/campaigns/", {"side": "french", "rated": True}, format="json")
    assert r.status_code == 400
    assert r.json()["detail"] == "games against the computer are never rated"
    assert not Campaign.objects.exists()
    r = client(user).post("/api/campaigns/", {"side": "french", "opponent": "open",
                                              "rated": "yes"}, format="json")
    assert r.status_code == 400 and r.json()["detail"] == "rated must be true or false"
    plain = services.create_campaign(user, "french", opponent="open")
    services.join_campaign(plain.pk, other_user)
    services.resign(plain.pk, other_user)
    computer = services.create_campaign(user, "french", bot="greedy")
    services.resign(computer.pk, user)
    assert not RatedCampaign.objects.exists() and not Rating.objects.exists()


def test_a_rating_error_rolls_the_end_back(user, other_user, small, monkeypatch):
    c = rated_campaign(user, other_user)

    def broken(*args, **kwargs):
        raise RuntimeError("ratings are down")

    monkeypatch.setattr(rated, "rate_players", broken)
    with pytest.raises(RuntimeError):
        services.resign(c.pk, user)
    c.refresh_from_db()
    assert c.status == Status.ACTIVE and c.outcome is None  # not ended without its rating
    monkeypatch.setattr(rated, "rate_players", rate_players)
    services.resign(c.pk, user)
    assert RatedCampaign.objects.filter(campaign=c).count() == 1


def test_the_player_page_shows_rated_campaigns(user, other_user, small):
    c = rated_campaign(user, other_user)
    page = Client()
    page.force_login(user)
    html = page.get(f"/players/{user.username}/").content.decode()
    assert 'data-testid="no-rated-campaign"' in html
    services.resign(c.pk, other_user)  # the Allies resign: the French (user) win
    html = page.get(f"/players/{user.username}/").content.decode()
    row = html[html.index('data-testid="campaign-record-french"'):]
    assert row[:row.index("</tr>")].count("<td>1</td>") == 2  # played 1, won 1
    assert f'data-testid="recent-campaign-{c.pk}"' in html and "(resigned)" in html
    change = html[html.index('data-testid="campaign-change"'):]
    assert ">+" in change[:40]


def test_the_create_form_offers_rated(user, other_user, small):
    page = Client()
    page.force_login(user)
    assert 'name="rated"' in page.get("/campaigns/").content.decode()
    r = page.post("/campaigns/", {"side": "allied", "opponent": "open", "pool": "set",
                                  "time_control": "untimed", "rated": "on"})
    assert r.status_code == 302 and Campaign.objects.get().rated is True
    r = page.post("/campaigns/", {"side": "allied", "opponent": "computer", "pool": "set",
                                  "time_control": "untimed", "rated": "on"})
    assert r.status_code == 400 and "never rated" in r.content.decode()
