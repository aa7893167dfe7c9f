"""A player's standing order "Fire with every ready card (each at its suggested target)" for
their current Combat Phase (issue 28: the newcomer's clicks), and the suggestion itself.
Pure: no Django; ``battles.modules`` honours the order through ``chosen_action``.

The order is kept in ``Match.pass_choices[side]["fire"]`` as the key of the Combat Phase it
was given in (``combat_key``: board, turn and side), so it lapses by itself when that phase
ends: a later phase has another key.

The suggestion (``suggested_fires``), a rule a player can check on the board: each ready
card fires at the target on which it scores the most hits on average, i.e. its dice times
its chance to hit (7.1, 7.2: cv dice, F1 hits on a 6 ... F4 on 3-6), with every modifier
the rules give for that target: long or short range (7.23), a Column or Square (9.2, 9.3),
a Hill or Woods (11.1, 11.2), an engaged artillery card revealed (7.4), a Special in play
(13.0). Ties go to the card already carrying the most hits (each hit is one more morale
roll in its Morale Phase, and a card routs at its first failed roll: 6.0), then to the
first one listed. Cards fire in the fire list's order.

What it reads is only what the firing player sees: ``combat.dice_and_power`` looks at an
enemy card's identity only when it is face up, and otherwise at its place, formation,
hits and occupied terrain, all public (``engine.view``); the legal targets themselves are
on the player's page. tests/test_fire_order.py shuffles the enemy's face-down cards and
checks that the suggestion does not change.
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine import State
from .engine.board import SIDES
from .engine.combat import dice_and_power

# The kind of order kept in Match.pass_choices[side] (beside "skip" and "turn").
ORDER_KEY = "fire"
REASON = "order"  # MatchAction.auto_reason of a fire it played


def combat_key(st: State, side: str, board: str = "") -> str | None:
    """The key of ``side``'s own Combat Phase being played on this board (``board``: the
    campaign's board name, "" for a battle), or None when it is not theirs now."""
    if st.outcome is not None or st.phase != "combat" or SIDES[st.active] != side:
        return None
    return f"{board}:{st.turn}:{side}:combat"


def expected_hits(st: State, piece: int, target: int) -> float:
    """The hits ``piece`` scores on ``target`` on average when it fires (7.1, 7.2): dice
    times the chance that one die hits (F of the six faces hit)."""
    dice, power = dice_and_power(st, st.pieces[piece], st.pieces[target], False)
    return dice * power / 6


def suggested_fires(st: State, side: str, legal: Sequence[dict]) -> list[dict]:
    """For each of ``side``'s cards that can fire now, in the order ``legal`` lists them,
    its fire at the suggested target (one action of ``legal``)."""
    by_piece: dict[int, list[dict]] = {}
    for a in legal:
        if a.get("type") == "fire" and a.get("side") == side:
            by_piece.setdefault(int(a["piece"]), []).append(a)
    out = []
    for fires in by_piece.values():
        scored = [(-expected_hits(st, int(a["piece"]), int(a["target"])),
                   -st.pieces[int(a["target"])].hits, i) for i, a in enumerate(fires)]
        out.append(fires[min(scored)[2]])
    return out


def ordered_fire(st: State, side: str, legal: Sequence[dict], order: str | None,
                 board: str = "") -> dict | None:
    """The fire the standing ``order`` (a ``combat_key``) plays now for ``side``: the first
    suggested one while it is their move in that same Combat Phase (not a response window),
    or None."""
    if order is None or st.step != "main" or SIDES[st.priority] != side \
            or combat_key(st, side, board) != order:
        return None
    fires = suggested_fires(st, side, legal)
    return fires[0] if fires else None
