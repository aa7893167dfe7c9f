"""The EAGLES: Waterloo battle engine (rules 4.0-14.0): a pure package, no Django.

    st = new_battle("quatre-bras", seed=7, cards=records)  # or decks={"french": [...], ...}
    legal_actions(st, "allied") -> [action, ...]        # JSON-able dicts
    apply(st, action, dice) -> [event, ...]             # dice: iterable of 1-6, or SeededDice
    view(st, "french" | "allied" | None) -> dict        # the only way state leaves
    outcome(st) -> None | {"winner": ..., "reason": ...}
    to_json(st) / from_json(doc, cards)                 # position.schema.json

``records``: the card records the caller hands in (the engine reads no file).

See README.md (API, board, position format) and RULINGS.md.
"""

# ruff: noqa: E402 (the build must be chosen before the package's modules are imported)
from . import native as _native

# EAGLES_ENGINE=compiled|auto: the mypyc build of these exact sources (native.py), chosen
# before any other module of the package is imported. BUILD says which engine this is.
BUILD = _native.activate(__path__)

from .board import PLACE_NAMES, SIDES
from .cards import Card, CardTable, load_cards
from .dice import SeededDice
from .engine import apply, check_action, outcome
from .errors import DiceExhausted, IllegalAction
from .legal import legal_actions
from .position import FORMAT, VERSION, from_json, to_json
from .random_play import RandomGame, play_random
from .state import (
    DEFAULT_SETTINGS,
    SIMULATION_TURN_CAP,
    State,
    card_table,
    historical_deck,
    new_battle,
)
from .view import events_for, view

__all__ = [
    "BUILD", "DEFAULT_SETTINGS", "FORMAT", "PLACE_NAMES", "SIDES", "SIMULATION_TURN_CAP", "VERSION",
    "Card", "CardTable", "DiceExhausted", "IllegalAction", "RandomGame", "SeededDice", "State",
    "apply", "card_table", "check_action", "events_for", "from_json", "historical_deck",
    "legal_actions", "load_cards", "new_battle", "outcome", "play_random", "to_json", "view",
]
