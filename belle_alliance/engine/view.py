"""What a viewer sees: everything (the game has no hidden information)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import SIDES
from .rules import broken, legal_actions, outcome, rout_modifier
from .state import State, to_json


def view(state: State, viewer: str | None) -> dict[str, Any]:
    """The whole position (``position``: ``to_json``'s, from which a computer player rebuilds
    the state), what is derived from it for a page, and the viewer's legal actions."""
    cards = state.cards
    return {
        "viewer": viewer,
        "edition": cards.edition,
        "title": cards.title,
        "publisher": cards.publisher,
        "position": to_json(state),
        "to_move": state.to_move(),
        "outcome": outcome(state),
        "time_label": cards.time_track[state.time],
        "casualties": {s: len(state.tracks[s]) for s in SIDES},
        "rout_modifier": {s: rout_modifier(state, s) for s in SIDES},
        "broken": {s: broken(state, s) for s in SIDES},
        "legal": legal_actions(state, viewer) if viewer in SIDES else [],
    }


def events_for(events: Sequence[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
    """Every event, to everyone (no hidden information): copies."""
    return [dict(e) for e in events]
