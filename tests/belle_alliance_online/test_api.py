"""La Belle Alliance on the game service through the games API (/api/games/belle_alliance/):
two people create, join, act (an illegal action and a stale seq refused with a message), watch
(a spectator), undo (until a die is rolled), resign and export; a game against the computer
played to its end by the worker's task; replays with the dice check (a changed die found);
a rated game updating both players' "belle_alliance" ratings and their side records."""

from __future__ import annotations

import random

import pytest

from online.belle_alliance import services
from online.belle_alliance.kind import GAME, KIND
from online.belle_alliance.models import BelleAllianceAction, BelleAllianceMatch
from play import opening, registry, replays
from ratings.models import RatedMatch, Rating, SideRecord

from ..kinds import KindTasks
from .helpers import BASE, client_for, play

pytestmark = pytest.mark.django_db
tasks = KindTasks("belle_alliance")


@pytest.fixture
def asked(monkeypatch):
    calls: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: calls.append(args))
    monkeypatch.setattr(opening, "new_seed", lambda: 1815061818150618276)
    return calls


def open_game(user, other_user, rated: bool = False) -> int:
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post(BASE, {"side": "french", "opponent": "open", "rated": rated},
                   format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "waiting" and r.json()["view"] is None
    pk = r.json()["id"]
    assert [g["id"] for g in bob.get(f"{BASE}open/").json()["results"]] == [pk]
    assert alice.post(f"{BASE}{pk}/join/", {}, format="json").status_code == 409
    r = bob.post(f"{BASE}{pk}/join/", {}, format="json")
    assert r.status_code == 200 and r.json()["my_side"] == "allied"
    return pk


def test_the_kind_is_registered_with_its_pool():
    kind = registry.get("belle_alliance")
    assert kind is KIND and kind.game is GAME and kind.rating_pool == "belle_alliance"


def test_two_people_create_join_act_watch_and_resign(user, other_user, asked,
                                                     django_user_model):
    carol = django_user_model.objects.create_user("carol", "", "pw")
    pk = open_game(user, other_user)
    alice, bob, watcher = client_for(user), client_for(other_user), client_for(carol)
    v = alice.get(f"{BASE}{pk}/").json()
    assert v["waiting_for"] == "you" and v["phase"] == "french" and v["turn"] == 1
    assert v["view"]["position"]["morale"] == {"french": 10, "allied": 10}
    assert v["view"]["edition"] == "house-v2" and v["view"]["publisher"] is False
    assert {a["type"] for a in v["legal_actions"]} == {"act"}
    # an illegal action: 400 with the engine's message, nothing recorded
    bad = {"type": "act", "card": "I", "action": "no-such", "target": "orange"}
    r = alice.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": bad}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "illegal_action"
    assert "not a legal action" in r.json()["detail"]
    r = alice.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": "charge"}, format="json")
    assert r.status_code == 400, r.json()
    # another's move, a stale seq
    r = bob.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": {"type": "pass"}},
                 format="json")
    assert r.status_code in (403, 409) and r.json()["detail"]
    r = alice.post(f"{BASE}{pk}/act/", {"seq": v["seq"] + 5, "action": v["legal_actions"][0]},
                   format="json")
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"
    # a French activation: the die rolled, the Allies to move
    act = v["legal_actions"][0]
    r = alice.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": act}, format="json")
    assert r.status_code == 200, r.json()
    body = r.json()
    assert any(e["type"] == "roll" and e["dice"] for e in body["log"])
    # no undo: the die was rolled and the phase is over
    assert body["can_undo"] is False and body["waiting_for"] == "opponent"
    r = alice.post(f"{BASE}{pk}/undo/", {"seq": body["seq"]}, format="json")
    assert r.status_code == 409 and "not your move" in r.json()["detail"]
    # a spectator sees the same position, no legal actions
    w = watcher.get(f"{BASE}{pk}/").json()
    assert w["my_side"] is None and w["legal_actions"] == []
    assert w["view"]["position"] == bob.get(f"{BASE}{pk}/").json()["view"]["position"]
    assert [g["id"] for g in watcher.get(f"{BASE}").json()["results"]] == []
    rng = random.Random(27)
    for _ in range(6):
        m = BelleAllianceMatch.objects.get(pk=pk)
        if m.status != "active":
            break
        play({"french": alice, "allied": bob}[m.to_move], pk, rng)
    m = BelleAllianceMatch.objects.get(pk=pk)
    if m.status == "active":
        r = client_for(None).get(f"{BASE}{pk}/export/")
        assert r.status_code == 409 and r.json()["code"] == "game_not_over"
        r = bob.post(f"{BASE}{pk}/resign/", format="json")
        assert r.status_code == 200 and r.json()["status"] == "finished"
        assert r.json()["outcome"]["winner"] == "french"
        assert r.json()["outcome"]["reason"] == "resigned" and r.json()["seed"]
    # the export and the replay rebuild the game, every die checked
    doc = client_for(None).get(f"{BASE}{pk}/export/").json()
    assert doc["format"] == "belle-alliance/1" and doc["edition"] == "house-v2"
    m = BelleAllianceMatch.objects.get(pk=pk)
    assert GAME.to_json(services.replay(m)) == m.state
    book = replays.replay_book(KIND, m, log=True)
    assert book.check.ok and book.check.dice >= 1 and len(book.steps) == m.seq + 1


