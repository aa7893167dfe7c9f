"""The games API (play/api.py): every kind of match under /api/games/<kind>/..., one copy of
the views. A kind's own URLs (/api/battles/..., /api/campaigns/...) are the same views bound
to it: they answer the same, byte for byte, to the same user (hidden information included)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from battles import services as battle_services
from battles.models import Battle
from campaigns import services as campaign_services
from campaigns.models import Campaign
from config.errors import NotFound
from play import api as games
from play import registry

from .campaign.helpers import small_pools
from .kinds import campaign_tasks
from .test_battle_api import VIEW_KEYS, check_hidden
from .test_battle_undo import troop_deploy
from .test_campaign_undo import deploys
from .test_existence_leaks import MISSING, same_answer

pytestmark = pytest.mark.django_db

OLD = {"battle": "battles", "campaign": "campaigns"}  # each kind's own URLs: /api/<old>/


def client_for(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


@pytest.fixture
def carol(db) -> User:
    return User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815")


@pytest.fixture
def small(monkeypatch):
    """Campaigns with small pools and a fixed seed; the computer's turns not sent."""
    pools = small_pools()
    monkeypatch.setattr(campaign_services, "_pool_cards",
                        lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(campaign_services, "new_seed", lambda: 1815)
    campaign_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)


def battle_duel(user, other_user, monkeypatch) -> SimpleNamespace:
    """Alice (French) against Bob (Allied), Quatre Bras: Bob deploys first (4.1)."""
    monkeypatch.setattr(battle_services, "new_seed", lambda: 1815061818150618276)
    b = battle_services.create_battle(user, "quatre-bras", "french", opponent="bob",
                                      settings={"turn_cap": 8})
    b = battle_services.join_battle(b.pk, other_user)
    return SimpleNamespace(kind="battle", pk=b.pk, row=b, mover_side="allied",
                           move=lambda: troop_deploy(b, "allied"))


def campaign_duel(user, other_user) -> SimpleNamespace:
    """Alice (French) against Bob (Allied); Alice has split, Bob deploys at Quatre Bras."""
    from campaigns import selectors

    c = campaign_services.create_campaign(user, "french", opponent="bob",
                                          settings={"turn_cap": 4})
    campaign_services.join_campaign(c.pk, other_user)
    c.refresh_from_db()
    campaign_services.act(c.pk, user, c.seq, selectors.campaign_view(c, user)["legal_actions"][0])
    c.refresh_from_db()
    assert c.to_move == "allied"
    return SimpleNamespace(kind="campaign", pk=c.pk, row=c, mover_side="allied",
                           move=lambda: deploys(c, other_user)[0])


@pytest.fixture(params=["battle", "campaign"])
def duel(request, user, other_user, sent, small, monkeypatch) -> SimpleNamespace:
    """A match of each kind between Alice and Bob, Bob to move with an action he may take
    back (``move()``); ``new``/``old``: its URL through the games API and its kind's own."""
    d = (battle_duel(user, other_user, monkeypatch) if request.param == "battle"
         else campaign_duel(user, other_user))
    d.new = f"/api/games/{d.kind}/{d.pk}/"
    d.old = f"/api/{OLD[d.kind]}/{d.pk}/"
    return d


def seq_of(d) -> int:
    d.row.refresh_from_db()
    return d.row.seq


def both(client, method: str, d, tail: str = "", **kwargs):
    """The same request through the games API and the kind's own URL: (new, old) answers."""
    call = getattr(client, method)
    return call(d.new + tail, **kwargs), call(d.old + tail, **kwargs)


def same(new, old) -> dict:
    assert (new.status_code, new.content) == (old.status_code, old.content), (
        new.status_code, new.content[:300], old.status_code, old.content[:300])
    return new.json()


# --- The games ---------------------------------------------------------------------------------

def test_the_games_are_listed_for_anyone():
    r = client_for().get("/api/games/")
    assert r.status_code == 200
    assert r.json() == {"results": [
        {"kind": k.kind, "title": k.game.title, "sides": list(k.game.sides)}
        for k in registry.kinds() if k.kind != "race"]}  # the test game has no API
    assert [g["kind"] for g in r.json()["results"]] == ["battle", "campaign", "stratego",
                                                       "belle_alliance"]
    assert {g["title"] for g in r.json()["results"]} == {"EAGLES battle", "EAGLES Campaign Game",
                                                         "Stratego: Waterloo",
                                                         "La Belle Alliance"}


