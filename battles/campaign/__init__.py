"""The EAGLES: Waterloo Campaign Game (16.0): a pure package beside the engine (no Django).

    c = new_campaign(seed=7, cards=records, pools=None, settings={"turn_cap": None})
    legal_actions(c, "french") -> [action, ...]   # split / retreat / reinforce / keep, or a
                                                  # battle action carrying "board"
    apply(c, action, dice) -> [event, ...]        # dice: forced list or SeededDice
    view(c, side) -> dict                         # the only thing to send to a player
    to_json(c) / from_json(doc, cards)            # campaign.schema.json

Rulings: battles/engine/RULINGS.md, "16.0 Campaign". See README.md.
"""

from .core import (
    ORDER,
    PHASES,
    VERSION,
    Campaign,
    apply,
    board_cards,
    can_retreat,
    current_board,
    legal_actions,
    new_campaign,
    outcome,
    places,
    split_plan,
    to_move,
)
from .view import FORMAT, from_json, to_json, view

__all__ = [
    "FORMAT", "ORDER", "PHASES", "VERSION", "Campaign", "apply", "board_cards", "can_retreat",
    "current_board", "from_json", "legal_actions", "new_campaign", "outcome", "places",
    "split_plan", "to_json", "to_move", "view",
]
