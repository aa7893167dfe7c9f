"""The pure rules engine of Stratego: Waterloo (no Django): Basic game, and the Standard
game's extra victory (RULINGS.md says what is ruled; README.md what is not yet built).

    st = new_game(seed, table, mode="basic")          # table: stratego.loader.load_pieces()
    legal_actions(st, side) -> [action, ...]
    apply(st, action, dice) -> [event, ...]           # dice: an iterable of faces 1-6
    view(st, viewer); events_for(events, viewer)      # viewer: "french", "allied" or None
    to_json(st); from_json(doc, table)
"""

from .board import SIDES
from .combat import FACE_NAMES, DiceExhausted
from .pieces import PieceSpec, PieceTable
from .rules import IllegalAction, apply, legal_actions, new_game, to_move
from .state import FORMAT, Piece, State, from_json, to_json
from .view import events_for, view

__all__ = [
    "FACE_NAMES", "FORMAT", "SIDES", "DiceExhausted", "IllegalAction", "Piece", "PieceSpec",
    "PieceTable", "State", "apply", "events_for", "from_json", "legal_actions", "new_game",
    "to_json", "to_move", "view",
]
