"""The campaign page's end line (its clocks, one per side for the whole campaign, RULINGS
16-o, are the game page frame's: ``frontend.play.frame.clock_rows``)."""

from __future__ import annotations

from collections.abc import Mapping

from game import SIDE_NAMES

REASONS = {"resigned": " ({loser} resigned)", "time": " ({loser} ran out of time)"}


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