@pytest.mark.parametrize("anonymous", [False, True])
@pytest.mark.parametrize("method,path", [
    ("get", "/api/games/chess/"), ("post", "/api/games/chess/"), ("get", "/api/games/chess/open/"),
    ("get", "/api/games/chess/1/"), ("post", "/api/games/chess/1/act/"),
    ("post", "/api/games/chess/1/undo/"), ("post", "/api/games/chess/1/resign/"),
    ("post", "/api/games/chess/1/join/"), ("post", "/api/games/chess/1/cancel/"),
])
def test_an_unknown_kind_is_404_with_the_games_named(user, anonymous, method, path):
    client = client_for(None if anonymous else user)
    r = getattr(client, method)(path, {"seq": 0, "action": {}}, format="json")
    assert r.status_code == 404
    assert r.json() == {"detail": "no such game: 'chess' (the games: battle, campaign, stratego, "
                                  "belle_alliance)",
                        "code": "not_found"}


def test_a_bad_id_is_404_and_tells_nothing(user, other_user, carol, sent, small, monkeypatch):
    b = battle_duel(user, other_user, monkeypatch)
    api = client_for(carol)
    for tail in ("", "act/", "undo/", "resign/", "cancel/"):
        method = api.get if not tail else api.post
        status, body = same_answer(
            lambda pk, m=method, t=tail: m(f"/api/games/battle/{pk}/{t}",
                                           {"seq": 0, "action": {}}, format="json"), b.pk)
        assert status == 404 and json.loads(body) == {"detail": "no such battle",
                                                      "code": "not_found"}
    r = api.get(f"/api/games/campaign/{MISSING}/")
    assert r.status_code == 404 and r.json() == {"detail": "no such campaign",
                                                 "code": "not_found"}
    assert api.get("/api/games/battle/x/").status_code == 404  # not an id: no route


# --- One match through both URLs ---------------------------------------------------------------

def test_the_view_is_the_old_view_for_each_user(duel, user, other_user, carol):
    for who in (user, other_user, carol):
        for query in ("", "?since=1", "?since=x"):
            new, old = both(client_for(who), "get", duel, query)
            data = same(new, old)
            if query == "?since=x":
                assert new.status_code == 400 and data["code"] == "bad_input"
            elif who is carol and duel.kind == "battle":
                assert new.status_code == 404  # a battle shows its players only
            else:
                assert new.status_code == 200
    # hidden information: each player sees only their side (the battle's check, card by card)
    if duel.kind == "battle":
        for who in (user, other_user):
            r = client_for(who).get(duel.new)
            check_hidden(r.json(), r.content)
            assert set(r.json()) == VIEW_KEYS


def test_act_with_a_stale_seq_is_409_and_changes_nothing(duel, other_user):
    bob = client_for(other_user)
    seq = seq_of(duel)
    body = {"seq": seq + 3, "action": duel.move()}
    new, old = both(bob, "post", duel, "act/", data=body, format="json")
    data = same(new, old)
    assert new.status_code == 409 and data["code"] == "stale_seq" and data["seq"] == seq
    assert seq_of(duel) == seq


