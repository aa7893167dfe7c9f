"""Undo (issue 12): take back one's last action within one's own turn, until a die is rolled
or a card revealed; an undo is a new action in the log, the position is rebuilt from the
setup, the opponent learns only that something was taken back, and replays reproduce it."""

from __future__ import annotations

import json
import random

import pytest
from rest_framework.test import APIClient

from battles import modules, services
from battles.engine import from_json, legal_actions, to_json
from battles.engine.replay_file import ReplayMismatch, effective_actions
from battles.kind import KIND
from battles.models import Battle, Status
from battles.services import Conflict
from cards.catalogue.file import catalogue_records
from play import autoplay, undo

from .test_battle_api import check_hidden

RECORDS = catalogue_records()

pytestmark = pytest.mark.django_db


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def duel(user, other_user, sent, monkeypatch) -> Battle:
    """Alice (French) against Bob (Allied), Quatre Bras, a fixed seed, turns capped at 8."""
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618276)
    b = services.create_battle(user, "quatre-bras", "french", opponent="bob",
                               settings={"turn_cap": 8})
    return services.join_battle(b.pk, other_user)


def state_of(b: Battle):
    b.refresh_from_db()
    return from_json(b.state, cards=RECORDS)


def act(b: Battle, user, action: dict) -> None:
    b.refresh_from_db()
    services.act(b.pk, user, b.seq, action)
    b.refresh_from_db()


def troop_deploy(b: Battle, side: str) -> dict:
    """A face-down troop card deployed where the side has the fewest cards."""
    st = state_of(b)
    count = {}
    for p in st.pieces.values():
        count[p.place] = count.get(p.place, 0) + 1
    troops = [a for a in legal_actions(st, side) if a["type"] == "deploy"
              and st.cards[a["card"]].kind not in ("general", "terrain")
              and set(a) == {"type", "side", "card", "to"}]
    from battles.engine.board import PLACE_INDEX

    return min(troops, key=lambda a: count.get(PLACE_INDEX[a["to"]], 0))


def deploy_all(b: Battle, user, side: str) -> None:
    """Deploy troops until the deployment may end, then end it."""
    done = {"type": "deployment_done", "side": side}
    while done not in legal_actions(state_of(b), side):
        act(b, user, troop_deploy(b, side))
    act(b, user, done)


def test_an_undone_deploy_restores_the_position_and_is_a_new_action(duel, user, other_user):
    b = duel
    before = json.dumps(b.state, sort_keys=True)
    act(b, other_user, troop_deploy(b, "allied"))  # 4.1 the Allies deploy first
    assert services.battle_view(b, other_user)["can_undo"] is True
    assert services.battle_view(b, user)["can_undo"] is False  # not Alice's move
    assert services.undo(b.pk, other_user, 1) == 1
    b.refresh_from_db()
    assert b.seq == 2 and json.dumps(b.state, sort_keys=True) == before
    row = b.actions.get(seq=2)
    assert row.side == "allied" and row.action == {"type": "undo", "undoes": 1}
    assert row.events == [{"type": "undone", "undoes": 1, "side": "allied",
                           "visibility": "all"}]
    assert b.actions.get(seq=1).events  # the log is never rewritten
    # Nothing left to take back (an undo is not undone).
    view = services.battle_view(b, other_user)
    assert view["can_undo"] is False
    with pytest.raises(Conflict, match="nothing to take back") as exc:
        services.undo(b.pk, other_user, 2)
    assert exc.value.code == "cannot_undo"
    # Replays skip the undone action; the next action rolls the dice of its own seq (3).
    act(b, other_user, troop_deploy(b, "allied"))
    assert b.seq == 3
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state