def test_cancel_decline_and_bad_input(user, other_user, asked):
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post(BASE, {"side": "allied", "opponent": "bob"}, format="json")
    assert r.status_code == 201
    pk = r.json()["id"]
    assert bob.get(f"{BASE}{pk}/").status_code == 200
    assert bob.post(f"{BASE}{pk}/cancel/").json()["status"] == "declined"
    for body, words in (({"side": "prussian"}, "side must be one of"),
                        ({"side": "french", "bot": "napoleon"}, "bot must be one of"),
                        ({"side": "french", "rated": True}, "never rated"),
                        ({"side": "french", "opponent": "nobody-here"}, "no player named")):
        r = alice.post(BASE, body, format="json")
        assert 400 <= r.status_code < 500 and words in r.json()["detail"], r.json()
    r = alice.post(BASE, {"side": "french", "opponent": "open"}, format="json")
    assert alice.post(f"{BASE}{r.json()['id']}/cancel/").json()["status"] == "cancelled"
    assert client_for(None).post(BASE, {"side": "french"}, format="json").status_code in (
        401, 403)


def _tamper_first_roll(m: BelleAllianceMatch) -> int:
    row = next(a for a in m.actions.order_by("seq") if any(e["type"] == "roll"
                                                          for e in a.events))
    events = [dict(e) for e in row.events]
    roll = next(e for e in events if e["type"] == "roll")
    roll["dice"] = [7 - roll["dice"][0], *roll["dice"][1:]]
    BelleAllianceAction.objects.filter(pk=row.pk).update(events=events)
    return row.seq


def test_a_game_against_the_computer_is_played_to_the_end_by_the_worker(
        user, asked, django_capture_on_commit_callbacks):
    """alice (the Allies) against the greedy computer (the French, who act first): the
    service asks the worker at each of its phases; the game ends by a rout; the replay's
    dice check passes, and finds a die changed in the stored log."""
    alice = client_for(user)
    with django_capture_on_commit_callbacks(execute=True):
        r = alice.post(BASE, {"side": "allied", "bot": "greedy"}, format="json")
    assert r.status_code == 201, r.json()
    pk = r.json()["id"]
    assert r.json()["waiting_for"] == "computer" and asked == [(pk, 0)]
    rng = random.Random(1815)
    for _ in range(400):
        m = BelleAllianceMatch.objects.get(pk=pk)
        if m.status != "active":
            break
        if m.to_move == "french":
            assert asked[-1] == (pk, m.seq)
            with django_capture_on_commit_callbacks(execute=True):
                assert tasks.bot_move(pk, m.seq) >= 1
            assert tasks.bot_move(pk, m.seq) == 0  # idempotent
            continue
        with django_capture_on_commit_callbacks(execute=True):
            play(alice, pk, rng)
    m = BelleAllianceMatch.objects.get(pk=pk)
    assert m.status == "finished" and m.outcome["winner"] in ("french", "allied")
    assert m.outcome["reason"] not in ("resigned", "time")
    assert m.actions.filter(side="french").count() >= 3
    assert GAME.to_json(services.replay(m)) == m.state
    book = replays.replay_book(KIND, m, log=True)
    assert book.check.ok and book.check.actions == m.seq
    bad = _tamper_first_roll(m)
    book = replays.replay_book(KIND, BelleAllianceMatch.objects.get(pk=pk), log=True)
    assert not book.check.ok and book.check.mismatch == bad


