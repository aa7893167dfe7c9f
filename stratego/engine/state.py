"""The state of one game, and its JSON form (``FORMAT``).

Every piece is in exactly one place (``where``): ``pool`` (a Prussian not yet arrived),
``reserve``, ``board`` (then ``square``), ``withdrawn`` (an 'R' result), ``resting`` (heavy
cavalry regaining strength) or ``eliminated``. ``board`` maps squares to piece ids and is
rebuilt from the pieces, never stored.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import ALLIED, FRENCH
from .pieces import PieceSpec, PieceTable

FORMAT = 1
PLACES = ("pool", "reserve", "board", "withdrawn", "resting", "eliminated", "delayed",
          "saved", "aside")  # aside, saved: the Pursuit (001 §13)


@dataclass(slots=True)
class Piece:
    spec: PieceSpec
    side: str  # the player: "french" or "allied" (Prussians: "allied")
    where: str = "reserve"
    square: int | None = None
    revealed: bool = False  # its identity shown to the opponent (kept once shown: R13)
    weakened: int = 0  # heavy cavalry's 'weakened' blocks
    charged_at: int = -1  # the half-turn of its last charge (heavy cavalry)
    back_from: int = 0  # the first half-turn it may re-enter (withdrawn, resting)
    scouted: bool = False  # its identity shown to the opponent only (Reconnaissance, R27)
    spirit_half: int = -1  # the half-turn of its Fighting spirit (+1 during it: R28)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def type(self) -> str:
        return self.spec.type

    @property
    def strength(self) -> int | None:
        """Its playing strength now: printed, less heavy cavalry's blocks (never below 1)."""
        s = self.spec.strength
        if s is None:
            return None
        return max(1, s - self.weakened)


@dataclass(slots=True)
class State:
    table: PieceTable
    seed: int
    mode: str  # "basic", "standard" or "expert"
    pieces: dict[str, Piece]
    lines: dict[str, str]  # side -> sector of its Line of Retreat card (secret to the owner)
    prussian_pool: list[str]  # the shuffled Prussians, next first (secret to both)
    phase: str = "setup"  # "setup", "play", "over"
    active: str = ALLIED  # who acts now (set-up and play)
    turn: int = 0  # the game turn (1 = 11:00); 0 during set-up
    half: int = 0  # half-turns played: each player's turn is one
    actions_left: int = 0
    used: dict[str, int] = field(default_factory=dict)  # army -> actions this turn
    refund: list[str] = field(default_factory=list)  # commanders withdrawn at turn start
    draw_offer: str | None = None
    turn_cap: int | None = None  # bots only (R21)
    outcome: dict[str, Any] | None = None
    # Standard and Expert only (empty / None in the Basic game):
    options: dict[str, Any] = field(default_factory=dict)  # expert scenarios (R35, R36)
    buildings: dict[str, dict[str, Any]] = field(default_factory=dict)  # damage, owner
    cards: dict[str, Any] | None = None  # pile, hands, discards, played (cards.py)
    card: dict[str, Any] | None = None  # the manoeuvre card being carried out
    pending: dict[str, Any] | None = None  # a choice the other player makes mid-action
    due: list[str] = field(default_factory=list)  # what the active player does first
    pursuit: dict[str, Any] | None = None  # Expert: the Pursuit (R34)
    board: dict[int, str] = field(default_factory=dict)

    def rebuild_board(self) -> None:
        self.board = {p.square: p.id for p in self.pieces.values()
                      if p.where == "board" and p.square is not None}

    def at(self, square: int) -> Piece | None:
        pid = self.board.get(square)
        return None if pid is None else self.pieces[pid]

    def put(self, piece: Piece, square: int) -> None:
        if piece.where == "board" and piece.square is not None:
            del self.board[piece.square]
        piece.where, piece.square = "board", square
        self.board[square] = piece.id

    def lift(self, piece: Piece, where: str) -> None:
        if piece.where == "board" and piece.square is not None:
            del self.board[piece.square]
        piece.where, piece.square = where, None

    def side_pieces(self, side: str) -> list[Piece]:
        return [p for p in self.pieces.values() if p.side == side]


EXTRA = ("options", "buildings", "cards", "card", "pending", "due", "pursuit")


def to_json(st: State) -> dict[str, Any]:
    doc = {
        "format": FORMAT, "data_version": st.table.version, "seed": st.seed, "mode": st.mode,
        "phase": st.phase, "active": st.active, "turn": st.turn, "half": st.half,
        "actions_left": st.actions_left, "used": dict(sorted(st.used.items())),
        "refund": list(st.refund), "draw_offer": st.draw_offer, "turn_cap": st.turn_cap,
        "outcome": st.outcome, "lines": dict(st.lines), "prussian_pool": list(st.prussian_pool),
        "pieces": {pid: {"where": p.where, "square": p.square, "revealed": p.revealed,
                         "weakened": p.weakened, "charged_at": p.charged_at,
                         "back_from": p.back_from,
                         **({"scouted": p.scouted, "spirit_half": p.spirit_half}
                            if st.mode != "basic" else {})}
                   for pid, p in st.pieces.items()},
    }
    if st.mode != "basic":  # a Basic game's document is as it always was
        doc.update(copy.deepcopy({k: getattr(st, k) for k in EXTRA}))
    return doc


def from_json(doc: Mapping[str, Any], table: PieceTable) -> State:
    if doc.get("format") != FORMAT:
        raise ValueError(f"unknown format: {doc.get('format')!r}")
    if doc["data_version"] != table.version:
        raise ValueError(f"data version {doc['data_version']} needs its own piece table")
    pieces = {}
    for pid, d in doc["pieces"].items():
        spec = table[pid]
        pieces[pid] = Piece(spec, FRENCH if spec.army == "french" else ALLIED, d["where"],
                            d["square"], d["revealed"], d["weakened"], d["charged_at"],
                            d["back_from"], d.get("scouted", False),
                            d.get("spirit_half", -1))
    st = State(table, doc["seed"], doc["mode"], pieces, dict(doc["lines"]),
               list(doc["prussian_pool"]), doc["phase"], doc["active"], doc["turn"],
               doc["half"], doc["actions_left"], dict(doc["used"]), list(doc["refund"]),
               doc["draw_offer"], doc["turn_cap"],
               None if doc["outcome"] is None else dict(doc["outcome"]))
    for k in EXTRA:
        if k in doc:
            setattr(st, k, copy.deepcopy(doc[k]))
    st.rebuild_board()
    return st
