"""Helpers of the Stratego: Waterloo online tests: who may know what (from the TRUE state),
a simple player, and the checks that no unrevealed identity reaches a viewer."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from rest_framework.test import APIClient

from online.stratego.kind import state_of
from online.stratego.models import StrategoMatch

SAFE_KEYS = {"side", "back", "square", "army"}


def client_for(user) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def hidden_from(m: StrategoMatch, viewer: str | None) -> set[str]:
    """The ids of the pieces ``viewer`` (None: a spectator) may not know, from the true
    state: every unrevealed piece of the other side (every unrevealed piece at all for a
    spectator), wherever it is (board, reserve, the Prussians' pool)."""
    st = state_of(m)
    assert st is not None
    return {p.id for p in st.pieces.values()
            if not p.revealed and (viewer is None or p.side != viewer)}


def hidden_squares(m: StrategoMatch, viewer: str | None) -> set[tuple[int, int]]:
    st = state_of(m)
    assert st is not None
    return {(p.square % 12, p.square // 12) for p in st.pieces.values()
            if p.where == "board" and p.square is not None and not p.revealed
            and (viewer is None or p.side != viewer)}


def assert_no_identity(text: str, ids: set[str], where: str) -> None:
    """None of ``ids`` (e.g. "F07") appears in ``text`` as a word of its own."""
    found = sorted(i for i in ids if re.search(rf"\b{re.escape(i)}\b", text))
    assert not found, f"{where}: hidden identities {found} shown"


def assert_view_hides(view: dict[str, Any] | None, m: StrategoMatch, viewer: str | None,
                      where: str) -> None:
    """The engine view ``view`` holds, for each piece ``viewer`` may not know on the board,
    its square and back only; and no hidden id anywhere."""
    if view is None:
        return
    squares = hidden_squares(m, viewer)
    for p in view["board"]:
        if tuple(p["square"]) in squares:
            assert set(p) <= SAFE_KEYS, f"{where}: {p} says more than its back"
            assert p.get("army") in (None, "prussian")
    assert_no_identity(json.dumps(view), hidden_from(m, viewer), where)


def choose(legal: list[dict], rng: random.Random) -> dict:
    """A player who attacks or fires when they can (pieces get revealed), else moves, and
    ends the turn now and then; never offers a draw."""
    fights = [a for a in legal if a["type"] in ("attack", "fire")]
    if fights and rng.random() < 0.7:
        return rng.choice(fights)
    moves = [a for a in legal if a["type"] in ("move", "enter")]
    if moves and rng.random() < 0.9:
        return rng.choice(moves)
    ends = [a for a in legal if a["type"] == "end_turn"]
    return ends[0] if ends else rng.choice(legal)
