"""The campaign page's clocks and end line: one clock per side for the whole campaign
(RULINGS 16-o), drawn like a battle's (``frontend.battle.views.clock_text``, counted down by
``static/frontend/clock.js``)."""

from __future__ import annotations

from collections.abc import Mapping

from frontend.battle.views import clock_text
from game import SIDE_NAMES, SIDES, other_side

REASONS = {"resigned": " ({loser} resigned)", "time": " ({loser} ran out of time)"}


def clock_rows(cv: Mapping, side: str | None) -> list[dict]:
    """Both clocks (mine first; a spectator: French first) from ``campaign_view``: seconds
    left, as text, and which one runs ([] untimed)."""
    if not cv.get("clocks"):
        return []
    to_move = ((cv.get("view") or {}).get("to_move") or {}).get("side")
    running = to_move if cv.get("deadline") and cv.get("status") == "active" else None
    order = (side, other_side(side)) if side in SIDES else SIDES
    return [{"side": s, "name": SIDE_NAMES[s], "mine": s == side,
             "seconds": cv["clocks"].get(s, 0), "text": clock_text(cv["clocks"].get(s, 0)),
             "running": running == s} for s in order]


def outcome_text(outcome: Mapping | None) -> str:
    """"The Allied win the campaign (French ran out of time)." ("" while it goes on)."""
    if not outcome:
        return ""
    winner = SIDE_NAMES.get(outcome.get("winner") or "", "")
    how = REASONS.get(outcome.get("reason") or "", "").format(
        loser=SIDE_NAMES.get(outcome.get("loser") or "", "the loser"))
    if outcome.get("reason") == "resigned" and not outcome.get("loser"):
        how = " (resigned)"
    return f"The {winner} win the campaign{how}."
