"""When each player of a match was last seen, and when an absent opponent may be claimed
against (issue 12, Time): once for every kind of match (``Match.seen``).

``touch(match, side)`` is called when a player looks at their match (the API's GET through
``looked_at``, the page's GET, the live channel's socket: ``SOCKET``); it writes
``Match.seen`` (side -> ISO time) at most every ``TOUCH_EVERY`` seconds per side, so reading
a match stays (almost) read-only.

**Absence rule** (``absent_since``, ``claim_refusal``): in a LIVE match between two people, a
player may claim the match (``claim``: ``turns.end_by``, reason ``absent``) when the opponent
has the move and has been away for more than ``ABSENCE_LIMIT`` seconds, counted from the later
of the opponent's last visit and the moment they got the move (their clock started): so a
player who just got the move always has ``ABSENCE_LIMIT`` to show up, whatever they did
before. Correspondence and untimed matches and matches against the computer cannot be claimed
(the deadline does the work there), nor a paused one (no clock runs; its resume restarts the
count). The messages name the kind's ``noun``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from config.errors import Conflict
from game import other_side

from .clock import LIVE
from .live.hooks import Presence
from .registry import Match, MatchKind, kind_of
from .seats import side_of
from .turns import end_by

ABSENCE_LIMIT = 120  # seconds
TOUCH_EVERY = 10  # seconds between two writes of the same side's last visit


def last_seen(match: Match, side: str) -> datetime | None:
    raw = (match.seen or {}).get(side)
    return datetime.fromisoformat(raw) if raw else None


def touch(match: Match, side: str | None, now: datetime | None = None) -> bool:
    """Record that ``side``'s player is looking at ``match`` now (at most every
    ``TOUCH_EVERY`` s); returns whether it wrote. Only a merge of this side's key under the
    row lock, so the two players never overwrite each other."""
    if side is None or match.status not in ("active", "waiting"):
        return False
    now = now or timezone.now()
    seen = last_seen(match, side)
    if seen is not None and now - seen < timedelta(seconds=TOUCH_EVERY):
        return False
    model = type(match)
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=match.pk).values("seen").first()
        if row is None:
            return False
        merged = {**(row["seen"] or {}), side: now.isoformat()}
        model.objects.filter(pk=match.pk).update(seen=merged)
    match.seen = merged
    return True


def touch_many(visits: list[tuple[Match, str | None]], now: datetime | None = None) -> int:
    """``touch`` for many players at once (the live poller's round, ``play.live.poller``):
    ``visits`` are ``(match, side)``, each match a row of one model with its pk, ``status``
    and ``seen`` as just read. The same rule as ``touch`` picks the due ones (a waiting or
    active match, the side's last visit ``TOUCH_EVERY`` s old), then ONE statement writes
    them all, in place of a locking read and a write per player (4 round trips each: ~19 %
    of a web process's CPU with 200 sockets on it, issue 31). Each row's ``seen`` gets only
    the visiting sides' keys, merged in by the database under the statement's own row lock,
    so two players (or two processes) never overwrite each other; a match that ended since
    it was read is not written. Returns the rows written."""
    now = now or timezone.now()
    merged: dict[int, dict[str, str]] = {}
    model = None
    for match, side in visits:
        if side is None or match.status not in ("active", "waiting"):
            continue
        seen = last_seen(match, side)
        if seen is not None and now - seen < timedelta(seconds=TOUCH_EVERY):
            continue
        model = type(match)
        merged.setdefault(match.pk, {})[side] = now.isoformat()
    if model is None:
        return 0
    table = connection.ops.quote_name(model._meta.db_table)
    seen_col = connection.ops.quote_name(model._meta.get_field("seen").column)
    status = connection.ops.quote_name(model._meta.get_field("status").column)
    key = connection.ops.quote_name(model._meta.pk.column)
    rows = [(pk, json.dumps(sides)) for pk, sides in sorted(merged.items())]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The rows are locked in id order first: two web processes' pollers write
            # overlapping matches (a battle's two players on two processes), and two
            # multi-row updates locking in different orders could deadlock.
            values = ", ".join(["(%s::bigint, %s::jsonb)"] * len(rows))
            cursor.execute(
                f"WITH locked AS (SELECT {key} AS id FROM {table} WHERE {key} = ANY(%s) "
                f"AND {status} IN ('active', 'waiting') ORDER BY {key} FOR UPDATE) "
                f"UPDATE {table} AS m "
                f"SET {seen_col} = COALESCE(m.{seen_col}, '{{}}'::jsonb) || v.visit "
                f"FROM (VALUES {values}) AS v(id, visit), locked "
                f"WHERE m.{key} = v.id AND m.{key} = locked.id",
                [[pk for pk, _ in rows], *(x for row in rows for x in row)])
            return cursor.rowcount
        written = 0  # SQLite (in-process: a statement per row costs no round trip)
        for pk, visit in rows:
            cursor.execute(
                f"UPDATE {table} SET {seen_col} = json_patch(COALESCE({seen_col}, '{{}}'), %s) "
                f"WHERE {key} = %s AND {status} IN ('active', 'waiting')", [visit, pk])
            written += cursor.rowcount
        return written


def looked_at(match: Match, user: Any) -> None:
    """``user`` read ``match`` (a ``play.api.GameAPI``'s ``looked_at``, a page's GET): their
    side's visit, if they play it."""
    touch(match, side_of(match, user))


# A player's open socket is being at the match (``play.live.hooks.LiveHooks.presence``).
SOCKET = Presence(columns=("seen",), every=TOUCH_EVERY,
                  touch=lambda match, side, now=None: touch(match, side, now),
                  touch_many=touch_many)


def absent_since(match: Match, side: str) -> datetime | None:
    """Since when ``side``'s player has been away while having the move (None: not to
    move, or no clock runs)."""
    if match.to_move != side or match.clock_started_at is None:
        return None
    seen = last_seen(match, side)
    return max(seen, match.clock_started_at) if seen else match.clock_started_at


def claim_refusal(match: Match, claimer: str, now: datetime,
                  kind: MatchKind | None = None) -> str | None:
    """Why ``claimer`` may not claim the opponent's absence now (None: they may)."""
    noun = (kind or kind_of(match)).noun
    if match.status != "active":
        return f"the {noun} is not under way"
    if getattr(match, "paused_at", None) is not None:
        return f"the {noun} is paused by its tournament's organiser"
    if (match.time_control or {}).get("kind") != LIVE:
        return f"only a live {noun} can be claimed for absence (this one is " + \
            ("correspondence" if match.time_control else "untimed") + ")"
    if match.bot:
        return "the computer is never absent"
    since = absent_since(match, other_side(claimer))
    if since is None:
        return "your opponent is not to move: only a player who has the move can be absent"
    away = (now - since).total_seconds()
    if away <= ABSENCE_LIMIT:
        return (f"your opponent has been away {int(away)} s; a claim needs more than "
                f"{ABSENCE_LIMIT} s")
    return None


def claimable(match: Match, side: str | None, now: datetime,
              kind: MatchKind | None = None) -> bool:
    return side is not None and claim_refusal(match, side, now, kind) is None


def claim(kind: MatchKind, match_id: Any, user: Any) -> Match:
    """``user`` claims a live match whose opponent has the move and has been away for more
    than ``ABSENCE_LIMIT`` seconds: ``user`` wins, reason ``absent`` (the loser recorded,
    ``turns.end_by``); otherwise 409 ``not_claimable`` with the reason (``claim_refusal``)."""
    def outcome(match: Match, side: str) -> tuple[str | None, str]:
        why = claim_refusal(match, side, timezone.now(), kind)
        if why is not None:
            raise Conflict(f"you cannot claim this {kind.noun}: {why}", code="not_claimable",
                           seq=match.seq)
        return side, "absent"

    return end_by(kind, match_id, user, "claim it", outcome)
