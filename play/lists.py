"""A user's list of matches, newest first, a page at a time, at the same cost with 10 or
10,000 matches (issue 31, "Pages that do not grow with the database").

A user's matches are those they sit in (``french_player``, ``allied_player``) and those they
are invited to (``invited``). One query with ``OR`` over the three columns makes the database
collect and sort every matching row before the first page; here each column is its own
*branch*, read in order from its ``(column, created_at)`` index (``models.match_indexes``) up
to one page after the cursor, and the branches are merged in Python (a match in two of them
listed once). The rows carry only the columns a list shows (``SUMMARY_COLUMNS`` and the
kind's own), never the position or the card records.

A list's branches given a ``key`` (what the list is, apart from the user: the same key, the
same SQL) are ``Branch``es: each page's SQL is compiled once per process (``play.sql``), for
each page size and with or without a cursor, and run again with the user's id and the
cursor (issue 31: compiling the branches' joined queries cost more than running them).

A page is ``{"results": [...], "next": cursor or None}``; ``?before=<cursor>`` asks for the
next one, ``?limit=`` for its size (at most ``MAX_PAGE``). A cursor is the last row's
creation time (microseconds since the epoch) and id: ``"<micros>.<id>"``, stable while rows
are added at the top.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q, QuerySet

from config.errors import BadInput

from . import sql

PAGE = 50  # rows of a page unless ?limit= asks for another number
MAX_PAGE = 200
# What every kind's list row reads of a match (its summary); a kind adds its own columns.
SUMMARY_COLUMNS = ("id", "french_player", "allied_player", "invited", "bot", "seq", "status",
                   "outcome", "to_move", "rated", "public", "time_control", "clocks",
                   "clock_started_at", "deadline", "expires_at", "paused_at", "created_at",
                   "finished_at",
                   # of the players (each branch selects them related): only the name a row
                   # shows, not the whole user (a third of a page's rows' cost)
                   "french_player__username", "allied_player__username", "invited__username")
SEATS = ("french_player", "allied_player")


@dataclass(frozen=True)
class Page:
    rows: list[Any]
    next: str | None


EVERY_INVITATION = Q()


@dataclass(frozen=True)
class Branch:
    """One branch of a user's list, its SQL compiled once: ``key`` names it apart from the
    user (the same key, the same SQL), ``build(user_id)`` is its queryset, ``user`` the id."""

    key: Hashable
    build: Callable[[int], QuerySet]
    user: int

    def newest(self, cursor: tuple[datetime, int] | None, limit: int) -> list[Any]:
        """Its first ``limit`` rows newest first after ``cursor`` (as ``newest_first``)."""
        shape = (self.key, limit, cursor is not None)
        compiled = _compiled.get(shape)
        if compiled is None:
            build = self.build
            if cursor is None:
                compiled = sql.Compiled(lambda uid: _newest(build(uid), limit), ("id",))
            else:
                compiled = sql.Compiled(
                    lambda uid, at, pk: _newest(_after(build(uid), at, pk), limit),
                    ("id", "moment", "id"))
            _compiled[shape] = compiled
        return compiled.rows(self.user, *(cursor or ()))


# (branch key, page size, with a cursor) -> its compiled query: keys are the callers' own
# (a few per kind), sizes at most MAX_PAGE + 1, so this stays small
_compiled: dict[tuple[Hashable, int, bool], sql.Compiled] = {}


def branches(qs: QuerySet, user: Any, invited: Q | None = EVERY_INVITATION,
             key: Hashable | None = None) -> list[Any]:
    """The branches of ``user``'s list of ``qs``'s matches: one per seat, and the
    invitations (``invited`` user, with the kind's condition; None: a list without them).
    ``key``: what ``qs`` and ``invited`` are (a few constant values per kind, never a
    request's raw input): the branches are ``Branch``es, compiled once; None: querysets."""
    if key is None:
        out = [qs.filter(**{seat: user}) for seat in SEATS]
        if invited is not None:
            out.append(qs.filter(Q(invited=user) & invited))
        return out
    def seated(seat: str) -> Callable[[int], QuerySet]:
        return lambda uid: qs.filter(**{seat: uid})

    parts: list[Any] = [Branch((key, seat), seated(seat), user.pk) for seat in SEATS]
    if invited is not None:
        condition = invited
        parts.append(Branch((key, "invited"),
                            lambda uid: qs.filter(Q(invited=uid) & condition), user.pk))
    return parts


def _after(qs: QuerySet, at: datetime, pk: int) -> QuerySet:
    after = Q(created_at__lt=at) | Q(created_at=at, pk__lt=pk)
    # the range bound on its own lets each part's index start at the cursor
    return qs.filter(after, created_at__lte=at)


def _newest(qs: QuerySet, limit: int) -> QuerySet:
    return qs.order_by("-created_at", "-id")[:limit + 1]


def cursor_of(row: Any) -> str:
    micros = round(row.created_at.timestamp() * 1_000_000)
    return f"{micros}.{row.pk}"


def parse_cursor(text: str) -> tuple[datetime, int]:
    """(created_at, id) of a cursor; 400 ``bad_input`` for anything else."""
    micros, _, pk = str(text).partition(".")
    if not (micros.isascii() and micros.isdigit() and pk.isascii() and pk.isdigit()
            and len(micros) <= 20 and len(pk) <= 19):
        raise BadInput("before: a cursor from a page's \"next\", as '<micros>.<id>'")
    return datetime.fromtimestamp(int(micros) / 1_000_000, tz=UTC), int(pk)


def page_size(value: Any) -> int:
    if value in (None, ""):
        return PAGE
    text = str(value)
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_PAGE:
        raise BadInput(f"limit: a whole number from 1 to {MAX_PAGE}")
    return int(text)


def newest_first(parts: Sequence[Any], *, before: str | None = None,
                 limit: int = PAGE) -> Page:
    """One page of the union of ``parts`` (querysets or ``Branch``es), newest first
    (created_at, then id), after the cursor ``before``: each part reads at most
    ``limit + 1`` rows from its index."""
    cursor = parse_cursor(before) if before else None
    ordered = [p.newest(cursor, limit) if isinstance(p, Branch)
               else list(_newest(p if cursor is None else _after(p, *cursor), limit))
               for p in parts]
    rows, seen = [], set()
    for row in heapq.merge(*ordered, key=lambda r: (r.created_at, r.pk), reverse=True):
        if row.pk not in seen:
            seen.add(row.pk)
            rows.append(row)
    more = len(rows) > limit
    rows = rows[:limit]
    return Page(rows, cursor_of(rows[-1]) if more else None)


def page_of(parts: Sequence[Any], query: Mapping[str, Any]) -> Page:
    """``newest_first`` with the request's ``?before=`` and ``?limit=``."""
    return newest_first(parts, before=query.get("before") or None,
                        limit=page_size(query.get("limit")))


def columns(*own: str) -> tuple[str, ...]:
    return (*SUMMARY_COLUMNS, *own)

