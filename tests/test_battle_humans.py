# Over 500 lines on purpose: one idea, battles between two people, seat to outcome.
"""Battles between two people: open battles and invitations, joining (one seat, one winner),
cancelling and declining, two players taking turns through ``act`` with each one's hidden
information kept from the other at every step, and the computer staying out of it."""

from __future__ import annotations

import hashlib
import json
import random
import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from battles import dealing, services, setup
from battles.engine import from_json, historical_deck, legal_actions, new_battle, to_json
from battles.models import Battle, Status
from battles.services import BattleError, Conflict, NotAllowed, NotFound
from cards.catalogue.file import catalogue_records
from play import autoplay

from .kinds import battle_tasks as tasks
from .test_battle_api import SUMMARY_KEYS, VIEW_KEYS, check_hidden
from .tournament_helpers import player, valid_entries

RECORDS = catalogue_records()  # the card records the engine is given

pytestmark = pytest.mark.django_db

OPEN_KEYS = {"id", "battle", "side", "creator", "settings", "scale", "created_at"}
OPEN_KEYS |= {"time_control"}  # issue 12, Time


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def bob_api(other_user) -> APIClient:
    return client(other_user)


@pytest.fixture
def carol(db) -> User:
    return User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815")


@pytest.fixture
def carol_api(carol) -> APIClient:
    return client(carol)


def post(c: APIClient, url: str, body=None, expect=200) -> dict:
    r = c.post(url, body if body is not None else {}, format="json")
    assert r.status_code == expect, r.content
    return r.json()


def create(c: APIClient, expect=201, **body) -> dict:
    return post(c, "/api/battles/", {"battle": "quatre-bras", "side": "french", **body}, expect)


def join(c: APIClient, battle_id, expect=200, **body) -> dict:
    return post(c, f"/api/battles/{battle_id}/join/", body, expect)


def cancel(c: APIClient, battle_id, expect=200) -> dict:
    return post(c, f"/api/battles/{battle_id}/cancel/", None, expect)


def listed(c: APIClient, url="/api/battles/") -> dict[int, dict]:
    r = c.get(url)
    assert r.status_code == 200
    return {row["id"]: row for row in r.json()["results"]}


def row_state(battle_id) -> tuple:
    b = Battle.objects.get(pk=battle_id)
    return (b.seq, b.status, b.french_player_id, b.allied_player_id, json.dumps(b.decks),
            json.dumps(b.state, sort_keys=True), b.actions.count())


# --- A whole battle between two people ------------------------------------------------------