def test_act_undo_and_resign_through_the_games_api(duel, user, other_user):
    bob, alice = client_for(other_user), client_for(user)
    seq = seq_of(duel)
    r = bob.post(duel.new + "act/", {"seq": seq, "action": duel.move()}, format="json")
    assert r.status_code == 200 and r.json()["seq"] > seq and r.json()["can_undo"] is True
    assert r.content == bob.get(duel.old).content  # the answer is the view, as the old URL's
    acted = r.json()["seq"]
    r = bob.post(duel.new + "undo/", {"seq": acted - 1}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"
    r = bob.post(duel.new + "undo/", {"seq": acted}, format="json")
    assert r.status_code == 200 and r.json()["can_undo"] is False
    assert r.json()["log"][-1]["type"] == "undone"
    r = bob.post(duel.new + "undo/", {"seq": r.json()["seq"]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "cannot_undo" and r.json()["reason"]
    assert alice.post(duel.new + "resign/").status_code == 200
    data = same(*both(alice, "get", duel))
    assert data["status"] == "finished" and data["seed"] is not None
    assert data["outcome"]["winner"] == "allied" and data["outcome"]["reason"] == "resigned"
    r = bob.post(duel.new + "resign/")
    assert r.status_code == 409 and r.json()["code"] == "conflict"


def test_an_absence_claim_through_the_games_api(duel, user, other_user):
    """claim/ is the service's (play.presence) for every kind; the kind's own URL is its
    alias. Untimed: refused with the same reason under both URLs; logged out: refused; an
    unknown kind: 404."""
    alice = client_for(user)
    data = same(*both(alice, "post", duel, "claim/"))
    assert data["code"] == "not_claimable" and data["detail"] == (
        f"you cannot claim this {duel.kind}: only a live {duel.kind} can be claimed for "
        "absence (this one is untimed)")
    assert client_for(user).get(duel.new).json()["can_claim"] is False
    r = client_for().post(duel.new + "claim/")
    assert r.status_code in (401, 403)
    r = client_for(user).post("/api/games/chess/1/claim/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert {"/api/games/{kind}/{id}/claim/", f"/api/{OLD[duel.kind]}/{{id}}/claim/"} <= set(paths)


@pytest.mark.parametrize("method,tail", [
    ("get", ""), ("post", "act/"), ("post", "undo/"), ("post", "resign/"), ("post", "join/"),
    ("post", "cancel/"),
])
def test_anonymous_access_is_the_old_one(duel, method, tail):
    before = seq_of(duel)
    data = same(*both(client_for(), method, duel, tail, data={"seq": 0}, format="json"))
    assert data["detail"] and seq_of(duel) == before
    new = getattr(client_for(), method)(duel.new + tail, {"seq": 0}, format="json")
    assert new.status_code in (401, 403)


@pytest.mark.parametrize("kind", ["battle", "campaign"])
def test_anonymous_lists_and_create_are_the_old_ones(kind):
    anon = client_for()
    for method, tail in (("get", ""), ("post", ""), ("get", "open/")):
        new = getattr(anon, method)(f"/api/games/{kind}/{tail}", {}, format="json")
        old = getattr(anon, method)(f"/api/{OLD[kind]}/{tail}", {}, format="json")
        same(new, old)
        assert new.status_code in (401, 403)


# --- Lists, create, join, cancel ----------------------------------------------------------------

def test_battles_listed_created_joined_and_cancelled_through_the_games_api(
        user, other_user, sent):
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post("/api/games/battle/", {"battle": "quatre-bras", "side": "allied"},
                   format="json")
    assert r.status_code == 201 and set(r.json()) == VIEW_KEYS
    assert r.json()["my_side"] == "allied" and r.json()["opponent"] == "computer (greedy)"
    assert same(alice.get("/api/games/battle/"), alice.get("/api/battles/"))["results"]
    assert same(alice.get("/api/games/battle/?status=finished"),
                alice.get("/api/battles/?status=finished")) == {"results": [], "next": None}
    r = alice.post("/api/games/battle/", {"battle": "jena", "side": "allied"}, format="json")
    assert r.status_code == 400 and "unknown battle" in r.json()["detail"]
    open_one = alice.post("/api/games/battle/", {"battle": "quatre-bras", "side": "french",
                                                 "opponent": "open"}, format="json").json()
    seen = same(bob.get("/api/games/battle/open/"), bob.get("/api/battles/open/"))
    assert [b["id"] for b in seen["results"]] == [open_one["id"]]
    r = bob.post(f"/api/games/battle/{open_one['id']}/join/", {}, format="json")
    assert r.status_code == 200 and r.json()["my_side"] == "allied"
    waiting = alice.post("/api/games/battle/", {"battle": "quatre-bras", "side": "french",
                                                "opponent": "open"}, format="json").json()
    r = alice.post(f"/api/games/battle/{waiting['id']}/cancel/")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert r.json() == alice.get("/api/battles/").json()["results"][0]


def test_campaigns_listed_created_joined_and_cancelled_through_the_games_api(
        user, other_user, small):
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post("/api/games/campaign/", {"side": "allied", "opponent": "open"}, format="json")
    assert r.status_code == 201 and r.json()["status"] == "waiting"
    pk = r.json()["id"]
    seen = same(bob.get("/api/games/campaign/open/"), bob.get("/api/campaigns/open/"))
    assert [c["id"] for c in seen["results"]] == [pk]
    r = bob.post(f"/api/games/campaign/{pk}/join/", {"pool": "set"}, format="json")
    assert r.status_code == 200 and r.json()["my_side"] == "french"
    assert same(alice.get("/api/games/campaign/"), alice.get("/api/campaigns/"))["results"]
    other = alice.post("/api/games/campaign/", {"side": "french", "opponent": "open"},
                       format="json").json()
    r = alice.post(f"/api/games/campaign/{other['id']}/cancel/")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert alice.post("/api/games/campaign/", {"side": "prussian"},
                      format="json").json()["code"] == "bad_input"
    assert Campaign.objects.count() == 2


def test_creating_through_the_games_api_counts_with_the_old_url(settings, user, sent):
    settings.EAGLES_EXPENSIVE_PER_MINUTE = 1
    alice = client_for(user)
    assert alice.post("/api/battles/", {"battle": "quatre-bras", "side": "allied"},
                      format="json").status_code == 201
    r = alice.post("/api/games/battle/", {"battle": "quatre-bras", "side": "allied"},
                   format="json")
    assert r.status_code == 429 and Battle.objects.count() == 1


# --- A new game needs nothing new here ---------------------------------------------------------

def test_a_third_kind_is_served_by_its_own_table(monkeypatch, user):
    calls = []
    toy = SimpleNamespace(kind="toy", noun="toy",
                          game=SimpleNamespace(kind="toy", title="Toy", sides=("red", "blue")))
    monkeypatch.setitem(registry._kinds, "toy", toy)
    match = SimpleNamespace(pk=5)
    from play import lists
    from tests.toygame.models import Race

    race = Race.objects.create(french_player=user, bot="cautious", seed=1, seed_hash="h")

    def match_of(user, pk):
        if pk != 5:
            raise NotFound("no such toy")
        return match

    table = games.GameAPI(
        kind="toy", match_of=match_of,
        view=lambda m, user, since=0: {"id": m.pk, "since": since, "calls": list(calls)},
        summary=lambda m, user: {"id": m.pk},
        mine=lambda user, query: lists.branches(Race.objects.all(), user),
        open=lambda user: [], open_row=lambda m, user: {"id": m.pk},
        create=lambda user, body: calls.append(("create", body)) or match,
        join=lambda pk, user, body: calls.append(("join", pk)),
        cancel=lambda pk, user: calls.append(("cancel", pk)) or match,
        act=lambda pk, user, seq, action: calls.append(("act", pk, seq, action)),
        undo=lambda pk, user, seq: calls.append(("undo", pk, seq)),
        resign=lambda pk, user: calls.append(("resign", pk)),
        docs=games.GAMES)
    monkeypatch.setitem(games._offered, "toy", table)
    api = client_for(user)
    assert api.get("/api/games/").json()["results"][-1] == {"kind": "toy", "title": "Toy",
                                                            "sides": ["red", "blue"]}
    assert api.get("/api/games/toy/").json() == {"results": [{"id": race.pk}], "next": None}
    assert api.get("/api/games/toy/5/?since=2").json() == {"id": 5, "since": 2, "calls": []}
    r = api.post("/api/games/toy/5/act/", {"seq": 1, "action": {"type": "go"}}, format="json")
    assert r.json()["calls"] == [["act", 5, 1, {"type": "go"}]]
    assert api.post("/api/games/toy/", {"x": 1}, format="json").status_code == 201
    api.post("/api/games/toy/5/join/", {}, format="json")
    api.post("/api/games/toy/5/undo/", {"seq": 2}, format="json")
    api.post("/api/games/toy/5/resign/")
    assert api.post("/api/games/toy/5/cancel/").json() == {"id": 5}
    assert calls[1:] == [("create", {"x": 1}), ("join", 5), ("undo", 5, 2), ("resign", 5),
                         ("cancel", 5)]
    assert api.get("/api/games/toy/6/").json() == {"detail": "no such toy", "code": "not_found"}


# --- The schema ----------------------------------------------------------------------------------

def test_the_schema_documents_both_shapes():
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    act = paths["/api/games/{kind}/{id}/act/"]["post"]
    kind = next(p for p in act["parameters"] if p["name"] == "kind")
    assert kind["in"] == "path" and kind["schema"]["enum"] == ["battle", "belle_alliance",
                                                                    "campaign", "stratego"]
    assert act["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/GameView")
    for path in ("/api/games/", "/api/games/{kind}/", "/api/games/{kind}/open/",
                 "/api/games/{kind}/{id}/", "/api/games/{kind}/{id}/undo/",
                 "/api/games/{kind}/{id}/resign/", "/api/games/{kind}/{id}/join/",
                 "/api/games/{kind}/{id}/cancel/"):
        assert path in paths
    # a kind's own URLs keep its own shapes
    for old, shape in (("battles", "BattleView"), ("campaigns", "CampaignView")):
        op = paths[f"/api/{old}/{{id}}/act/"]["post"]
        assert op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
            f"/{shape}")
        assert all(p["name"] != "kind" for p in op["parameters"])
