"""The campaign API: two people through /api/campaigns/, refusals as codes, no hidden card
in any answer."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from campaigns import services

from .campaign.helpers import passive, small_pools
from .kinds import campaign_tasks as tasks
from .test_campaign_service import card_values, hidden_from

pytestmark = pytest.mark.django_db


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)


def client_for(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def test_two_people_play_a_campaign_through_the_api(user, other_user, small):
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post("/api/campaigns/", {"side": "allied", "opponent": "open",
                                       "settings": {"turn_cap": 1}}, format="json")
    assert r.status_code == 201, r.json()
    pk = r.json()["id"]
    assert r.json()["status"] == "waiting" and r.json()["view"] is None
    assert [c["id"] for c in bob.get("/api/campaigns/open/").json()["results"]] == [pk]
    r = bob.post(f"/api/campaigns/{pk}/join/", {"pool": "set"}, format="json")
    assert r.status_code == 200 and r.json()["my_side"] == "french"
    clients = {"allied": alice, "french": bob}
    from campaigns.models import Campaign

    for _ in range(500):
        c = Campaign.objects.get(pk=pk)
        if c.status != "active":
            break
        me = clients[c.to_move]
        other = "allied" if c.to_move == "french" else "french"
        seen = clients[other].get(f"/api/campaigns/{pk}/").json()
        assert not card_values(seen["view"]) & hidden_from(c, other)
        v = me.get(f"/api/campaigns/{pk}/?since={c.seq}").json()
        assert v["waiting_for"] == "you" and v["log"] == []
        full = me.get(f"/api/campaigns/{pk}/").json()
        assert not card_values(full["view"]) & hidden_from(c, c.to_move)
        assert all(e["visibility"] in ("all", c.to_move) for e in full["log"])
        r = me.post(f"/api/campaigns/{pk}/act/", {"seq": v["seq"],
                                                 "action": passive(v["legal_actions"])},
                    format="json")
        assert r.status_code == 200, r.json()
    final = alice.get(f"/api/campaigns/{pk}/").json()
    assert final["status"] == "finished" and final["seed"] is not None
    assert final["outcome"]["winner"] in ("french", "allied")
    assert [c["id"] for c in alice.get("/api/campaigns/").json()["results"]] == [pk]


def test_refusals_are_codes(user, other_user, small):
    alice, bob = client_for(user), client_for(other_user)
    assert alice.post("/api/campaigns/", {"side": "prussian"}, format="json").json()[
        "code"] == "bad_input"
    pk = alice.post("/api/campaigns/", {"side": "french"}, format="json").json()["id"]
    r = alice.post(f"/api/campaigns/{pk}/act/", {"seq": 3, "action": {"type": "split"}},
                   format="json")
    assert r.status_code == 409 and r.json()["code"] == "stale_seq" and r.json()["seq"] == 0
    r = alice.post(f"/api/campaigns/{pk}/act/", {"seq": 0, "action": {"type": "retreat"}},
                   format="json")
    assert r.status_code == 400 and r.json()["code"] == "illegal_action"
    assert "split the cards first" in r.json()["detail"]
    assert bob.post(f"/api/campaigns/{pk}/resign/").status_code == 404
    assert alice.post(f"/api/campaigns/{pk}/cancel/").json()["code"] == "conflict"
    r = alice.post(f"/api/campaigns/{pk}/resign/")
    assert r.status_code == 200 and r.json()["outcome"]["winner"] == "allied"
    assert APIClient().get(f"/api/campaigns/{pk}/").status_code in (401, 403)
    assert alice.get("/api/campaigns/99999/").status_code == 404
    assert alice.get(f"/api/campaigns/{pk}/?since=x").json()["code"] == "bad_input"