def test_two_people_play_a_whole_battle_and_neither_sees_a_hidden_card(
        user, other_user, alice_api, bob_api, sent, monkeypatch,
        django_capture_on_commit_callbacks):
    # A long battle between two seeded random players (fire, shock, morale, reinforcements);
    # a 19-digit seed, searched for in every answer. (Seed chosen again for the engine
    # rulings of issue 9, which change the battle played.)
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618276)
    # The seed gives a long battle when every action is a click: no auto-play here
    # (play/autoplay.py, tested in test_autoplay.py).
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    with django_capture_on_commit_callbacks(execute=True):
        data = create(alice_api, side="french", opponent="open")
    bid = data["id"]
    # Waiting: no position yet, nothing to do but wait for someone to take the Allied seat.
    assert set(data) == VIEW_KEYS and data["status"] == "waiting"
    assert data["view"] is None and data["legal_actions"] == [] and data["log"] == []
    assert data["waiting_for"] == "opponent" and data["opponent"] is None
    assert bid in listed(bob_api, "/api/battles/open/")
    with django_capture_on_commit_callbacks(execute=True):
        data = join(bob_api, bid)
    assert data["my_side"] == "allied" and data["opponent"] == "alice"
    assert data["status"] == "active" and data["waiting_for"] == "you"  # 4.1 Allies first
    assert bid not in listed(bob_api, "/api/battles/open/")

    players = {"french": alice_api, "allied": bob_api}
    rng = random.Random("two people")
    secrets_checked = {"french": 0, "allied": 0}
    moves = {"french": 0, "allied": 0}
    steps = 0
    while True:
        steps += 1
        assert steps < 3000, "the battle does not end"
        views = {}
        for side, c in players.items():  # each player sees only their own side, every step
            r = c.get(f"/api/battles/{bid}/")
            assert r.status_code == 200
            views[side] = r.json()
            assert set(views[side]) == VIEW_KEYS and views[side]["my_side"] == side
            secrets_checked[side] += check_hidden(views[side], r.content)
        if views["french"]["status"] != "active":
            break
        mover = next(s for s, v in views.items() if v["waiting_for"] == "you")
        other = "allied" if mover == "french" else "french"
        assert views[other]["waiting_for"] == "opponent" and views[other]["legal_actions"] == []
        assert views[mover]["legal_actions"] == legal_actions(
            from_json(Battle.objects.get(pk=bid).state, cards=RECORDS), mover)
        seq = views[mover]["seq"]
        # The other player cannot move now; the computer is never asked.
        post(players[other], f"/api/battles/{bid}/act/",
             {"seq": seq, "action": {"type": "end_turn", "side": other}}, expect=409)
        assert tasks.bot_move(bid, seq) == 0
        with django_capture_on_commit_callbacks(execute=True):
            r = players[mover].post(f"/api/battles/{bid}/act/", {
                "seq": seq, "action": rng.choice(views[mover]["legal_actions"])}, format="json")
        assert r.status_code == 200, r.content
        secrets_checked[mover] += check_hidden(r.json(), r.content)
        moves[mover] += 1

    b = Battle.objects.get(pk=bid)
    assert b.status == Status.FINISHED and b.outcome and b.finished_at is not None
    assert b.seq == sum(moves.values()) and min(moves.values()) > 20
    assert sent == []  # no computer in this battle, at any point
    # Face-down enemy cards were there to leak for both players, at most steps.
    assert min(secrets_checked.values()) > 100, secrets_checked
    for v in views.values():
        assert v["status"] == "finished" and v["waiting_for"] is None
        assert v["outcome"] == b.outcome and v["legal_actions"] == []
        assert v["seed"] == str(b.seed)
        assert hashlib.sha256(v["seed"].encode()).hexdigest() == v["seed_hash"]
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state
    rows = {side: listed(c)[bid] for side, c in players.items()}
    assert rows["french"]["opponent"] == "bob" and rows["allied"]["opponent"] == "alice"
    assert not rows["french"]["invited"] and not rows["allied"]["invited"]


# --- Creating -----------------------------------------------------------------------------

def test_open_battle_waits_without_a_position(user, sent):
    b = services.create_battle(user, "quatre-bras", "allied", opponent="open")
    assert b.status == Status.WAITING and b.state is None and b.bot == ""
    assert b.invited is None and b.free_seat() == "french" and b.computer_side() is None
    # The seed and the creator's choice are fixed now; the decks are dealt at join (2.0).
    assert b.decks == {} and set(b.deck_choices) == {"british"}
    assert b.seed_hash == hashlib.sha256(str(b.seed).encode()).hexdigest()
    assert sent == []


