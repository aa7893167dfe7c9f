"""Campaign clocks (RULINGS 16-o): ONE clock per side for the whole campaign, pure arithmetic.

Nothing here imports Django (``now`` is passed in). The functions read and set plain
attributes of a ``Campaign`` row, as ``battles.clock`` does for a battle: ``time_control``,
``clocks``, ``clock_started_at``, ``deadline``, ``to_move``, ``status``, ``bot`` and
``computer_side()``; the service saves the field names they return, under the row lock.

What differs from a battle is only what a "turn" is. A campaign has up to two running boards
and campaign decisions (splits, reinforcing); the core's ``to_move`` (RULINGS 16-b) names the
one side that must act, on one board or for a decision, so exactly one clock runs at a time:

* **Whose clock runs**: the side ``to_move`` names, whatever it is doing (a move on either
  board, a split, a reinforce-or-keep decision), while the campaign is active. The time since
  ``clock_started_at`` is charged to the side that had the move when a position is saved.
* **Live increment**: when a side's Battle Turn ends on a board (that board's engine turn
  number goes up; deployment, turn 0, gives none), that side gets ``increment`` seconds,
  once per turn ended, on whichever board. Campaign decisions give none.
* **Correspondence**: a fresh ``days`` allowance each time the move passes to the other side
  (also between boards or for a decision): each hand-over needs the player to come back.
* **The computer**: untimed by default; its clock never runs (no deadline while it acts).

Validation, presets, the seconds-left and out-of-time arithmetic are ``battles.clock``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from battles.clock import (
    CORRESPONDENCE,
    LIVE,
    clocks_now,
    describe,
    initial_clocks,
    out_of_time,
    running_side,
    validate,
)

SIDES = ("french", "allied")
FIELDS = ["clocks", "clock_started_at", "deadline"]

__all__ = ["FIELDS", "clocks_now", "describe", "flag_fell", "on_position", "out_of_time",
           "running_side", "start", "stop", "turns_ended", "validate"]


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def _computer(campaign) -> str | None:
    return campaign.computer_side() if campaign.bot else None


def _run(campaign, side: str, now: datetime) -> None:
    """Start ``side``'s clock (empty: nobody's) and set the deadline."""
    campaign.clock_started_at = now if side else None
    if side and side != _computer(campaign):
        campaign.deadline = now + timedelta(seconds=campaign.clocks.get(side, 0))
    else:
        campaign.deadline = None


def start(campaign, now: datetime) -> list[str]:
    """The campaign starts (against the computer, or joined): full clocks, the clock of the
    side to move running. Returns the fields to save ([] untimed)."""
    if not campaign.time_control:
        return []
    campaign.clocks = initial_clocks(campaign.time_control, SIDES)
    _run(campaign, campaign.to_move, now)
    return list(FIELDS)


def turns_ended(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[str]:
    """The sides whose Battle Turn ended between two saved core states (``to_json``), one
    entry per turn ended: on each board running in both, the turn number went up by k, so
    the side active before ended its turn, then the sides alternate (5.0). From deployment
    (turn 0) nothing counts."""
    if not before or not after:
        return []
    out: list[str] = []
    for b, old in (before.get("boards") or {}).items():
        new = (after.get("boards") or {}).get(b)
        if new is None or not old.get("turn"):
            continue
        side = old.get("active")
        for _ in range(max(0, int(new.get("turn") or 0) - int(old["turn"]))):
            if side not in SIDES:
                break
            out.append(side)
            side = _other(side)
    return out


def on_position(campaign, before_side: str, before_state: Mapping | None,
                now: datetime) -> list[str]:
    """A new position was saved (``campaign.to_move`` / ``state`` hold it; ``before_*`` the
    position before): charge the time since the clock started to the side that had the
    move, add the live increments of the turns that ended, start the next clock. Returns the
    fields to save ([] untimed)."""
    tc = campaign.time_control
    if not tc:
        return []
    clocks = dict(campaign.clocks or initial_clocks(tc, SIDES))
    computer = _computer(campaign)
    if before_side and before_side != computer and campaign.clock_started_at is not None:
        spent = (now - campaign.clock_started_at).total_seconds()
        clocks[before_side] = max(0.0, round(clocks.get(before_side, 0) - spent, 3))
    if tc["kind"] == LIVE:
        for side in turns_ended(before_state, campaign.state):
            if side != computer:
                clocks[side] = clocks.get(side, 0) + tc["increment"]
    elif tc["kind"] == CORRESPONDENCE and campaign.to_move and \
            campaign.to_move != before_side:
        clocks = initial_clocks(tc, clocks)  # a fresh allowance for the side getting the move
    campaign.clocks = clocks
    _run(campaign, campaign.to_move if campaign.status == "active" else "", now)
    return list(FIELDS)


def stop(campaign, now: datetime) -> list[str]:
    """The campaign ends otherwise than by time (resigned, the core's outcome): charge the
    running clock up to ``now`` and stop it. Returns the fields to save ([] untimed)."""
    if not campaign.time_control:
        return []
    side = running_side(campaign)
    clocks = dict(campaign.clocks or {})
    if side is not None and campaign.clock_started_at is not None:
        spent = (now - campaign.clock_started_at).total_seconds()
        clocks[side] = max(0.0, round(clocks.get(side, 0) - spent, 3))
    campaign.clocks = clocks
    campaign.clock_started_at = None
    campaign.deadline = None
    return list(FIELDS)


def flag_fell(campaign, now: datetime | None = None) -> tuple[dict, list[str]]:
    """The outcome of a flag fall (the side to move, out of time, loses the campaign) and the
    clock fields to save; call only when ``out_of_time`` named a side."""
    loser = campaign.to_move
    campaign.clocks = {**(campaign.clocks or {}), loser: 0}
    campaign.clock_started_at = None
    campaign.deadline = None
    return {"winner": _other(loser), "reason": "time", "loser": loser}, list(FIELDS)