def test_several_undos_take_back_one_action_each_in_reverse_order(duel, other_user):
    b = duel
    snapshots = [json.dumps(b.state, sort_keys=True)]
    for _ in range(3):
        act(b, other_user, troop_deploy(b, "allied"))
        snapshots.append(json.dumps(b.state, sort_keys=True))
    for undone in (3, 2, 1):
        assert services.undo(b.pk, other_user, b.seq) == undone
        b.refresh_from_db()
        assert json.dumps(b.state, sort_keys=True) == snapshots[undone - 1]
    assert b.seq == 6
    assert [r.seq for r in effective_actions(list(b.actions.order_by("seq")))] == []
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state


def test_the_opponent_sees_only_that_an_action_was_taken_back(duel, user, other_user):
    b = duel
    act(b, other_user, troop_deploy(b, "allied"))
    card = b.actions.get(seq=1).action["card"]
    services.undo(b.pk, other_user, 1)
    r = client(user).get(f"/api/battles/{b.pk}/")
    data = r.json()
    assert [(e["seq"], e["type"]) for e in data["log"]] == [(1, "deploy"), (2, "undone")]
    assert data["log"][1]["undoes"] == 1 and data["log"][1]["side"] == "allied"
    assert f'"card": {card}' not in r.content.decode() and f'"card":{card}' not in \
        r.content.decode()
    check_hidden(data, r.content)
    mine = client(other_user).get(f"/api/battles/{b.pk}/").json()
    assert [e["type"] for e in mine["log"]] == ["deploy", "deploy_card", "undone"]


def test_undo_refused_after_the_turn_or_deployment_ended(duel, user, other_user):
    b = duel
    deploy_all(b, other_user, "allied")
    with pytest.raises(Conflict, match="not your move"):
        services.undo(b.pk, other_user, b.seq)
    act(b, user, troop_deploy(b, "french"))
    assert services.undo(b.pk, user, b.seq) == b.seq  # a French deploy: theirs to undo
    deploy_all(b, user, "french")  # the French turn 1 begins
    assert services.battle_view(b, user)["can_undo"] is False
    with pytest.raises(Conflict, match="ended your deployment") as exc:
        services.undo(b.pk, user, b.seq)
    assert exc.value.code == "cannot_undo" and exc.value.extra["seq"] == b.seq


def test_a_general_deployed_face_up_cannot_be_taken_back(duel, other_user):
    b = duel
    st = state_of(b)
    general = next(a for a in legal_actions(st, "allied") if a["type"] == "deploy"
                   and st.cards[a["card"]].kind == "general")
    act(b, other_user, general)
    with pytest.raises(Conflict, match="showed a card to your opponent"):
        services.undo(b.pk, other_user, b.seq)


def test_undo_reads_the_recorded_events_of_the_action(duel, other_user):
    """The refusal comes from what the action recorded: a die in its events ends undo."""
    b = duel
    act(b, other_user, troop_deploy(b, "allied"))
    assert services.battle_view(b, other_user)["can_undo"] is True
    row = b.actions.get(seq=1)
    row.events = [*row.events, {"type": "morale", "piece": 1, "dice": [6], "visibility": "all"}]
    row.save()
    assert services.battle_view(b, other_user)["can_undo"] is False
    with pytest.raises(Conflict, match="it rolled dice"):
        services.undo(b.pk, other_user, 1)


def test_stale_seq_and_strangers(duel, user, other_user, carol_user):
    b = duel
    act(b, other_user, troop_deploy(b, "allied"))
    with pytest.raises(Conflict) as exc:
        services.undo(b.pk, other_user, 0)
    assert exc.value.code == "stale_seq"
    with pytest.raises(services.NotFound):
        services.undo(b.pk, carol_user, b.seq)
    with pytest.raises(services.BattleError, match="seq must be a whole number"):
        services.undo(b.pk, other_user, "1")
    b.refresh_from_db()
    assert b.seq == 1


