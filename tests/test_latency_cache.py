"""The hot path's per-process cache (play/tables.py, issue 12 "Figures"): a started
battle's card table is built once per card set (its records' digest) and never read again; what
each viewer is sent is unchanged (a new seq is never answered with the old position; each
side gets its own view, a spectator nobody's)."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import services, setup
from battles.engine import from_json, legal_actions, view
from battles.models import Battle
from play import tables
from play.live import messages
from play.models import CardSet

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def fresh_cache(catalogue, monkeypatch):
    from .kinds import battle_tasks as tasks

    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    tables.forget()
    yield
    tables.forget()


@pytest.fixture
def battle_and_viewers(db):
    alice = User.objects.create_user("alice", "", "pw")
    bob = User.objects.create_user("bob", "", "pw")
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    return b.pk, {"french": messages.Viewer("battle", b.pk, alice, "french"),
                  "allied": messages.Viewer("battle", b.pk, bob, "allied"),
                  None: messages.Viewer("battle", b.pk, None, None)}


def expected(battle_id: int, side: str | None) -> tuple[dict, list]:
    """The engine's own view and legal actions, from a fresh full read of the row and a table
    built from its records (no cache)."""
    b = Battle.objects.get(pk=battle_id)
    st = from_json(b.state, setup.engine_cards(b))
    legal = legal_actions(st, side) if side is not None and b.to_move == side else []
    return json.loads(json.dumps(view(st, side))), json.loads(json.dumps(legal))


def plain(value):
    return json.loads(json.dumps(value))


def test_each_new_seq_is_answered_with_the_new_position_for_each_side(battle_and_viewers):
    pk, viewers = battle_and_viewers
    rng = random.Random(12)
    for v in viewers.values():
        messages.message(v, 0)  # the cache is warm from here on
    played = 0
    for _ in range(12):
        b = Battle.objects.get(pk=pk)
        if b.status != "active":
            break
        before = {side: messages.message(v, 0) for side, v in viewers.items()}
        mover = before[b.to_move]
        services.act(pk, viewers[b.to_move].user, mover["seq"], rng.choice(mover["legal_actions"]))
        played += 1
        for side, v in viewers.items():
            msg = messages.message(v, before[side]["seq"])
            assert msg["seq"] > before[side]["seq"]  # never the old position again
            want_view, want_legal = expected(pk, side)
            assert plain(msg["view"]) == want_view
            assert plain(msg["legal_actions"]) == want_legal
            assert msg["my_side"] == side
            seqs = [e["seq"] for e in msg["events"]]
            assert seqs == sorted(seqs)  # only the new actions' events, in order
            assert set(seqs) <= set(range(before[side]["seq"] + 1, msg["seq"] + 1))
    assert played >= 6


def test_the_two_sides_and_a_spectator_never_get_each_others_view(battle_and_viewers):
    pk, viewers = battle_and_viewers
    got = {side: messages.message(v, 0) for side, v in viewers.items()}
    views = {side: plain(m["view"]) for side, m in got.items()}
    for side in views:
        assert views[side] == expected(pk, side)[0]
    assert views["french"] != views["allied"]
    assert views[None] not in (views["french"], views["allied"])
    assert got[None]["legal_actions"] == [] and got[None]["my_side"] is None
    # Again, from the cache: still each side's own.
    again = {side: plain(messages.message(v, 0)["view"]) for side, v in viewers.items()}
    assert again == views


def test_the_card_table_is_built_once_and_the_records_are_not_read_again(battle_and_viewers):
    pk, viewers = battle_and_viewers
    messages.message(viewers["french"], 0)
    b = Battle.objects.get(pk=pk)
    assert setup.cards_of(b) is setup.cards_of(Battle.objects.get(pk=pk))
    with CaptureQueriesContext(connection) as seen:
        for v in viewers.values():
            messages.message(v, 0)
        b = Battle.objects.get(pk=pk)
        services.act(pk, viewers[b.to_move].user, b.seq,
                     messages.message(viewers[b.to_move], 0)["legal_actions"][0])
    # The records live in play_cardset (issue 31): the service and messages never read them
    # again once the table of their digest is kept.
    assert not [q for q in seen.captured_queries if "play_cardset" in q["sql"]]


def test_a_waiting_battle_gets_the_table_of_its_records_and_the_joiners_cards_after(db):
    alice = User.objects.create_user("alice", "", "pw")
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    waiting = setup.cards_of(b)
    assert tables.is_kept(tables.cards_key(b))  # content-addressed: safe to keep
    bob = User.objects.create_user("bob", "", "pw")
    services.join_battle(b.pk, bob)
    started = Battle.objects.get(pk=b.pk)
    table = setup.cards_of(started)
    assert tables.is_kept(tables.cards_key(started))
    assert set(table) == set(setup.engine_cards(started))  # the joiner's cards are in it
    assert started.card_set_id != b.card_set_id or table is waiting


def test_battles_with_the_same_records_share_one_table_and_others_get_their_own(
        battle_and_viewers):
    pk, viewers = battle_and_viewers
    first = setup.cards_of(Battle.objects.get(pk=pk))
    same = Battle.objects.get(pk=pk)
    same.pk, same.seed = None, same.seed + 1  # another battle, the same records
    assert setup.cards_of(same) is first
    other = Battle.objects.get(pk=pk)
    other.card_set = CardSet.store([r for r in other.card_records if r["number"] != min(first)])
    assert min(first) not in setup.cards_of(other)
    assert setup.cards_of(Battle.objects.get(pk=pk)) is first
