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


# --- Compiled: the list pages' queries of several values and many rows (issue 31) ---------

SEATED = sql.Compiled(lambda uid, since: Battle.objects.filter(french_player=uid,
                                                               created_at__gte=since)
                      .select_related("french_player", "allied_player", "invited")
                      .only("id", "battle", "status", "created_at", "outcome",
                            "french_player__username", "allied_player__username",
                            "invited__username")
                      .order_by("-created_at", "-id")[:3], ("id", "moment"))


def _as_orm(uid, since):
    return list(Battle.objects.filter(french_player=uid, created_at__gte=since)
                .select_related("french_player", "allied_player", "invited")
                .only("id", "battle", "status", "created_at", "outcome",
                      "french_player__username", "allied_player__username",
                      "invited__username")
                .order_by("-created_at", "-id")[:3])


def test_a_compiled_list_reads_what_the_orm_reads_for_each_value(battle, user, other_user):
    from tests.test_match_lists import copies

    copies(battle, 4)
    theirs = services.create_battle(other_user, "ligny", "french", opponent="open")
    day_ago = timezone.now() - timezone.timedelta(days=2)
    for uid, since in ((user.pk, day_ago), (other_user.pk, day_ago),
                       (user.pk, timezone.now() - timezone.timedelta(hours=1)), (10 ** 9, day_ago)):
        mine, orm = SEATED.rows(uid, since), _as_orm(uid, since)
        assert [fields(m) for m in mine] == [fields(o) for o in orm]
        assert [(m.french_player.username, m.allied_player and m.allied_player.username)
                for m in mine] == [(o.french_player.username,
                                    o.allied_player and o.allied_player.username) for o in orm]
    assert [m.pk for m in SEATED.rows(other_user.pk, day_ago)] == [theirs.pk]
    assert len(SEATED.rows(user.pk, day_ago)) == 3  # the slice: the newest three of five
    assert "state" not in SEATED.rows(user.pk, day_ago)[0].__dict__  # deferred, as asked


def test_a_compiled_list_is_compiled_once(battle, user, monkeypatch):
    from django.db.models.sql.compiler import SQLCompiler

    since = timezone.now() - timezone.timedelta(days=2)
    SEATED.rows(user.pk, since)
    compiled = []
    real = SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql",
                        lambda self, *a, **k: compiled.append(1) or real(self, *a, **k))
    with CaptureQueriesContext(connection) as seen:
        assert [b.pk for b in SEATED.rows(user.pk, since)] == [battle.pk]
    assert compiled == [] and len(seen.captured_queries) == 1


def test_a_compiled_query_must_use_each_value_and_know_its_kind():
    with pytest.raises(ValueError, match="value 1"):
        sql.Compiled(lambda uid, since: Battle.objects.filter(french_player=uid),
                     ("id", "moment")).rows(1, timezone.now())
    with pytest.raises(ValueError, match="among"):
        sql.Compiled(lambda name: Battle.objects.filter(battle=name), ("text",))
    with pytest.raises(TypeError):
        SEATED.rows(1)


def test_a_compiled_list_is_not_compiled_again_on_another_connection(battle, user,
                                                                     monkeypatch):
    """Under ASGI each request has a connection object of its own: the SQL is kept per
    process (and database), not per connection object."""
    from django.db.models.sql.compiler import SQLCompiler

    since = timezone.now() - timezone.timedelta(days=2)
    SEATED.rows(user.pk, since)
    first = SEATED._compiled(connection, "default")
    compiled = []
    real = SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql",
                        lambda self, *a, **k: compiled.append(1) or real(self, *a, **k))
    another = connections.create_connection("default")  # the next request's, not opened
    assert another is not connection
    assert SEATED._compiled(another, "default") is first and compiled == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's prepared statements")
def test_the_hot_path_statements_are_kept_planned_on_postgresql(battle):
    """``planned_cursor``: the locking read is prepared on the connection after
    ``PREPARE_AFTER`` runs and PostgreSQL then runs its generic plan (no planning per action);
    every run still passes through Django's cursor wrapper; the ORM's own cursors still bind
    on the client and prepare nothing."""
    seen: list[str] = []

    def wrapper(execute, sql_text, params, many, context):
        seen.append(sql_text)
        return execute(sql_text, params, many, context)

    # prepared after PREPARE_AFTER runs; PostgreSQL plans a prepared statement's first five
    # runs with their values, then keeps its generic plan
    runs = sql.PREPARE_AFTER + 8
    with connection.execute_wrapper(wrapper):
        for _ in range(runs):
            with transaction.atomic():
                assert LOCKED.first(battle.pk).pk == battle.pk
    assert len([s for s in seen if "FOR UPDATE" in s]) == runs
    for _ in range(runs):
        list(Battle.objects.filter(pk=battle.pk).values_list("seq"))  # the ORM's cursor
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans, generic_plans "
                       "FROM pg_prepared_statements")
        prepared = cursor.fetchall()
    assert len(prepared) == 1, prepared  # the locking read only, not the ORM's query
    statement, runs_prepared, generic = prepared[0]
    assert "FOR UPDATE" in statement
    assert runs - sql.PREPARE_AFTER - 1 <= runs_prepared <= runs - sql.PREPARE_AFTER + 1
    assert generic >= 1
