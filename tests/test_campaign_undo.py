"""Undo in campaigns (issue 13): within one's own turn on a board, take back the last
action(s) until a die, a revealed card, a campaign decision...; an undo is a new log row, the
campaign is rebuilt from its setup without what it took back, the replay and the replay page
honour it, and the opponent learns only that something was taken back."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.campaign import to_json
from battles.modules import CAMPAIGN
from campaigns import selectors, services
from campaigns.kind import KIND
from campaigns.models import Campaign
from config.errors import BadInput, Conflict
from play import undo

from .campaign.helpers import TABLE, small_pools
from .kinds import campaign_tasks as tasks
from .test_campaign_service import assert_no_leak, card_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch) -> list[tuple[int, int]]:
    calls: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: calls.append(args))
    return calls


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)


@pytest.fixture
def duel(user, other_user, small, sent) -> Campaign:
    """Alice (French) against Bob (Allied); Alice has split, Bob deploys at Quatre Bras."""
    c = services.create_campaign(user, "french", opponent="bob", settings={"turn_cap": 4})
    services.join_campaign(c.pk, other_user)
    c.refresh_from_db()
    split = selectors.campaign_view(c, user)["legal_actions"][0]
    services.act(c.pk, user, c.seq, split)
    c.refresh_from_db()
    assert c.to_move == "allied" and c.board == "quatre-bras"
    return c


def deploys(c: Campaign, user) -> list[dict]:
    """Face-down deploys (troop cards: a General enters face up, shown to the opponent)."""
    return [a for a in selectors.campaign_view(c, user)["legal_actions"]
            if a["type"] == "deploy" and TABLE[a["card"]].kind not in ("general", "terrain")]


def snapshot(c: Campaign) -> str:
    c.refresh_from_db()
    return json.dumps(c.state, sort_keys=True)


def test_a_deploy_is_taken_back_by_a_new_row_and_the_campaign_is_rebuilt(duel, other_user):
    c = duel
    before, seq0 = snapshot(c), c.seq
    assert not selectors.campaign_view(c, other_user)["can_undo"]  # nothing of his yet
    services.act(c.pk, other_user, c.seq, deploys(c, other_user)[0])
    c.refresh_from_db()
    assert selectors.campaign_view(c, other_user)["can_undo"]
    assert services.undo(c.pk, other_user, c.seq) == seq0 + 1
    c.refresh_from_db()
    assert c.seq == seq0 + 2 and snapshot(c) == before  # the position before the deploy
    row = c.actions.get(seq=c.seq)
    assert row.action == {"type": "undo", "undoes": seq0 + 1} and row.side == "allied"
    assert c.actions.filter(seq=seq0 + 1).exists()  # never a rewrite
    # services.replay and services.states honour it, byte for byte
    assert json.dumps(json.loads(json.dumps(to_json(services.replay(c)))),
                      sort_keys=True) == before
    steps = list((n, json.dumps(json.loads(json.dumps(to_json(core))), sort_keys=True))
                 for n, core in services.states(c))
    assert [n for n, _ in steps] == list(range(0, c.seq + 1))
    assert steps[-1][1] == before and steps[-3][1] == before


def test_undos_nest_and_stop_at_the_opponents_action(duel, other_user, monkeypatch):
    c = duel
    before, seq0 = snapshot(c), c.seq
    for _ in range(2):
        services.act(c.pk, other_user, c.seq, deploys(c, other_user)[0])
        c.refresh_from_db()
    assert services.undo(c.pk, other_user, c.seq) == seq0 + 2
    c.refresh_from_db()
    monkeypatch.setattr(undo, "CHUNK", 1)  # the end of the log cannot decide: read on
    assert c.actions.order_by("-seq").first().action["type"] == "undo"
    assert undo.can_undo(KIND, c, "allied")
    assert services.undo(c.pk, other_user, c.seq) == seq0 + 1
    c.refresh_from_db()
    assert snapshot(c) == before
    with pytest.raises(Conflict) as err:  # the last action counting is Alice's split
        services.undo(c.pk, other_user, c.seq)
    assert err.value.code == "cannot_undo"
    assert err.value.extra["reason"] == "your opponent has acted since your last action"
    # the next action rolls its own seq's dice and the campaign still replays exactly
    services.act(c.pk, other_user, c.seq, deploys(c, other_user)[-1])
    c.refresh_from_db()
    assert json.dumps(json.loads(json.dumps(to_json(services.replay(c)))),
                      sort_keys=True) == snapshot(c)


def test_the_opponent_learns_only_that_an_action_was_taken_back(duel, user, other_user):
    c = duel
    deploy = deploys(c, other_user)[0]
    services.act(c.pk, other_user, c.seq, deploy)
    c.refresh_from_db()
    k = c.seq
    seen_before = selectors.campaign_view(c, user)
    services.undo(c.pk, other_user, c.seq)
    c.refresh_from_db()
    v = selectors.campaign_view(c, user)
    assert_no_leak(c, {"french": user, "allied": other_user})
    # the undone card (face down: Alice never saw it) appears nowhere in her view or log
    assert deploy["card"] not in card_values(v) | card_values(seen_before)
    undone = [e for e in v["log"] if e["type"] == "undone"]
    assert undone == [{"seq": k + 1, "by": "allied", "type": "undone", "undoes": k,
                       "side": "allied", "visibility": "all"}]
    assert not v["can_undo"]
    page = Client()
    page.force_login(user)
    html = page.get(f"/campaigns/{c.pk}/").content.decode()
    assert f"The Allied player took back their last action (#{k})." in html
    assert 'data-testid="undo"' not in html
    mine = Client()
    mine.force_login(other_user)
    assert f"You took back your last action (#{k})." in mine.get(
        f"/campaigns/{c.pk}/").content.decode()


def test_refusals_name_their_reason(duel, user, other_user):
    c = duel
    with pytest.raises(Conflict) as err:
        services.undo(c.pk, user, c.seq)
    assert err.value.code == "cannot_undo" and err.value.extra["reason"] == "it is not your move"
    with pytest.raises(Conflict) as err:
        services.undo(c.pk, other_user, c.seq + 3)
    assert err.value.code == "stale_seq" and err.value.extra == {"seq": c.seq}
    with pytest.raises(BadInput, match="seq must be a whole number"):
        services.undo(c.pk, other_user, "1")
    # campaign decisions and campaign events end undo, whatever the board says
    board = {"board": "quatre-bras"}
    cases = [
        ({"type": "retreat", "side": "allied", **board}, [], "it was a campaign decision"),
        ({"type": "deploy", **board}, [{"type": "campaign_battle_over", "visibility": "all"}],
         "it ended a battle"),
        ({"type": "pass", **board}, [{"type": "retreat_check", "roll": 3, "visibility": "all"}],
         "it rolled dice"),
        ({"type": "deploy", **board}, [{"type": "reveal", "visibility": "all"}],
         "it revealed a card"),
        ({"type": "deploy", "board": "ligny"}, [], "it was on another battle"),
    ]
    for action, events, why in cases:  # the game's part of the rule (play/undo.py the rest)
        assert CAMPAIGN.undo_refusal(action, events, "allied", None, c.state) == why
    assert CAMPAIGN.undo_refusal({"type": "deploy", **board}, [], "allied", None,
                                 c.state) is None
    c.refresh_from_db()
    assert c.seq == 1 and c.actions.count() == 1  # no refusal wrote anything


def test_a_general_deployed_face_up_was_shown_and_stays(duel, other_user):
    c = duel
    general = next(a for a in selectors.campaign_view(c, other_user)["legal_actions"]
                   if a["type"] == "deploy" and TABLE[a["card"]].kind == "general")
    services.act(c.pk, other_user, c.seq, general)
    c.refresh_from_db()
    assert not selectors.campaign_view(c, other_user)["can_undo"]
    with pytest.raises(Conflict) as err:
        services.undo(c.pk, other_user, c.seq)
    assert err.value.extra["reason"] == ("your last action cannot be taken back: it showed a "
                                         "card to your opponent")


def test_the_split_is_a_decision_that_cannot_be_undone(user, other_user, small, sent):
    c = services.create_campaign(user, "allied", opponent="bob")
    services.join_campaign(c.pk, other_user)  # Bob plays the French: he splits first
    c.refresh_from_db()
    services.act(c.pk, other_user, 0, selectors.campaign_view(c, other_user)["legal_actions"][0])
    c.refresh_from_db()
    # Alice (Allied) deploys first at Quatre Bras; Bob's split is no action of hers, and he
    # cannot take it back: it is not his move
    with pytest.raises(Conflict, match="not your move"):
        services.undo(c.pk, other_user, c.seq)


def test_the_api_and_the_page(duel, user, other_user):
    c = duel
    bob = APIClient()
    bob.force_authenticate(other_user)
    r = bob.post(f"/api/campaigns/{c.pk}/undo/", {"seq": c.seq}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "cannot_undo"
    assert r.json()["reason"] == "your opponent has acted since your last action"
    r = bob.post(f"/api/campaigns/{c.pk}/act/",
                 {"seq": c.seq, "action": deploys(c, other_user)[0]}, format="json")
    assert r.status_code == 200 and r.json()["can_undo"] is True
    r = bob.post(f"/api/campaigns/{c.pk}/undo/", {"seq": r.json()["seq"]}, format="json")
    assert r.status_code == 200 and r.json()["can_undo"] is False
    assert r.json()["log"][-1]["type"] == "undone"
    assert bob.post(f"/api/campaigns/{c.pk}/undo/", {"seq": "x"},
                    format="json").status_code == 400
    # the page: an Undo button while it may, a POST that takes back, the reason otherwise
    c.refresh_from_db()
    services.act(c.pk, other_user, c.seq, deploys(c, other_user)[0])
    c.refresh_from_db()
    page = Client()
    page.force_login(other_user)
    assert 'data-testid="undo"' in page.get(f"/campaigns/{c.pk}/").content.decode()
    r = page.post(f"/campaigns/{c.pk}/undo/", {"seq": str(c.seq)})
    assert r.status_code == 302
    r = page.post(f"/campaigns/{c.pk}/undo/", {"seq": str(c.seq + 1)})
    assert r.status_code == 409 and "You cannot undo now" in r.content.decode()
    # the replay page steps through the undo once the campaign is over
    c.refresh_from_db()
    last = c.seq
    services.resign(c.pk, user)
    for step in (last - 1, last):
        r = page.get(f"/campaigns/{c.pk}/replay/?step={step}")
        assert r.status_code == 200 and 'data-testid="board-quatre-bras"' in r.content.decode()
    shown = r.content.decode()  # the last step is the undo
    assert f"After action {last} (by the Allied): action {last - 1} taken back." in shown


def test_an_undo_after_the_flag_fell_ends_the_campaign_by_time(user, other_user, small, sent,
                                                               monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: None)
    c = services.create_campaign(user, "french", opponent="bob", settings={"turn_cap": 4},
                                 time_control={"kind": "live", "base": 600, "increment": 5})
    services.join_campaign(c.pk, other_user)
    c.refresh_from_db()
    services.act(c.pk, user, c.seq, selectors.campaign_view(c, user)["legal_actions"][0])
    c.refresh_from_db()
    services.act(c.pk, other_user, c.seq, deploys(c, other_user)[0])
    c.refresh_from_db()
    assert selectors.campaign_view(c, other_user)["can_undo"]
    Campaign.objects.filter(pk=c.pk).update(  # Bob's time ran out a second ago
        deadline=timezone.now() - timedelta(seconds=1),
        clock_started_at=timezone.now() - timedelta(seconds=901))
    seq = c.seq
    with pytest.raises(Conflict) as refused:
        services.undo(c.pk, other_user, seq)
    assert refused.value.code == "out_of_time"
    c.refresh_from_db()
    assert c.status == "finished" and c.seq == seq  # nothing taken back
    assert c.outcome["reason"] == "time" and c.outcome["winner"] == "french"
