"""The end of a game: the one place a game's outcome is written (the rules' victory checks
and the Pursuit's count both end the game here)."""

from __future__ import annotations

from typing import Any

from .state import State

Event = dict[str, Any]


def finish(st: State, winner: str | None, reason: str, events: list[Event],
           **extra: Any) -> None:
    st.phase = "over"
    st.outcome = {"winner": winner, "reason": reason, "turn": st.turn, **extra}
    st.pending = st.card = None
    st.due = []
    st.actions_left = 0
    events.append({"type": "game_over", "winner": winner, "reason": reason,
                   "lines": dict(st.lines), **extra})
