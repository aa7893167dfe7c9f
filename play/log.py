"""A match's log, as every game stores it (pure: standard library only): the undo rows and
the actions still counting. The service's undo (``play.undo``), its replays
(``play.replays``) and a game's offline replayer (``battles.engine.replay_file``) read the log
with these, so that they agree.

An action row has ``seq`` (1, 2, ... per match), ``side``, ``action`` and ``events``; an undo
is a row of its own (``{"type": "undo", "undoes": k}``, one public event ``{"type":
"undone", "undoes": k, "side", "visibility": "all"}``), never a rewrite of the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

UNDO = "undo"  # the action type of an undo row: {"type": "undo", "undoes": <seq>}
UNDONE = "undone"  # its one event: {"type": "undone", "undoes": <seq>, "side", "visibility"}


class ReplayMismatch(ValueError):
    """A log or an export does not replay as recorded (a changed die, action, event or
    outcome, or an undo that takes back what it cannot)."""


def row_field(row: Any, name: str) -> Any:
    """A row's ``name``: ``row`` is a dict (an export's) or an object (a model row)."""
    return row[name] if isinstance(row, Mapping) else getattr(row, name)


def is_undo(action: Any) -> bool:
    return isinstance(action, Mapping) and action.get("type") == UNDO


def effective_actions[Row](rows: Iterable[Row]) -> list[Row]:
    """The actions that count, in order: ``rows`` (dicts or objects with ``seq``, ``side``
    and ``action``, in seq order) without the undo rows and the actions they took back.

    An undo takes back the last action still counting, of its own side (the only undo the
    site offers); anything else is a corrupt log (``ReplayMismatch``)."""
    kept: list[Row] = []
    for row in rows:
        action = row_field(row, "action")
        if not is_undo(action):
            kept.append(row)
            continue
        target = action.get("undoes")
        if not kept or row_field(kept[-1], "seq") != target:
            raise ReplayMismatch(f"action {row_field(row, 'seq')} undoes {target!r}, which is "
                                 "not the last action still counting")
        if row_field(kept[-1], "side") != row_field(row, "side"):
            raise ReplayMismatch(f"action {row_field(row, 'seq')} undoes an action of the "
                                 "other side")
        kept.pop()
    return kept


def plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (what a JSON column gives back)."""
    return json.loads(json.dumps(value))


def count_dice(events: Iterable[Mapping[str, Any]]) -> int:
    """The dice these events rolled (each event's ``dice`` list)."""
    return sum(len(e.get("dice") or ()) for e in events)


def auto_entry(seq: int, side: str, action: Mapping[str, Any] | None, why: str = ""
               ) -> dict[str, Any]:
    """The public log entry that opens an action auto-play made (a game's log entries:
    ``battles.selectors.entries_of``): its type only, never a card; ``why``, the row's
    ``auto_reason``, when it was the player's own standing choice (``play.passing``)."""
    entry: dict[str, Any] = {"seq": seq, "type": "auto_played", "side": side,
             "action": (action or {}).get("type"), "visibility": "all", "auto": True}
    if why:
        entry["why"] = why  # the player's own standing choice (play/passing.py)
    return entry