def test_default_opponent_is_still_the_computer(user, sent,
                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        b = services.create_battle(user, "quatre-bras", "french")
    assert b.status == Status.ACTIVE and b.bot == "greedy" and b.computer_side() == "allied"
    assert sent == [(b.pk, 0)]


@pytest.mark.parametrize("opponent,status,message", [
    ("nobody", 404, "no player named 'nobody'"),
    ("alice", 400, "you cannot invite yourself"),
    ("ALICE", 400, "you cannot invite yourself"),
    ("", 400, "opponent must be"),
    (12, 400, "opponent must be"),
    (None, 400, "opponent must be"),
])
def test_create_refuses_an_unknown_or_self_invitation(alice_api, other_user, opponent, status,
                                                      message):
    body = create(alice_api, expect=status, opponent=opponent)
    assert message in body["detail"]
    assert not Battle.objects.exists()


def test_an_inactive_player_cannot_be_invited(user, other_user):
    other_user.is_active = False
    other_user.save()
    with pytest.raises(NotFound, match="no player named 'bob'"):
        services.create_battle(user, "quatre-bras", "french", opponent="bob")


# --- Open battles ---------------------------------------------------------------------------

def test_open_battles_show_only_a_public_summary(alice_api, bob_api, carol, carol_api, sent):
    first = create(alice_api, side="french", opponent="open")
    second = create(alice_api, side="allied", opponent="open",
                    settings={"turn_cap": 12, "decoys": True})
    create(alice_api, side="allied", opponent="carol")  # an invitation: not open
    create(alice_api, side="allied")  # against the computer: not open
    r = bob_api.get("/api/battles/open/")
    rows = r.json()["results"]
    assert [row["id"] for row in rows] == [second["id"], first["id"]]  # newest first
    assert all(set(row) == OPEN_KEYS for row in rows)
    assert rows[0]["side"] == "french" and rows[0]["creator"] == "alice"
    assert rows[0]["settings"] == {"turn_cap": 12, "decoys": True}
    assert rows[1]["side"] == "allied" and rows[1]["battle"] == "quatre-bras"
    both = Battle.objects.filter(pk__in=[first["id"], second["id"]])
    assert both.count() == 2  # the loop below checks both secrets
    for b in both:
        assert str(b.seed).encode() not in r.content and b"seed" not in r.content
        assert b"decks" not in r.content and b"cards" not in r.content
    assert listed(alice_api, "/api/battles/open/") == {}  # not my own
    assert set(listed(carol_api, "/api/battles/open/")) == {first["id"], second["id"]}
    # Nobody but the players sees the battle itself, open or not.
    assert bob_api.get(f"/api/battles/{first['id']}/").status_code == 404
    assert listed(bob_api) == {}


def test_anyone_but_the_creator_may_join_an_open_battle(user, other_user, carol, sent):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    with pytest.raises(BattleError, match="you already play the french side") as err:
        services.join_battle(b.pk, user)
    assert err.value.status == 400
    with pytest.raises(NotAllowed):
        services.join_battle(b.pk, None)
    services.join_battle(b.pk, carol)
    b.refresh_from_db()
    assert b.status == Status.ACTIVE and b.allied_player == carol and b.french_player == user
    assert services.side_of(b, carol) == "allied"
    with pytest.raises(Conflict, match="the seat is taken") as err:
        services.join_battle(b.pk, other_user)
    assert err.value.status == 409
    with pytest.raises(BattleError, match="you already play the allied side"):
        services.join_battle(b.pk, carol)


def test_join_starts_the_battle_from_its_setup(user, other_user, sent):
    b = services.create_battle(user, "quatre-bras", "allied", opponent="open")
    services.join_battle(b.pk, other_user)
    b.refresh_from_db()
    # No deck chosen: both armies get the default historical deck, dealt from the seed.
    assert b.decks == dealing.redeal(b, setup.engine_cards(b))
    assert set(b.decks) == {"french", "british"}
    assert b.decks == {a: sorted(historical_deck("quatre-bras", a, b.seed, RECORDS))
                       for a in ("french", "british")}
    assert all(c["kind"] == "default" for c in b.deck_choices.values())
    assert b.state == to_json(new_battle("quatre-bras", b.seed, b.decks, b.settings, cards=RECORDS,
                                         deck_kinds=b.deck_kinds))
    assert services.priority(b) == "allied" and b.seq == 0
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state
    assert sent == []


def test_join_with_own_deck(catalogue, sent):
    dora, dora_decks = player("dora")
    erin, erin_decks = player("erin")
    b = services.create_battle(dora, "quatre-bras", "french", opponent="open",
                               deck_version_id=dora_decks["french"].pk)
    before = row_state(b.pk)
    # The joiner's deck: theirs, valid, for the battle and an army of the free side.
    with pytest.raises(NotFound, match="no such deck version"):
        services.join_battle(b.pk, erin, deck_version_id=dora_decks["british"].pk)
    with pytest.raises(BattleError, match="french deck: it cannot play the allied side"):
        services.join_battle(b.pk, erin, deck_version_id=erin_decks["french"].pk)
    with pytest.raises(BattleError, match="deck_version must be"):
        services.join_battle(b.pk, erin, deck_version_id="1")
    assert row_state(b.pk) == before  # refused: still waiting, nothing changed

    services.join_battle(b.pk, erin, deck_version_id=erin_decks["british"].pk)
    b.refresh_from_db()
    own = sorted(n for n, _, _ in valid_entries("british", "quatre-bras"))
    assert b.decks["british"] == own and b.british_deck == erin_decks["british"]
    assert b.french_deck == dora_decks["french"]
    assert b.state == to_json(new_battle("quatre-bras", b.seed, b.decks, b.settings, cards=RECORDS,
                                         deck_kinds=b.deck_kinds))
    mine = services.battle_view(b, erin)["view"]["reserves"]["allied"]["cards"]
    assert mine and set(mine) <= set(own)
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state


def test_join_through_the_api_with_a_deck(catalogue, sent):
    dora, _ = player("dora")
    erin, erin_decks = player("erin")
    bid = create(client(dora), side="french", opponent="open")["id"]
    body = join(client(erin), bid, expect=404, deck_version=123456)
    assert "no such deck version" in body["detail"]
    data = join(client(erin), bid, deck_version=erin_decks["british"].pk)
    assert data["my_side"] == "allied" and data["status"] == "active"
    check_hidden(data, json.dumps(data).encode())
    assert join(client(erin), bid, expect=400, deck_version=None)["detail"].startswith(
        "you already play")


# --- Invitations ----------------------------------------------------------------------------

def test_an_invitation_is_joinable_only_by_the_invitee(alice_api, bob_api, carol_api, sent):
    data = create(alice_api, side="allied", opponent="Bob")  # usernames match in any case
    bid = data["id"]
    assert data["status"] == "waiting" and data["opponent"] == "bob"
    assert data["waiting_for"] == "opponent" and data["view"] is None
    # Bob's list shows the invitation, flagged, with the side kept for him.
    row = listed(bob_api)[bid]
    assert set(row) == SUMMARY_KEYS and row["invited"] is True
    assert row["my_side"] == "french" and row["opponent"] == "alice"
    assert row["status"] == "waiting" and row["waiting_for"] == "you"
    assert listed(alice_api)[bid]["invited"] is False
    # Not open, and private to anyone else.
    assert bid not in listed(carol_api, "/api/battles/open/")
    assert bid not in listed(bob_api, "/api/battles/open/")
    assert listed(carol_api) == {}
    before = row_state(bid)
    assert "no such battle" in join(carol_api, bid, expect=404)["detail"]
    assert cancel(carol_api, bid, expect=404)["detail"] == "no such battle"
    assert carol_api.get(f"/api/battles/{bid}/").status_code == 404
    assert join(alice_api, bid, expect=400)["detail"].startswith("you already play")
    assert bob_api.get(f"/api/battles/{bid}/").status_code == 404  # a player once he joins
    assert row_state(bid) == before

    data = join(bob_api, bid)
    assert data["my_side"] == "french" and data["opponent"] == "alice"
    assert data["status"] == "active" and data["waiting_for"] == "opponent"  # 4.1
    row = listed(bob_api)[bid]
    assert row["invited"] is False and row["status"] == "active"
    assert listed(alice_api)[bid]["opponent"] == "bob"
    assert listed(alice_api)[bid]["waiting_for"] == "you"


def test_selectors_joinable_and_open_summary(user, other_user, carol, sent):
    open_b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    invite = services.create_battle(user, "quatre-bras", "french", opponent="carol")
    assert services.joinable(other_user, open_b.pk) == open_b
    assert services.joinable(carol, invite.pk) == invite
    for who, battle_id in [(other_user, invite.pk), (user, open_b.pk), (None, open_b.pk),
                           (carol, open_b.pk + 1000)]:
        with pytest.raises(NotFound):
            services.joinable(who, battle_id)
    assert services.open_summary(open_b)["creator"] == "alice"
    assert services.open_summary(open_b)["side"] == "allied"
    assert list(services.invitations_of(carol)) == [invite]
    assert list(services.invitations_of(other_user)) == []


# --- Waiting: nothing happens ----------------------------------------------------------------

def test_act_while_waiting_is_a_conflict(user, alice_api, sent):
    b = services.create_battle(user, "quatre-bras", "allied", opponent="open")
    before = row_state(b.pk)
    with pytest.raises(Conflict, match="waiting for an opponent") as err:
        services.act(b.pk, user, 0, {"type": "deployment_done", "side": "allied"})
    assert err.value.status == 409
    body = post(alice_api, f"/api/battles/{b.pk}/act/",
                {"seq": 0, "action": {"type": "deployment_done", "side": "allied"}}, 409)
    assert body["detail"].startswith("waiting for an opponent")
    assert row_state(b.pk) == before


def test_the_computer_never_moves_in_a_battle_between_people(user, other_user, sent):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    assert tasks.bot_move(b.pk, 0) == 0  # waiting
    later = timezone.now() + timedelta(hours=1)
    assert tasks.stalled_computer_turns(now=later) == []
    services.join_battle(b.pk, other_user)
    b.refresh_from_db()
    assert services.priority(b) == "allied"  # the other person's move, not the computer's
    Battle.objects.filter(pk=b.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert tasks.bot_move(b.pk, 0) == 0
    assert tasks.stalled_computer_turns(now=later) == [] and tasks.tick() == []
    services.act(b.pk, other_user, 0, legal_actions(from_json(b.state, cards=RECORDS), "allied")[0])
    b.refresh_from_db()
    assert tasks.bot_move(b.pk, 1) == 0
    assert b.seq == 1 and sent == []


# --- Cancelling and declining ---------------------------------------------------------------

def test_the_creator_cancels_a_waiting_battle(alice_api, bob_api, sent):
    bid = create(alice_api, side="french", opponent="open")["id"]
    assert cancel(bob_api, bid, expect=403)["detail"] == "only its creator can cancel an " \
                                                          "open battle"
    row = cancel(alice_api, bid)
    assert set(row) == SUMMARY_KEYS and row["status"] == "cancelled"
    assert row["waiting_for"] is None and row["finished_at"] is not None
    assert bid not in listed(bob_api, "/api/battles/open/")
    assert join(bob_api, bid, expect=409)["detail"] == "the battle was cancelled by its creator"
    assert cancel(alice_api, bid, expect=409)["detail"] == "the battle was already cancelled"
    body = post(alice_api, f"/api/battles/{bid}/act/",
                {"seq": 0, "action": {"type": "end_turn", "side": "french"}}, 409)
    assert body["detail"] == "the battle never started: it was cancelled"
    assert listed(alice_api, "/api/battles/?status=cancelled")[bid]["status"] == "cancelled"
    assert Battle.objects.get(pk=bid).state is None


def test_the_invitee_declines(alice_api, bob_api, sent):
    bid = create(alice_api, side="french", opponent="bob")["id"]
    row = cancel(bob_api, bid)
    assert row["status"] == "declined" and row["invited"] is True
    assert row["my_side"] == "allied" and row["waiting_for"] is None
    assert join(bob_api, bid, expect=409)["detail"] == "you declined this battle"
    assert cancel(bob_api, bid, expect=409)["detail"] == "the invitation was already declined"
    assert cancel(alice_api, bid, expect=409)["detail"] == "the invitation was already declined"
    assert listed(alice_api)[bid]["status"] == "declined"
    assert listed(bob_api)[bid]["status"] == "declined"


def test_a_started_battle_cannot_be_cancelled(user, other_user, sent):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, other_user)
    computer = services.create_battle(user, "quatre-bras", "french")
    for battle_id, who in [(b.pk, user), (b.pk, other_user), (computer.pk, user)]:
        with pytest.raises(Conflict, match="it can no longer be cancelled"):
            services.cancel_battle(battle_id, who)
    with pytest.raises(NotFound):
        services.cancel_battle(computer.pk, other_user)
    with pytest.raises(NotAllowed):
        services.cancel_battle(b.pk, None)


def test_anonymous_cannot_use_the_new_endpoints(api, alice_api, sent):
    bid = create(alice_api, opponent="open")["id"]
    assert api.get("/api/battles/open/").status_code in (401, 403)
    for url in (f"/api/battles/{bid}/join/", f"/api/battles/{bid}/cancel/"):
        assert api.post(url, {}, format="json").status_code in (401, 403)
    assert Battle.objects.get(pk=bid).status == Status.WAITING


def test_join_or_cancel_an_unknown_battle_is_404(bob_api):
    assert join(bob_api, 999999, expect=404)["detail"] == "no such battle"
    assert cancel(bob_api, 999999, expect=404)["detail"] == "no such battle"


# --- Two people taking the seat at once (PostgreSQL) ----------------------------------------

@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_join_seats_exactly_one(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = User.objects.create_user("alice-pg", "", "pw")
    joiners = [User.objects.create_user(f"joiner-{i}", "", "pw") for i in range(2)]
    b = services.create_battle(alice, "quatre-bras", "allied", opponent="open")
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def take_seat(i):
        try:
            barrier.wait(timeout=30)
            results[i] = services.join_battle(b.pk, joiners[i])
        except Exception as exc:  # noqa: BLE001 - inspected below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=take_seat, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    won = [i for i, r in enumerate(results) if isinstance(r, Battle)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(won) == 1 and len(refused) == 1, results
    assert refused[0].message == "the seat is taken" and refused[0].status == 409
    b.refresh_from_db()
    assert b.status == Status.ACTIVE and b.french_player_id == joiners[won[0]].pk
    assert b.state == to_json(new_battle("quatre-bras", b.seed, b.decks, b.settings, cards=RECORDS))


# --- The seats, as the database keeps them --------------------------------------------------

@pytest.mark.parametrize("fields", [
    {"bot": "", "status": Status.ACTIVE},  # an empty human seat in a started battle
    {"bot": "greedy", "status": Status.WAITING},  # the computer never waits
    {"bot": "greedy", "allied_player": "bob"},  # the computer needs the empty seat
    {"bot": "", "status": Status.WAITING, "allied_player": "bob"},  # both seats taken
    {"bot": "greedy", "invited": "bob"},  # an invitation is for a person
    {"bot": "", "status": Status.DECLINED},  # declined: only an invitation
    {"bot": "greedy", "state": None},  # a started battle has a position
])
def test_the_database_refuses_a_seating_that_makes_no_sense(user, other_user, fields):
    values = {"battle": "quatre-bras", "seed": 1, "seed_hash": "x", "state": {},
              "french_player": user, "bot": "greedy", "status": Status.ACTIVE, **fields}
    for key in ("allied_player", "invited"):
        if values.get(key) == "bob":
            values[key] = other_user
    with pytest.raises(IntegrityError), transaction.atomic():
        Battle.objects.create(**values)
