"""A finished campaign's replay and export, through the game service's ``play.replays`` (as a
battle's): the replay book re-derives every die from the revealed seed and names the first
action that replays differently; its ``all`` viewpoint shows every card; the
``eagles-campaign/1`` export (``/api/games/campaign/<id>/export/``, alias
``/api/campaigns/<id>/export/``) is refused before the end (409 ``campaign_not_over``) and to
anyone who may not see the campaign (404), and rebuilds the campaign from its setup."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.engine import load_cards
from battles.modules import CAMPAIGN
from campaigns import selectors, services
from campaigns.kind import KIND, core_of
from campaigns.models import Campaign, CampaignAction, Status
from play import replays
from play.log import count_dice, effective_actions

from .campaign.helpers import small_pools
from .kinds import campaign_tasks as tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    return pools


@pytest.fixture
def played(user, small) -> Campaign:
    """The computer (French) against Alice (Allied), whose moves the greedy bot chooses too
    (so both sides fight: dice are rolled), to the campaign's end."""
    c = services.create_campaign(user, "allied", bot="greedy", settings={"turn_cap": 4})
    rng = random.Random("campaign-replay")
    bot = CAMPAIGN.bot("greedy", KIND.bot_cards(c))
    for _ in range(1000):
        c.refresh_from_db()
        if c.status != Status.ACTIVE:
            break
        if c.to_move == "french":
            tasks.bot_move(c.pk, c.seq)
            continue
        legal = selectors.campaign_view(c, user)["legal_actions"]
        view = CAMPAIGN.view(core_of(c), "allied") if bot.needs_view else None
        services.act(c.pk, user, c.seq, bot.choose(view, legal, rng))
    assert c.status == Status.FINISHED
    assert dice_in(c) > 0, "no dice rolled: choose another seed"
    return c


def api(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def dice_in(c: Campaign) -> int:
    return sum(count_dice(r.events) for r in effective_actions(list(c.actions.all())))


def test_the_book_checks_every_die_and_ends_at_the_snapshot(played):
    c = played
    book = replays.replay_book(KIND, c)
    assert book.check.ok and book.check.actions == c.seq
    assert book.check.dice == dice_in(c) > 0
    assert [s.seq for s in book.steps] == [None, *range(1, c.seq + 1)]
    assert CAMPAIGN.to_json(book.steps[-1].state) == c.state
    # every card shown: each board merged, both pools; a side's own view hides the other's
    mid = len(book.steps) // 2
    every, french = book.view(mid, "all"), book.view(mid, "french")
    assert every["viewer"] is None and every["boards"]
    for board in every["boards"].values():
        assert all(p["face_up"] and "card" in p for p in board["pieces"])
    assert all("cards" in every["pools"][s] for s in ("french", "allied"))
    assert "cards" not in french["pools"]["allied"]
    assert book.view(mid, None) == CAMPAIGN.view(book.steps[mid].state, None)


def test_a_tampered_event_is_detected(played, user):
    c = played
    row = next(r for r in c.actions.order_by("seq") if count_dice(r.events))
    event = next(e for e in row.events if e.get("dice"))
    event["dice"] = [7 - d for d in event["dice"]]
    row.save()
    book = replays.replay_book(KIND, c)
    assert book.check.mismatch == row.seq and "recorded dice" in book.check.detail
    page = Client()
    page.force_login(user)
    html = page.get(f"/campaigns/{c.pk}/replay/?step={c.seq}").content.decode()
    assert f"The dice do not match: action {row.seq} replays differently" in html
    assert "they match" not in html


def test_the_replay_page_says_the_dice_match_from_every_viewpoint(played, user):
    c = played
    page = Client()
    page.force_login(user)
    n = dice_in(c)
    for query in ("", "&as=all", "&as=allied", "&as=french"):
        r = page.get(f"/campaigns/{c.pk}/replay/?step={c.seq // 2}{query}")
        html = r.content.decode()
        assert r.status_code == 200 and 'data-testid="board-' in html
        assert f"All {n} dice rolls re-derived from the revealed seed {c.seed}: they match" \
            in html
        assert r.context["seed_ok"] and r.context["step"] == c.seq // 2
    assert r.context["viewpoint"] == "french"
    r = page.get(f"/campaigns/{c.pk}/replay/?step=1&as=all")
    assert 'href="?step=2&amp;as=all" data-testid="next"' in r.content.decode()
    assert Client().get(f"/campaigns/{c.pk}/replay/").context["viewpoint"] == ""  # spectator


def test_the_export_rebuilds_the_campaign(played, user):
    c = played
    for url in (f"/api/games/campaign/{c.pk}/export/", f"/api/campaigns/{c.pk}/export/"):
        r = api().get(url)  # a public campaign: anyone, logged in or not
        assert r.status_code == 200, r.content
        doc = r.json()
        assert doc == api(user).get(url).json()
    assert list(doc) == ["format", "id", "pool_choices", "pools", "settings", "card_records",
                         "seed", "seed_hash", "actions", "outcome"]
    assert doc["format"] == "eagles-campaign/1" and doc["id"] == c.pk
    assert doc["seed"] == str(c.seed) and doc["seed_hash"] == c.seed_hash
    assert doc["outcome"] == c.outcome and doc["pools"] == c.pools
    assert [a["seq"] for a in doc["actions"]] == list(range(1, c.seq + 1))
    assert set(doc["actions"][0]) == {"seq", "side", "action", "events", "auto"}
    # the document alone rebuilds the campaign, every event as recorded
    state = CAMPAIGN.setup(int(doc["seed"]), {"pools": doc["pools"], "settings": doc["settings"]},
                           load_cards(doc["card_records"]))
    for a in effective_actions(doc["actions"]):
        assert CAMPAIGN.apply(state, a["action"], CAMPAIGN.dice(int(doc["seed"]), a["seq"])) \
            == a["events"]
    assert CAMPAIGN.to_json(state) == c.state


def test_no_export_before_the_end_nor_to_strangers(user, other_user, small):
    c = services.create_campaign(user, "french", bot="greedy")
    for url in (f"/api/games/campaign/{c.pk}/export/", f"/api/campaigns/{c.pk}/export/"):
        r = api(user).get(url)
        assert r.status_code == 409 and r.json() == {
            "detail": "the campaign is not over: the seed stays secret until the campaign ends",
            "code": "campaign_not_over"}
        assert str(c.seed) not in r.content.decode()
    services.resign(c.pk, user)
    Campaign.objects.filter(pk=c.pk).update(public=False)
    url = f"/api/games/campaign/{c.pk}/export/"
    assert api(user).get(url).status_code == 200  # its player
    for who in (other_user, None):  # a private campaign of others does not exist for them
        r = api(who).get(url)
        assert r.status_code == 404 and r.json()["detail"] == "no such campaign"
    waiting = services.create_campaign(user, "french", opponent="open")
    r = api(user).get(f"/api/campaigns/{waiting.pk}/export/")
    assert r.status_code == 404 and "never played" in r.json()["detail"]
    assert not CampaignAction.objects.filter(campaign=waiting).exists()