def test_undo_takes_back_a_casualty_choice_until_a_die_is_rolled(user, other_user, asked):
    """A casualty choice that leaves another to make rolls no die: it may be taken back; the
    action that rolled may not. Found by playing seeded games until such a choice comes."""
    alice, bob = client_for(user), client_for(other_user)
    clients = {"french": alice, "allied": bob}
    for attempt in range(30):
        pk = open_game(user, other_user) if attempt == 0 else _again(user, other_user)
        rng = random.Random(attempt)
        for _ in range(300):
            m = BelleAllianceMatch.objects.get(pk=pk)
            if m.status != "active":
                break
            me = clients[m.to_move]
            v = me.get(f"{BASE}{pk}/").json()
            body = play(me, pk, rng)
            if v["legal_actions"][0]["type"] == "casualty" and body["can_undo"]:
                assert body["legal_actions"][0]["type"] == "casualty"
                r = me.post(f"{BASE}{pk}/undo/", {"seq": body["seq"]}, format="json")
                assert r.status_code == 200, r.json()
                after = r.json()
                assert after["seq"] == body["seq"] + 1
                assert after["view"]["position"] == v["view"]["position"]
                assert after["legal_actions"] == v["legal_actions"]
                assert any(e["type"] == "undone" for e in after["log"])
                m = BelleAllianceMatch.objects.get(pk=pk)
                assert GAME.to_json(services.replay(m)) == m.state
                return
        BelleAllianceMatch.objects.filter(pk=pk, status="active").update(status="cancelled")
    pytest.fail("no casualty choice with another to follow in 30 seeded games")


def _again(user, other_user) -> int:
    BelleAllianceMatch.objects.filter(status="waiting").delete()
    return open_game(user, other_user)


def test_a_rated_game_updates_both_players_ratings_and_side_records(user, other_user, asked):
    pk = open_game(user, other_user, rated=True)
    m = BelleAllianceMatch.objects.get(pk=pk)
    assert m.rated and not RatedMatch.objects.exists()
    r = client_for(other_user).post(f"{BASE}{pk}/resign/", format="json")
    assert r.status_code == 200
    [rm] = RatedMatch.objects.all()
    assert (rm.kind, rm.played_id, rm.pool, rm.reason) == ("belle_alliance", pk,
                                                           "belle_alliance", "resigned")
    won, lost = (Rating.objects.get(user=u, pool="belle_alliance") for u in (user, other_user))
    assert won.rating > 1500 > lost.rating and won.games == lost.games == 1
    records = {(r.user_id, r.pool, r.side): (r.played, r.won, r.lost)
               for r in SideRecord.objects.all()}
    assert records == {(user.pk, "belle_alliance", "french"): (1, 1, 0),
                       (other_user.pk, "belle_alliance", "allied"): (1, 0, 1)}
    board = client_for(None).get("/api/leaderboard/?game=belle_alliance").json()
    assert [r["username"] for r in board["results"]] == ["alice", "bob"]


def test_the_expectimax_computer_moves_in_the_worker(user, asked,
                                                    django_capture_on_commit_callbacks):
    """The strongest computer player (it reads the position from its view) answers through
    the same task, within its budget."""
    with django_capture_on_commit_callbacks(execute=True):
        r = client_for(user).post(BASE, {"side": "allied", "bot": "expectimax"},
                                  format="json")
    pk = r.json()["id"]
    assert r.json()["players"]["french"] == "computer (expectimax)" and asked == [(pk, 0)]
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_move(pk, 0) >= 1
    m = BelleAllianceMatch.objects.get(pk=pk)
    assert m.to_move == "allied" and m.actions.filter(side="french").exists()
