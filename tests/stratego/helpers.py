"""Positions built by hand for the rule tests: pieces put on chosen squares, dice forced."""

from __future__ import annotations

from stratego.engine import State, legal_actions, new_game
from stratego.engine.rules import start_turn
from stratego.loader import load_pieces

TABLE = load_pieces()


def find(army: str, typ: str, strength: int | None = None, skip: int = 0) -> str:
    """The id of a piece of ``army`` of that type (and strength): the ``skip``-th one."""
    ids = [s.id for s in TABLE.specs.values() if s.army == army and s.type == typ
           and (strength is None or s.strength == strength)]
    return ids[skip]


def position(pieces: dict[str, tuple[int, int]], active: str = "french", turn: int = 1,
             mode: str = "basic", lines: dict[str, str] | None = None, seed: int = 1,
             start: bool = True) -> State:
    """A game in play with ``pieces`` on their squares (col, row), everything else in
    reserve (Prussians in the pool), ``active`` to act with a fresh turn."""
    st = new_game(seed, TABLE, mode)
    st.phase = "play"
    st.turn = turn
    st.active = active
    st.half = 2 * (turn - 1) + (1 if active == "french" else 0)
    if lines:
        st.lines.update(lines)
    for pid, (c, r) in pieces.items():
        st.put(st.pieces[pid], r * 12 + c)
    if start:
        events: list[dict] = []
        start_turn(st, events)
    return st


def act(st: State, **action: object) -> dict:
    """The action as listed (with the side), checked to be legal."""
    a = {"side": st.active, **action}
    a = {k: (list(v) if isinstance(v, tuple) else v) for k, v in a.items()}
    assert a in legal_actions(st, st.active), (a, legal_actions(st, st.active))
    return a


def at(st: State, c: int, r: int) -> str | None:
    return st.board.get(r * 12 + c)
