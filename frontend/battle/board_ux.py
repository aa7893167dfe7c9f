"""Playing on the board: what the battle page adds around the board (pure: the stdlib, ``game``
and the other pure renderers of ``frontend.battle``).

- ``action_keys(action)``: what an action form is about, for ``static/frontend/board.js``:
  the card or piece it acts with (``data-select``: ``piece:<id>`` or ``card:<number>``), what
  it aims at (``data-target``: ``place:<name>`` or ``piece:<id>``), and whether it is the
  plain choice (no formation, terrain or special options: a click on the target plays it);
- ``annotate(sections, view, side, cards)``: those keys and the loss warning
  (``warnings.warning``) on every button of ``frontend.play.actions.action_sections``;
- ``changed_marks(log, since)``: the pieces and places named by the events after my last
  action (the opponent's moves, marked with a ring on the board);
- ``log_by_turn(events, lines)``: the log grouped per turn (the newest group open);
- ``extras(...)``: all of these for the page (the frame, ``frontend.play``, draws the dice).

Only the player's view and their filtered log are read: nothing hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from frontend.play.log import log_groups
from game import ENDING_ACTIONS

from .warnings import warning

# The legal actions of a board, in sections (``frontend.play.actions``); within a section,
# actions on the same card or piece form a group worded as one sentence ("Deploy Cooke
# (general) to your [Left] [Centre] [Right]").
# "Finish" comes last (issue 28): ending a phase is never the first thing offered, and the
# focus after an action goes to the next action, never to a finish (static/frontend/play.js).
BOARD_SECTIONS = (
    ("deploy", "Deploy", ("deploy", "decoy")),
    ("terrain", "Terrain", ("play_terrain",)),
    ("attack", "Fire and shock", ("fire", "shock")),
    ("move", "Move", ("move",)),
    ("formation", "Formation", ("change_formation",)),
    ("occupy", "Occupy terrain", ("occupy",)),
    ("special", "Special cards", ("play_special",)),
    ("finish", "Finish", ENDING_ACTIONS),
)

PLACE_KEYS = ("to", "at", "from")
PIECE_KEYS = ("piece", "target", "terrain")
OPTION_KEYS = ("formation", "occupy", "cancel", "pieces")


def action_keys(action: Mapping) -> dict[str, Any]:
    """``{"select": ..., "target": ..., "plain": bool}`` of one legal action."""
    kind = action.get("type")
    select = target = ""
    if "piece" in action and kind != "play_special":
        select = f"piece:{action['piece']}"
    elif "card" in action:
        select = f"card:{action['card']}"
    if kind in ("fire", "shock") and "target" in action:
        target = f"piece:{action['target']}"
    elif kind == "occupy" and "terrain" in action:
        target = f"piece:{action['terrain']}"
    elif "to" in action:
        target = f"place:{action['to']}"
    elif "at" in action:
        target = f"place:{action['at']}"
    plain = not any(k in action for k in OPTION_KEYS)
    return {"select": select, "target": target, "plain": plain}


def annotate(sections: list[dict], view: Mapping | None, side: str,
             cards: Mapping | None = None) -> list[dict]:
    """Add ``select``, ``target``, ``plain`` and ``warn`` to every button of ``sections``."""
    for section in sections:
        for group in section["groups"]:
            for item in group["items"]:
                item.update(action_keys(item["action"]))
                item["warn"] = bool(warning(view, side, item["action"], cards))
    return sections


def changed_marks(log: Sequence[Mapping], since: int | None) -> tuple[set, set]:
    """(piece ids, place names) named by the events of the actions after ``since`` (my last
    action's seq; None: every event)."""
    pieces: set = set()
    places: set = set()
    for e in log:
        if not isinstance(e, Mapping) or (since is not None and (e.get("seq") or 0) <= since):
            continue
        if e.get("type") in ("turn", "draw", "battle_over"):
            continue
        for key in PIECE_KEYS:
            v = e.get(key)
            if isinstance(v, int) and not isinstance(v, bool):
                pieces.add(v)
        for v in e.get("occupants") or ():
            if isinstance(v, int):
                pieces.add(v)
        for key in PLACE_KEYS:
            v = e.get(key)
            if isinstance(v, str) and "_" in v:
                places.add(v)
    return pieces, places


def log_by_turn(events: Sequence[Mapping], lines: Sequence[Mapping]) -> list[dict]:
    """The log lines in groups, one per turn (``Deployment`` before turn 1), oldest first, the
    last one ``open`` (``frontend.play.log.log_groups``, one board)."""
    return log_groups(events, lines)


def extras(bv: Mapping, side: str, cards: Mapping | None, sections: list[dict],
           lines: Sequence[Mapping], my_last_seq: int | None) -> dict:
    """What the page adds for playing on the board (see the module)."""
    view = bv.get("view")
    log = bv.get("log") or []
    annotate(sections, view, side, cards)
    pieces, places = changed_marks(log, my_last_seq if my_last_seq is not None else 0)
    return {"marked_pieces": pieces, "marked_places": places,
            "log_turns": log_by_turn(log, lines)}