@pytest.fixture
def carol_user(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815")


@pytest.mark.parametrize("events, why", [
    ([{"type": "fire", "dice": [3, 4], "visibility": "all"}], "rolled dice"),
    ([{"type": "morale", "dice": [], "visibility": "all"}], "rolled dice"),
    ([{"type": "reveal", "piece": 3, "card": 12, "visibility": "all"}], "revealed"),
    ([{"type": "draw", "count": 2, "visibility": "all"},
      {"type": "drawn", "cards": [1, 2], "visibility": "french"}], "drew cards"),
    ([{"type": "turn", "turn": 2, "side": "allied", "visibility": "all"}], "ended your turn"),
    ([{"type": "battle_over", "winner": "french", "visibility": "all"}], "ended the battle"),
    ([{"type": "special", "card": 280, "visibility": "all"}], "showed a card"),
    ([{"type": "enter", "piece": 4, "card": 9, "visibility": "all"}], "showed a card"),
    ([{"type": "cancelled", "card": 280, "by": 281, "visibility": "all"}], "showed a card"),
    ([{"type": "move", "piece": 4, "visibility": "all"}], None),
    ([{"type": "enter", "piece": 4, "visibility": "all"},
      {"type": "enter_card", "piece": 4, "card": 9, "visibility": "french"}], None),
])
def test_which_events_end_undo(events, why):
    got = modules.undo_refusal(events, "french")
    assert (got is None) if why is None else (why in got)


def test_a_card_the_opponent_was_shown_before_does_not_end_undo():
    enter = [{"type": "enter", "piece": 9, "card": 12, "visibility": "all"}]
    assert "showed a card" in modules.undo_refusal(enter, "french", known={5})
    assert modules.undo_refusal(enter, "french", known={5, 12}) is None
    assert modules.shown_cards([*enter, {"type": "drawn", "cards": [1, 2], "visibility": "french"},
                             {"type": "cancelled", "card": 3, "by": 4, "visibility": "all"}],
                            "allied") == {12, 3, 4}


def test_a_general_shown_before_may_enter_again_and_be_taken_back(duel, other_user):
    """The opponent saw the General deployed face up; it goes back to the Reserve and enters
    again face up: nothing new is shown, so that entry may be taken back."""
    b = duel
    st = state_of(b)
    general = next(a for a in legal_actions(st, "allied") if a["type"] == "deploy"
                   and st.cards[a["card"]].kind == "general")
    act(b, other_user, general)
    target, why = undo.undo_target(KIND, b, "allied")
    assert target is None and "showed a card" in why
    # The same card named again in a later action's events (forged: an entry) is not new.
    row = b.actions.get(seq=1)
    b.actions.create(seq=2, side="allied", action={"type": "move", "side": "allied",
                                                   "card": general["card"], "to": "allied_left"},
                     events=[{"type": "enter", "side": "allied", "piece": 99,
                              "card": general["card"], "visibility": "all"}])
    b.seq = 2
    b.save(update_fields=["seq"])
    assert undo.undo_target(KIND, b, "allied") == (2, "")
    assert row.events[0]["card"] == general["card"]


def test_a_log_whose_undo_does_not_nest_is_refused():
    rows = [{"seq": 1, "side": "french", "action": {"type": "end_turn"}},
            {"seq": 2, "side": "allied", "action": {"type": "undo", "undoes": 1}}]
    with pytest.raises(ReplayMismatch, match="other side"):
        effective_actions(rows)
    rows[1] = {"seq": 2, "side": "french", "action": {"type": "undo", "undoes": 7}}
    with pytest.raises(ReplayMismatch, match="not the last action"):
        effective_actions(rows)


def test_undo_through_the_api_and_the_page(duel, user, other_user):
    b = duel
    bob = client(other_user)
    r = bob.post(f"/api/battles/{b.pk}/act/", {"seq": 0, "action": troop_deploy(b, "allied")},
                 format="json")
    assert r.status_code == 200 and r.json()["can_undo"] is True
    r = bob.post(f"/api/battles/{b.pk}/undo/", {"seq": 0}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "stale_seq" and r.json()["seq"] == 1
    r = bob.post(f"/api/battles/{b.pk}/undo/", {"seq": 1}, format="json")
    assert r.status_code == 200 and r.json()["seq"] == 2 and r.json()["can_undo"] is False
    r = bob.post(f"/api/battles/{b.pk}/undo/", {"seq": 2}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "cannot_undo"
    assert r.json()["reason"] == "there is nothing to take back"
    # The page: an Undo button while it is allowed; a plain POST redirects.
    from django.test import Client

    page = Client()
    page.force_login(other_user)
    act(b, other_user, troop_deploy(b, "allied"))
    html = page.get(f"/battles/{b.pk}/").content.decode()
    assert 'data-testid="undo"' in html and f'action="/battles/{b.pk}/undo/"' in html
    r = page.post(f"/battles/{b.pk}/undo/", {"seq": b.seq})
    assert r.status_code == 302
    html = page.get(f"/battles/{b.pk}/").content.decode()
    assert 'data-testid="undo"' not in html and "took back your last action" in html
    r = page.post(f"/battles/{b.pk}/undo/", {"seq": 4})
    assert r.status_code == 409 and "nothing to take back" in r.content.decode()


def test_random_battle_with_undos_replays_to_the_live_state(duel, user, other_user,
                                                            monkeypatch):
    """Two seeded random players, each taking back their last action whenever allowed (one
    time in three): every undo restores the position before that action exactly, the
    refusals name why, and the whole battle replays from its setup to the live state.
    Every action is a click here (no auto-play: play/autoplay.py), as the seed was
    chosen for."""
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    b = duel
    players = {"french": user, "allied": other_user}
    rng = random.Random("undo")
    before: dict[int, str] = {}  # seq -> the snapshot before that action
    reasons: set[str] = set()
    undos = guard = 0
    while b.status == Status.ACTIVE:
        guard += 1
        assert guard < 3000
        side = services.priority(b)
        who = players[side]
        target, why = undo.undo_target(KIND, b, side)
        assert services.battle_view(b, who)["can_undo"] is (target is not None)
        if target is not None and rng.random() < 0.34:
            assert services.undo(b.pk, who, b.seq) == target
            b.refresh_from_db()
            assert json.dumps(b.state, sort_keys=True) == before[target]
            undos += 1
            continue
        if target is None:
            reasons.add(why.split(": ")[-1])
        before[b.seq + 1] = json.dumps(b.state, sort_keys=True)
        act(b, who, rng.choice(legal_actions(state_of(b), side)))
    assert undos >= 10
    # (Dice in one's own action need an enemy with an empty Reserve, else the enemy's
    # response resolves them: test_which_events_end_undo and the test below cover them.)
    assert {"your opponent has acted since your last action", "it drew cards",
            "it revealed a card", "it showed a card to your opponent",
            "it ended your deployment"} <= reasons, reasons
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_undo_and_an_action_sent_at_once_apply_once(monkeypatch):
    """Two tabs: one takes the last action back while the other plays from the same seq;
    under the battle's row lock exactly one of them is applied, the other is stale."""
    import threading

    from django.contrib.auth.models import User
    from django.db import connection, connections

    from .kinds import battle_tasks as tasks

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = User.objects.create_user("alice-pg", "", "pw")
    b = services.create_battle(alice, "quatre-bras", "allied", bot="random")
    act(b, alice, troop_deploy(b, "allied"))
    again = troop_deploy(b, "allied")
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def send(i):
        try:
            barrier.wait(timeout=30)
            results[i] = (services.undo(b.pk, alice, 1) if i == 0
                          else services.act(b.pk, alice, 1, again))
        except Exception as exc:  # noqa: BLE001 - inspected below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(refused) == 1 and refused[0].code == "stale_seq", results
    b.refresh_from_db()
    assert b.seq == 2 and b.actions.count() == 2
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state
