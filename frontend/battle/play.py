"""Playing on the board, the page's side (reads through ``battles.selectors`` only): the marks,
dice, log per turn and action keys of ``board_ux`` for the battle page, and the warning to
confirm before an action that can lose the battle (``warnings``)."""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Max
from django.utils.safestring import mark_safe

from battles import selectors
from battles.models import Battle
from battles.setup import engine_cards

from .board_svg import board_svg
from .board_ux import extras
from .warnings import WARNED, warning


def my_last_seq(battle: Battle, side: str) -> int | None:
    """The seq of my last action (who acted is public), None before my first."""
    return battle.actions.filter(side=side).aggregate(m=Max("seq"))["m"]


def add_board_ux(context: dict, battle: Battle, cards: Mapping | None = None) -> None:
    """Add the page's board interaction to ``views.battle_context``'s ``context`` (a battle
    with a position): the marked board, the dice, the log per turn, the action keys."""
    bv, side = context["bv"], context["side"]
    view = bv["view"]
    if view is None:
        return
    cards = cards if cards is not None else engine_cards(battle)
    ux = extras(bv, side, cards, context["sections"], context["log"],
                my_last_seq(battle, side))
    marked = (ux.pop("marked_pieces"), ux.pop("marked_places"))
    context.update(ux, marked_count=len(marked[0]),
                   board=mark_safe(board_svg(view, side, cards, marked=marked)))  # noqa: S308


def confirm_warning(battle: Battle, user, seq, action) -> str:
    """The warning to confirm before ``action`` (one of my legal actions at ``seq``), or ""
    (anything else goes to the service, which accepts or refuses it)."""
    if not isinstance(action, dict) or action.get("type") not in WARNED:
        return ""
    bv = selectors.battle_view(battle, user)
    if bv["view"] is None or seq != bv["seq"] or action not in bv["legal_actions"]:
        return ""
    return warning(bv["view"], bv["my_side"], action, engine_cards(battle))
