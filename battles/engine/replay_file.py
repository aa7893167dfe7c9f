"""Replay an exported battle offline (``GET /api/battles/<id>/export/``), with no Django.

An export (``format: "eagles-battle/1"``) holds the setup (battle, settings, scale, each
army's deck kind and deck, the card records the battle played with, the revealed seed) and
every recorded action in order, undos included (``{"type": "undo", "undoes": k}``), each
with the events the site recorded for it. ``replay_export(doc)`` rebuilds the battle:

- the position is set up with ``new_battle`` exactly as the site set it up;
- undone actions and the undos themselves are skipped (``effective_actions``, from the game
  service's pure ``play.log``: the one function every replay uses, the site's included);
- action ``n`` rolls ``action_dice(seed, n)``, the dice the site gave it, and is checked for
  legality; its events must equal the recorded ones, so every die is re-derived from the
  seed and compared;
- the final outcome must equal the recorded one (a battle resigned, lost on time or by
  absence has none on the board: the replay must end with none, and the recorded one stands).

Command line::

    python -m battles.engine.replay_file export.json

prints the outcome and ``replayed N actions, dice verified`` (exit status 1 and the reason
when anything differs, 2 when the file cannot be read).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from play.log import (
    UNDO,
    UNDONE,
    ReplayMismatch,
    count_dice,
    effective_actions,
    is_undo,
    plain,
    row_field,
)

from .dice import SeededDice
from .engine import apply
from .errors import IllegalAction
from .state import State, new_battle

FORMAT = "eagles-battle/1"
# Ends the site decides away from the board (battles.models.EndReason): the replayed position
# has no outcome of its own then, and the recorded one stands.
ENDED_OFF_THE_BOARD = ("resigned", "time", "absent")

# The log's own helpers are the game service's (``play.log``: pure), re-exported here for the
# code and the exports that name them from this module.
__all__ = ["FORMAT", "UNDO", "UNDONE", "ReplayMismatch", "ReplayResult", "action_dice",
           "count_dice", "effective_actions", "is_undo", "main", "outcome_words", "plain",
           "replay_export", "setup_from_export"]


def action_dice(seed: int | str, seq: int) -> SeededDice:
    """The dice of action number ``seq``: an endless stream fixed by the seed and ``seq``
    (the site's: ``battles.modules.BATTLE.dice``)."""
    return SeededDice(f"{seed}:{seq}")


@dataclass
class ReplayResult:
    state: State
    actions: int  # actions replayed (undone ones and undos not counted)
    undone: int  # actions taken back
    dice: int  # dice re-derived from the seed
    outcome: dict | None


def setup_from_export(doc: Mapping[str, Any]) -> State:
    """The position before the first action, from an export's setup."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise ReplayMismatch(f"not an EAGLES battle export (format {FORMAT!r} expected)")
    return new_battle(doc["battle"], doc["seed"], doc.get("decks") or None, doc.get("settings"),
                      cards=doc["card_records"], deck_kinds=doc.get("deck_kinds") or None)


def replay_export(doc: Mapping[str, Any]) -> ReplayResult:
    """Replay an export; ``ReplayMismatch`` names the first thing that differs."""
    state = setup_from_export(doc)
    rows = list(doc.get("actions") or ())
    for i, row in enumerate(rows, 1):
        if row_field(row, "seq") != i:
            raise ReplayMismatch(f"the actions are not numbered 1, 2, ...: {i} is missing")
    kept = effective_actions(rows)
    dice = 0
    for row in kept:
        seq = row["seq"]
        try:
            events = apply(state, row["action"], action_dice(doc["seed"], seq))
        except IllegalAction as exc:
            raise ReplayMismatch(f"action {seq} is not legal: {exc}") from None
        if "events" in row and plain(events) != row["events"]:
            raise ReplayMismatch(f"action {seq} replays differently from the recorded events "
                                 "(a die or a card differs)")
        dice += count_dice(events)
    outcome = plain(state.outcome) if state.outcome else None
    recorded = doc.get("outcome")
    if isinstance(recorded, Mapping) and recorded.get("reason") in ENDED_OFF_THE_BOARD \
            and outcome is None:
        outcome = plain(recorded)  # resigned, out of time, absent: the board had no end yet
    if outcome != recorded:
        raise ReplayMismatch(f"the replay ends with {outcome!r}, the export says "
                             f"{doc.get('outcome')!r}")
    return ReplayResult(state, len(kept), (len(rows) - len(kept)) // 2, dice, outcome)


def outcome_words(outcome: Mapping[str, Any] | None) -> str:
    if not outcome:
        return "no outcome: the battle is not over"
    winner = outcome.get("winner")
    who = f"{winner} win" if winner else "a draw"
    return f"{who} ({outcome.get('reason')}, turn {outcome.get('turn')})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m battles.engine.replay_file",
        description="Replay an EAGLES battle export offline and check every die.")
    parser.add_argument("file", help="the JSON of GET /api/battles/<id>/export/ ('-': stdin)")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
        doc = json.loads(text)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay_export(doc)
    except (ReplayMismatch, IllegalAction, KeyError, TypeError) as exc:
        print(f"replay failed: {exc}", file=sys.stderr)
        return 1
    print(f"outcome: {outcome_words(result.outcome)}")
    undone = f" ({result.undone} taken back)" if result.undone else ""
    print(f"replayed {result.actions} actions{undone}, dice verified "
          f"({result.dice} dice re-derived from the seed {doc['seed']})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
