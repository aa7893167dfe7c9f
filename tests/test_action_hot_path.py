"""The live action's hot path (issue 31, "Live play"): an action costs one locking read of the
match row (its position with it), one insert of its rows and one update of the row, for
every kind; the undo check of the change's messages reads no earlier action (``Match.shown``
keeps the cards each side was named), and what it keeps is what the log says."""

from __future__ import annotations

import ast
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import services
from battles.models import Battle
from play import registry, turns, undo
from play.live import messages

pytestmark = pytest.mark.django_db

# The statements one action may run, its messages built (after commit) included: the
# locking read (the players' settings with it), the insert, the update; on PostgreSQL the
# insert and the update are one statement (``play.sql.insert_and_update``), with a hand-off's
# "your move" notice in it (``play.alongside``). Elsewhere a hand-off to a person adds the
# notifications' (their setting, the "your move" row, the stale one marked read): at most 3.
POSTGRESQL = connection.vendor == "postgresql"
ACTION = 2 if POSTGRESQL else 3
HAND_OFF = 0 if POSTGRESQL else 3
NOTICES = ('SELECT "notifications_', 'INSERT INTO "notifications_', 'UPDATE "notifications_')


@pytest.fixture
def battle(user, other_user):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open",
                               settings={"turn_cap": 8})
    services.join_battle(b.pk, other_user)
    return Battle.objects.get(pk=b.pk)


def _log_shown(kind, match, seq: int) -> dict[str, set]:
    """The cards each side was named by the rows before ``seq``, read from the log."""
    out: dict[str, set] = {side: set() for side in kind.game.sides}
    for events in match.actions.filter(seq__lt=seq).values_list("events", flat=True):
        for side in out:
            out[side] |= kind.game.shown_cards(events, side)
    return out


def statement(logged: str) -> str:
    """A captured statement's SQL: Django logs one run with server-side binding (the hot
    path's planned statements, ``play.sql.planned_cursor``) as "QUERY = '...' - PARAMS =
    ..." rather than as the SQL itself."""
    if logged.startswith("QUERY = "):
        return ast.literal_eval(logged.removeprefix("QUERY = ").rsplit(" - PARAMS = ", 1)[0])
    return logged


def _play(battle, users, steps: int, check, on_commit) -> int:
    """Up to ``steps`` random legal actions (seeded), each with its after-commit listeners
    run (``on_commit``: pytest-django's ``django_capture_on_commit_callbacks``: the
    notifications and the change's messages), ``check(before, after, statements)`` after
    each; returns how many were played."""
    rng = random.Random(1815)
    played = 0
    for _ in range(steps):
        b = Battle.objects.get(pk=battle.pk)
        if b.status != turns.ACTIVE:
            break
        side = b.to_move
        user = users[side]
        legal = messages.message(messages.Viewer("battle", b.pk, user, side), b.seq)[
            "legal_actions"]
        if not legal:
            break
        with CaptureQueriesContext(connection) as ctx, on_commit(execute=True) as done:
            services.act(b.pk, user, b.seq, rng.choice(legal))
        assert done  # the listeners ran inside the count
        check(b, Battle.objects.get(pk=battle.pk),
              [statement(q["sql"]) for q in ctx.captured_queries])
        played += 1
    return played


def test_an_action_is_a_read_an_insert_and_an_update(battle, user, other_user,
                                                     django_capture_on_commit_callbacks):
    """Every action of a battle between two people, its change's messages built (each side's
    and the spectators', after commit), runs the three statements (two on PostgreSQL, the
    hand-off's notice in the second); elsewhere an action handing the move to the other
    person adds at most the notifications' statements. Pinned so that it
    cannot creep back (it was ~13 round trips, then 4 with the undo check's read of the
    log)."""
    users = {"french": user, "allied": other_user}
    counts = []
    noticed: list[bool] = []

    def check(before, after, statements):
        if after.status != turns.ACTIVE:
            return  # the end: ratings, a tournament's result, the notices of the result
        # (a test runs in a transaction: each atomic block is a savepoint here, and its
        # BEGIN / COMMIT in production; tests/test_hot_path_round_trips.py counts those)
        statements = [s for s in statements if "SAVEPOINT" not in s]
        core = [s for s in statements if not s.startswith(NOTICES)]
        assert len(core) == ACTION, core
        # SQLite has no row locks (select_for_update is a no-op there): the whole database is
        # locked by the write instead
        assert core[0].startswith("SELECT") and (
            "FOR UPDATE" in core[0] or connection.vendor == "sqlite")
        assert '"accounts_preferences"' in core[0]  # the players' settings read with it
        if POSTGRESQL:
            assert core[1].startswith("WITH new_rows AS (INSERT") and "UPDATE" in core[1]
            noticed.append("your_move_note" in core[1])  # a hand-off's notice, written with it
        else:
            assert core[1].startswith("INSERT") and core[2].startswith("UPDATE")
        extra = len(statements) - ACTION
        # the others: a hand-off's notices, nothing otherwise
        assert extra == 0 or after.to_move != before.to_move, \
            [s[:90] for s in statements]
        assert extra <= HAND_OFF, statements
        counts.append(len(statements))

    assert _play(battle, users, 40, check, django_capture_on_commit_callbacks) >= 12
    assert min(counts) == ACTION
    assert any(noticed) or not POSTGRESQL


def test_the_kept_cards_are_the_logs_and_undo_decides_the_same_without_them(
        battle, user, other_user, django_capture_on_commit_callbacks):
    """After each action ``Match.shown`` holds what the log says each side was named before
    the last row; and whether the mover may undo is the same with it as with the log read."""
    kind = registry.get("battle")
    users = {"french": user, "allied": other_user}
    decided = []

    def check(before, after, statements):
        kept = after.shown
        assert kept is not None and kept["seq"] == after.seq
        assert {s: set(c) for s, c in kept["before"].items()} == _log_shown(kind, after,
                                                                           after.seq)
        last = after.actions.get(seq=after.seq).events
        assert {s: set(c) for s, c in kept["last"].items()} == {
            s: kind.game.shown_cards(last, s) for s in kind.game.sides}
        if after.status == turns.ACTIVE:
            with_kept = undo.undo_target(kind, after, after.to_move)
            after.shown = None
            with_log = undo.undo_target(kind, after, after.to_move)
            assert with_kept == with_log
            decided.append(with_kept[0] is not None)

    assert _play(battle, users, 60, check, django_capture_on_commit_callbacks) >= 12
    assert any(decided) and not all(decided)  # both answers were met


def test_a_match_without_kept_cards_reads_the_log_and_stays_unkept(
        battle, user, other_user, django_capture_on_commit_callbacks):
    """A match begun before the column (``shown`` null past seq 0) keeps the old way: its
    undo check reads the log, and nothing partial is written by its next actions."""
    users = {"french": user, "allied": other_user}
    assert _play(battle, users, 3, lambda *a: None, django_capture_on_commit_callbacks)
    Battle.objects.filter(pk=battle.pk).update(shown=None)

    def check(before, after, statements):
        assert after.shown is None

    assert _play(battle, users, 5, check, django_capture_on_commit_callbacks)
