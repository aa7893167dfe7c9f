"""Warnings before an action that can lose the battle (pure: the stdlib only).

4.3: a side wins at the instant its Infantry or Cavalry occupy one enemy Position unopposed
(an enemy General alone there dies when engaged, 12.4 NOTE; an engaged decoy is eliminated,
14.0). So a Position of mine left without a troop card (Infantry, Cavalry, Artillery) is one
enemy move from losing the battle, or lost at once when enemy cards already stand in it.
``warning(view, side, action, cards)`` says so before:

- a ``move`` of my last troop card out of one of my Positions (to the Reserve, or engaging);
- ``deployment_done`` while one of my Positions holds no troop card;
- a ``move`` of a General alone into a Position where enemy cards stand (either side's
  Position): "If Generals are alone in a Position and engaged, they are eliminated
  immediately" (12.4 NOTE), so he is lost at once.

``action_warnings(view, side, legal, cards)`` marks the warned actions of a list (the battle
view's ``warnings``: the API, the websocket); the battle page asks for confirmation with the
same text (``frontend/battle``). Only the player's own view (``battles.engine.view``) is read:
my own pieces' cards, and where enemy pieces stand; nothing hidden is used.

``cards`` maps a card number (int or its text) to an engine ``Card`` (``kind``) or a
catalogue record (``type``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game import TROOP_TYPES, other_side

WARNED = ("move", "deployment_done")  # the only actions that can be warned about
POS_NAMES = {"left": "Left", "center": "Centre", "right": "Right"}


def _kind(cards: Mapping | None, num: Any) -> str | None:
    if cards is None or num is None:
        return None
    try:
        c = cards.get(num)
        if c is None and not isinstance(num, str):
            c = cards.get(str(num))
    except TypeError:  # an unhashable "card" in a malformed view
        return None
    if c is None:
        return None
    return c.get("type") if isinstance(c, Mapping) else getattr(c, "kind", None)


def _my_positions(side: str) -> list[str]:
    return [f"{side}_{pos}" for pos in POS_NAMES]


def general_alone_message(place: str, side: str) -> str:
    """The warning for moving a General alone into ``place``, where enemy cards stand."""
    owner, pos = place.split("_", 1)
    whose = "your" if owner == side else "the enemy"
    return (f"This moves your General alone into {whose} {POS_NAMES[pos]}, where enemy cards "
            f"stand: a General alone in an engaged Position is eliminated at once (12.4 NOTE). "
            f"Confirm?")


def message(place: str, enemy_there: bool) -> str:
    """The warning for leaving ``place`` (one of my Positions) without a troop card."""
    name = POS_NAMES[place.split("_", 1)[1]]
    if enemy_there:
        return (f"This leaves your {name} without a troop card while enemy cards stand in it: "
                f"you lose the battle at once if enemy Infantry or Cavalry are left there "
                f"alone (4.3). Confirm?")
    return (f"This leaves your {name} without a troop card: you lose the battle at once if "
            f"the enemy moves Infantry or Cavalry into it unopposed (4.3). Confirm?")


class _Board:
    """My troop cards and the enemy's presence per Position of mine, read once."""

    def __init__(self, view: Mapping, side: str, cards: Mapping | None):
        self.side = side
        pieces = [p for p in view.get("pieces") or () if isinstance(p, Mapping)
                  and "piece" in p]
        self.pieces = {p["piece"]: p for p in pieces}
        self.cards = cards
        mine = set(_my_positions(side))
        positions = mine | set(_my_positions(other_side(side)))
        # my troop cards and the enemy's presence in every Position (both sides')
        self.troops: dict[str, set] = {place: set() for place in positions}
        self.enemy: set[str] = set()
        for p in pieces:
            place = p.get("place")
            if place not in positions:
                continue
            if p.get("side") == side:
                if self.is_troop(p, cards):
                    self.troops[place].add(p["piece"])
            elif "controlled_by" not in p:
                self.enemy.add(place)
        self.mine = mine

    def is_troop(self, p: Mapping, cards: Mapping | None) -> bool:
        # my own pieces only: their cards are in my view, face up or not
        return p.get("side") == self.side and _kind(cards, p.get("card")) in TROOP_TYPES

    def warning(self, action: Mapping) -> str:
        kind = action.get("type")
        if kind == "move":
            p = self.pieces.get(action.get("piece"))
            if p is None or p.get("side") != self.side:
                return ""
            place, to = p.get("place"), action.get("to")
            if to == place:
                return ""
            if place in self.mine and self.troops[place] == {p["piece"]}:
                return message(str(place), place in self.enemy)  # the last troop card leaves
            if (to in self.enemy and not self.troops[to] and "pieces" not in action
                    and _kind(self.cards, p.get("card")) == "general"):
                return general_alone_message(str(to), self.side)
            return ""
        if kind == "deployment_done":
            for place in _my_positions(self.side):
                if not self.troops[place]:
                    return message(place, place in self.enemy)
        return ""


def warning(view: Mapping | None, side: str, action: Mapping | None,
            cards: Mapping | None = None) -> str:
    """The warning to confirm before ``action`` (one of ``side``'s legal actions), or ""."""
    if not view or not isinstance(action, Mapping) or action.get("type") not in WARNED:
        return ""
    return _Board(view, side, cards).warning(action)


def action_warnings(view: Mapping | None, side: str, legal: Sequence[Mapping],
                    cards: Mapping | None = None) -> list[dict]:
    """``[{"index": i, "warning": text}]`` for each action of ``legal`` (``side``'s legal
    actions, in order) that would leave one of ``side``'s Positions without a troop card."""
    if not view or not any(isinstance(a, Mapping) and a.get("type") in WARNED for a in legal):
        return []
    board = _Board(view, side, cards)
    out = []
    for i, action in enumerate(legal):
        if isinstance(action, Mapping) and action.get("type") in WARNED:
            text = board.warning(action)
            if text:
                out.append({"index": i, "warning": text})
    return out
