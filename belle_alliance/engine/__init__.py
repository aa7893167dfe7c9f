"""The La Belle Alliance rules engine, pure (no Django, no file reading)::

    cards = parse_cards(doc)                        # the card data, handed in
    st = new_game(cards)
    legal_actions(st, "french" | "allied") -> [action, ...]
    apply(st, action, dice) -> [event, ...]         # dice: iterable of 1-6, or SeededDice
    chances(st, action) -> [(p, state), ...]        # the exact outcomes (the bots)
    view(st, viewer) / events_for(events, viewer)
    outcome(st) -> None | {"winner", "reason", "turn"}
    to_json(st) / from_json(doc, cards)

See ../README.md and ../RULINGS.md.
"""

from .cards import (
    BATTERY_MARKERS,
    DATA_FORMAT,
    DATA_VERSION,
    DIVISION_MARKERS,
    PLACES,
    PRUSSIAN_MARKERS,
    SIDES,
    ActionDef,
    CardData,
    CardDataError,
    CardDef,
    Condition,
    Effect,
    Modifier,
    parse_cards,
)
from .dice import SeededDice
from .rules import (
    TIME_CASUALTIES,
    TIME_PRUSSIANS,
    DiceExhausted,
    IllegalAction,
    apply,
    broken,
    candidates,
    chances,
    check_action,
    holds,
    legal_actions,
    modifier,
    outcome,
    roll_distribution,
    rout_modifier,
)
from .state import FORMAT, VERSION, State, from_json, new_game, other, to_json
from .view import events_for, view

__all__ = [
    "BATTERY_MARKERS", "DATA_FORMAT", "DATA_VERSION", "DIVISION_MARKERS", "FORMAT", "PLACES",
    "PRUSSIAN_MARKERS", "SIDES", "TIME_CASUALTIES", "TIME_PRUSSIANS", "VERSION", "ActionDef",
    "CardData", "CardDataError", "CardDef", "Condition", "DiceExhausted", "Effect",
    "IllegalAction", "Modifier", "SeededDice", "State", "apply", "broken", "candidates",
    "chances", "check_action", "events_for", "from_json", "holds", "legal_actions",
    "modifier", "new_game", "other", "outcome", "parse_cards", "roll_distribution",
    "rout_modifier", "to_json", "view",
]
