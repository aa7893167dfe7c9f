"""What a viewer may see (R13): a piece's identity goes to its owner, and to everyone once
the rules reveal it; a spectator (``None``) sees no unrevealed identity. The opponent sees an
unrevealed piece's square and back (infantry, cavalry, artillery: 001 §4), the number of
pieces in reserve, never the Line of Retreat card (001 §3) nor the Prussians' order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .board import SIDES, lines_of_retreat, time_of_turn, to_pair
from .cards import view_cards
from .combat import public
from .pieces import BACK
from .pursuit import view_pursuit
from .rules import to_move
from .state import Piece, State
from .terrain import view_terrain

Event = dict[str, Any]


def seen(p: Piece, viewer: str | None) -> bool:
    """R13; R32: a piece looked at with Reconnaissance is known to the player who looked."""
    return p.revealed or (viewer is not None and (p.side == viewer or p.scouted))


def piece_view(p: Piece, viewer: str | None, half: int = -2) -> dict[str, Any]:
    out: dict[str, Any] = {"side": p.side, "back": BACK[p.type]}
    if p.square is not None:
        out["square"] = to_pair(p.square)
    if seen(p, viewer):
        out.update(public(p))
        out["revealed"] = p.revealed
        out["weakened"] = p.weakened
        if p.weakened:
            # A charge is an attack, seen by both players: when it came is public, and with
            # it when the piece may rest (001 §4: after the opponent could counter charge).
            out["charged_at"] = p.charged_at
        if p.scouted and not p.revealed and p.side != viewer:
            out["scouted"] = True
    elif p.spec.army == "prussian":
        out["army"] = "prussian"  # black pieces: their colour shows (001 §2)
    if p.spirit_half == half:
        out["fighting_spirit"] = True  # the card was played on it, face up
    return out


def view(st: State, viewer: str | None) -> dict[str, Any]:
    half = st.half if st.mode != "basic" else -2
    board = [piece_view(st.pieces[pid], viewer, half) for _, pid in sorted(st.board.items())]
    sides: dict[str, Any] = {}
    for side in SIDES:
        mine = viewer == side
        reserve = sorted((p for p in st.side_pieces(side) if p.where == "reserve"),
                         key=lambda p: p.id)
        off = {where: [public(p) for p in sorted(st.side_pieces(side), key=lambda p: p.id)
                       if p.where == where]
               for where in ("withdrawn", "resting", "eliminated")}
        entry: dict[str, Any] = {
            "reserve_count": len(reserve),
            **off,
        }
        if st.mode != "basic":
            entry["delayed_count"] = sum(1 for p in st.side_pieces(side)
                                         if p.where == "delayed")
        if mine:
            entry["reserve"] = [public(p) for p in reserve]
        if mine and side in st.lines:
            entry["lines_of_retreat"] = {
                "sector": st.lines[side],
                "squares": [to_pair(s) for s in lines_of_retreat(side, st.lines[side])]}
        sides[side] = entry
    out: dict[str, Any] = {
        "game": "stratego", "viewer": viewer, "mode": st.mode, "phase": st.phase,
        "data_version": st.table.version,
        "active": st.active if st.phase != "over" else None,
        "turn": st.turn, "time": time_of_turn(st.turn) if st.turn else None,
        "actions_left": st.actions_left, "used": dict(sorted(st.used.items())),
        "draw_offer": st.draw_offer, "turn_cap": st.turn_cap,
        "prussians_to_come": len(st.prussian_pool),
        "board": board, "sides": sides, "outcome": st.outcome,
        "lines_of_retreat_revealed": dict(st.lines) if st.phase == "over" else None,
    }
    if st.mode != "basic":
        assert st.cards is not None
        out.update({
            "terrain": view_terrain(st), "cards": view_cards(st, viewer),
            "card_in_play": None if st.card is None else {
                "card": st.card["card"], "side": st.card["side"],
                "steps": len(st.card["used"]) + len(st.card["looked"])},
            "to_move": to_move(st), "due": list(st.due),
            "pending": None if st.pending is None else {
                k: st.pending[k] for k in ("kind", "for", "target", "options")
                if k in st.pending},
            "options": dict(sorted(st.options.items())),
        })
    if st.mode == "expert":
        out["pursuit"] = view_pursuit(st, viewer)
    return out


def events_for(events: Sequence[Event], viewer: str | None) -> list[Event]:
    """Each event as ``viewer`` may see it: its ``secret`` part only for the side it names."""
    out = []
    for e in events:
        secret = e.get("secret")
        if secret is None or secret.get("for") == viewer:
            out.append(dict(e))
        else:
            out.append({k: v for k, v in e.items() if k != "secret"})
    return out
