"""``play.sql``: the hot path's statements compiled once give what the ORM gives: the same
instance (every column converted, the players read with it), the same row written, the same
refusals (issue 25, "derived data once per action")."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles import services
from battles.models import Battle, BattleAction
from play import sql

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(user, other_user):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, other_user)
    return Battle.objects.get(pk=b.pk)


LOCKED = sql.Prepared(lambda pk: Battle.objects.select_for_update(of=("self",)).filter(pk=pk)
                      .select_related("french_player", "allied_player")
                      .defer("deck_choices"), locking=True)


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if f.attname in obj.__dict__}


def test_a_prepared_query_reads_what_the_orm_reads(battle):
    with transaction.atomic():
        orm = (Battle.objects.select_for_update(of=("self",)).filter(pk=battle.pk)
               .select_related("french_player", "allied_player")
               .defer("deck_choices").first())
        mine = LOCKED.first(battle.pk)
    assert type(mine) is Battle and mine.pk == battle.pk
    assert fields(mine) == fields(orm)
    assert isinstance(mine.state, dict) and isinstance(mine.created_at, type(timezone.now()))
    assert "deck_choices" not in mine.__dict__  # deferred, as asked
    # the players came with the row: naming them reads nothing more
    with CaptureQueriesContext(connection) as ctx:
        names = (mine.french_player.username, mine.allied_player.username)
    assert names == ("alice", "bob") and len(ctx.captured_queries) == 0
    assert mine._state.adding is False and mine._state.db == "default"


def test_a_prepared_query_is_compiled_once_and_takes_each_value(battle, user, other_user):
    other = services.create_battle(other_user, "ligny", "allied", opponent="open")
    with transaction.atomic():
        assert LOCKED.first(battle.pk).battle == "quatre-bras"
        assert LOCKED.first(other.pk).battle == "ligny"
        assert LOCKED.first(10 ** 9) is None
    assert len([k for k in connections["default"].__dict__["_play_sql"] if k is LOCKED]) == 1


@pytest.mark.django_db(transaction=True)
def test_a_locking_query_needs_a_transaction(battle):
    with pytest.raises(TransactionManagementError):
        LOCKED.first(battle.pk)


def test_a_query_must_use_its_value_once():
    twice = sql.Prepared(lambda pk: Battle.objects.filter(pk=pk, seq=pk))
    with pytest.raises(ValueError, match="exactly once"):
        twice.first(1)


def test_update_writes_the_fields_as_save_does(battle):
    battle.seq, battle.state, battle.to_move = 41, {"x": [1, "é"]}, "allied"
    battle.deadline = timezone.now()
    sql.update(battle, ["seq", "state", "to_move", "deadline", "seq"])
    back = Battle.objects.get(pk=battle.pk)
    assert (back.seq, back.state, back.to_move) == (41, {"x": [1, "é"]}, "allied")
    assert back.deadline == battle.deadline


def test_insert_writes_rows_and_refuses_a_second_row_of_a_seq(battle):
    rows = [BattleAction(battle=battle, seq=n, side="french", action={"type": "t", "n": n},
                         events=[{"type": "e"}], auto=n == 2) for n in (1, 2)]
    sql.insert(rows)
    stored = list(battle.actions.order_by("seq").values_list("seq", "action", "auto"))
    assert stored == [(1, {"type": "t", "n": 1}, False), (2, {"type": "t", "n": 2}, True)]
    assert all(r.created_at is not None for r in rows)  # auto_now_add, as the ORM sets it
    with pytest.raises(IntegrityError), transaction.atomic():
        sql.insert([BattleAction(battle=battle, seq=2, side="allied", action={}, events=[])])
    assert battle.actions.count() == 2
