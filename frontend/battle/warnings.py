"""Warnings before an action that can lose the battle (pure: the stdlib and ``game``).

4.3: a side wins at the instant its Infantry or Cavalry occupy one enemy Position unopposed
(an enemy General alone there dies when engaged, 12.4 NOTE; an engaged decoy is eliminated,
14.0). So a Position of mine left without a troop card (Infantry, Cavalry, Artillery) is one
enemy move from losing the battle, or lost at once when enemy cards already stand in it.
``warning(view, side, action, cards)`` says so before:

- a ``move`` of my last troop card out of one of my Positions (to the Reserve, or engaging);
- ``deployment_done`` while one of my Positions holds no troop card.

Only the viewer's own view is read (``battles.engine.view``): nothing hidden is used.
"""

from __future__ import annotations

from collections.abc import Mapping

from .view_context import POS_NAMES, Ctx

TROOPS = ("infantry", "cavalry", "artillery")
WARNED = ("move", "deployment_done")  # the only actions that can be warned about


def _is_troop(p: Mapping, ctx: Ctx) -> bool:
    info = ctx.info(ctx.card_of(p))
    return info is not None and info.kind in TROOPS


def _my_positions(side: str) -> list[str]:
    return [f"{side}_{pos}" for pos in POS_NAMES]


def _message(place: str, enemy_there: bool) -> str:
    name = POS_NAMES[place.split("_", 1)[1]]
    if enemy_there:
        return (f"This leaves your {name} without a troop card while enemy cards stand in it: "
                f"you lose the battle at once if enemy Infantry or Cavalry are left there "
                f"alone (4.3). Confirm?")
    return (f"This leaves your {name} without a troop card: you lose the battle at once if "
            f"the enemy moves Infantry or Cavalry into it unopposed (4.3). Confirm?")


def warning(view: Mapping | None, side: str, action: Mapping | None,
            cards: Mapping | None = None) -> str:
    """The warning to confirm before ``action`` (one of ``side``'s legal actions), or ""."""
    if not view or not isinstance(action, Mapping):
        return ""
    ctx = Ctx(view, cards, viewer=side)
    pieces = list(ctx.pieces.values())

    def troops_at(place: str, without=None) -> list[Mapping]:
        return [p for p in pieces if p.get("place") == place and p.get("side") == side
                and p.get("piece") != without and _is_troop(p, ctx)]

    def enemy_at(place: str) -> bool:
        return any(p.get("place") == place and p.get("side") != side
                   and "controlled_by" not in p for p in pieces)

    kind = action.get("type")
    if kind == "move" and "piece" in action:
        p = ctx.pieces.get(action["piece"])
        if p is None or p.get("side") != side:
            return ""
        place = str(p.get("place"))
        if place not in _my_positions(side) or action.get("to") == place:
            return ""
        if _is_troop(p, ctx) and not troops_at(place, without=p.get("piece")):
            return _message(place, enemy_at(place))
        return ""
    if kind == "deployment_done":
        for place in _my_positions(side):
            if not troops_at(place):
                return _message(place, enemy_at(place))
    return ""
