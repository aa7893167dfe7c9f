"""The menu's counts: one query each."""

from __future__ import annotations

from django.db import connection
from django.db.models import Count, Q, Value

from game import SIDES
from play import registry
from play.models import MatchStatus

from .models import UNREAD_SHOWN, Notification


def _mine_to_move(user) -> Q:
    """The user's seat has the move: the ``to_move`` column against each seat (the player
    indexes serve it), never the state JSON."""
    mine = Q()
    for side in SIDES:
        mine |= Q(to_move=side, **{f"{side}_player": user})
    return mine


def your_move_matches(kind, user):
    """Active matches of ``kind`` (a ``play.registry`` kind) where ``user``'s side must act."""
    return kind.model.objects.filter(_mine_to_move(user), status=MatchStatus.ACTIVE)


# The menu's count runs on every page: its UNION of every kind is compiled once per process
# and database (compiling it cost several times running it, issue 31), with this stand-in for
# the user's id, replaced in its parameters on each call.
_ANYONE = -918273645
_compiled: dict[str, tuple[list[str], str, tuple]] = {}


def _your_move_sql() -> tuple[list[str], str, tuple]:
    """The kinds, and the SQL and parameters of ``your_move_counts``'s query for user
    ``_ANYONE``."""
    found = _compiled.get(connection.vendor)
    if found is None:
        kinds = [k.kind for k in registry.kinds()]
        rows = [your_move_matches(k, _ANYONE).order_by().annotate(area=Value(k.kind))
                .values_list("area") for k in registry.kinds()]
        sql, params = ("", ()) if not rows else \
            rows[0].union(*rows[1:], all=True).order_by().query.sql_with_params()
        found = _compiled[connection.vendor] = (kinds, sql, tuple(params))
    return found


def your_move_counts(user) -> dict[str, int]:
    """``{kind: n}`` for every kind of match (``play.registry``: battles, campaigns,
    Stratego, La Belle Alliance...) in ONE query: a UNION ALL of one small row per match
    where it is the user's move."""
    kinds, sql, params = _your_move_sql()
    counts = dict.fromkeys(kinds, 0)
    if sql:
        with connection.cursor() as cursor:
            cursor.execute(sql, [user.pk if p == _ANYONE else p for p in params])
            for (area,) in cursor.fetchall():
                counts[area] += 1
    return counts


def your_move_count(user) -> int:
    """Matches of every kind where it is the user's move (one query)."""
    return sum(your_move_counts(user).values())


# The bell's count, also on every page: compiled once per process and database the same way
# (a GROUP BY of the one user: no row when none is unread).
_unread: dict[str, tuple[str, tuple]] = {}


def unread_count(user) -> int:
    found = _unread.get(connection.vendor)
    if found is None:
        sql, params = (Notification.objects.filter(UNREAD_SHOWN, user=_ANYONE).order_by()
                       .values("user").annotate(n=Count("id")).values_list("n")
                       .query.sql_with_params())
        found = _unread[connection.vendor] = (sql, tuple(params))
    sql, params = found
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk if p == _ANYONE else p for p in params])
        row = cursor.fetchone()
    return row[0] if row else 0
