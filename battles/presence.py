"""When each player of a battle was last seen, and when an absent opponent may be claimed
against (issue 12, Time).

``touch(battle, side)`` is called when a player looks at their battle (the API's GET, the
page's GET, the websocket consumer); it writes ``Battle.seen`` (side -> ISO time) at most every
``TOUCH_EVERY`` seconds per side, so reading a battle stays (almost) read-only.

**Absence rule** (``absent_since``, ``claimable``): in a LIVE battle between two people, a
player may claim the battle (``services.claim_absence``, reason ``absent``) when the opponent
has priority and has been away for more than ``ABSENCE_LIMIT`` seconds, counted from the later
of the opponent's last visit and the moment they got the move (their clock started): so a
player who just got the move always has ``ABSENCE_LIMIT`` to show up, whatever they did
before. Correspondence battles and battles against the computer cannot be claimed (the
deadline does the work there).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from game import other_side
from play.clock import LIVE

ABSENCE_LIMIT = 120  # seconds
TOUCH_EVERY = 10  # seconds between two writes of the same side's last visit


def last_seen(battle, side: str) -> datetime | None:
    raw = (battle.seen or {}).get(side)
    return datetime.fromisoformat(raw) if raw else None


def touch(battle, side: str | None, now: datetime | None = None) -> bool:
    """Record that ``side``'s player is looking at ``battle`` now (at most every
    ``TOUCH_EVERY`` s); returns whether it wrote. Only a merge of this side's key under the
    row lock, so the two players never overwrite each other."""
    from django.db import transaction
    from django.utils import timezone

    if side is None or battle.status not in ("active", "waiting"):
        return False
    now = now or timezone.now()
    seen = last_seen(battle, side)
    if seen is not None and now - seen < timedelta(seconds=TOUCH_EVERY):
        return False
    model = type(battle)
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=battle.pk).values("seen").first()
        if row is None:
            return False
        merged = {**(row["seen"] or {}), side: now.isoformat()}
        model.objects.filter(pk=battle.pk).update(seen=merged)
    battle.seen = merged
    return True


def absent_since(battle, side: str) -> datetime | None:
    """Since when ``side``'s player has been away while having the move (None: not to
    move)."""
    if battle.to_move != side or battle.clock_started_at is None:
        return None
    seen = last_seen(battle, side)
    return max(seen, battle.clock_started_at) if seen else battle.clock_started_at


def claim_refusal(battle, claimer: str, now: datetime) -> str | None:
    """Why ``claimer`` may not claim the opponent's absence now (None: they may)."""
    if battle.status != "active":
        return "the battle is not under way"
    if getattr(battle, "paused_at", None) is not None:
        return "the battle is paused by its tournament's organiser"
    if (battle.time_control or {}).get("kind") != LIVE:
        return "only a live battle can be claimed for absence (this one is " + \
            ("correspondence" if battle.time_control else "untimed") + ")"
    if battle.bot:
        return "the computer is never absent"
    since = absent_since(battle, other_side(claimer))
    if since is None:
        return "your opponent is not to move: only a player who has the move can be absent"
    away = (now - since).total_seconds()
    if away <= ABSENCE_LIMIT:
        return (f"your opponent has been away {int(away)} s; a claim needs more than "
                f"{ABSENCE_LIMIT} s")
    return None


def claimable(battle, side: str | None, now: datetime) -> bool:
    return side is not None and claim_refusal(battle, side, now) is None
