"""Playing on the board, the page's side (reads through ``battles.selectors`` only): the marks,
log per turn and action keys of ``board_ux`` for the battle page, and the warning to confirm
before an action that can lose the battle (``warnings``)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.safestring import mark_safe

from battles import selectors
from battles.models import Battle
from battles.setup import cards_of
from frontend.play.frame import is_legal_now

from .board_svg import board_svg
from .board_ux import extras
from .warnings import WARNED, warning


def add_board_ux(context: dict, battle: Battle, cards: Mapping | None = None) -> None:
    """Add the page's board interaction to ``views.battle_context``'s ``context`` (a battle
    with a position): the marked board, the log per turn, the action keys."""
    bv, side = context["bv"], context["side"]
    view = bv["view"]
    if view is None:
        return
    cards = cards if cards is not None else cards_of(battle)
    ux = extras(bv, side, cards, context["sections"], context["log"], context["since"])
    marked = (ux.pop("marked_pieces"), ux.pop("marked_places"))
    context.update(ux, marked_count=len(marked[0]),
                   board=mark_safe(board_svg(view, side, cards, marked=marked)))  # noqa: S308


def confirm_warning(battle: Battle, user, seq, action) -> str:
    """The warning to confirm before ``action`` (one of my legal actions at ``seq``), or ""
    (anything else goes to the service, which accepts or refuses it)."""
    if not isinstance(action, dict) or action.get("type") not in WARNED:
        return ""
    bv = selectors.battle_view(battle, user)
    if bv["view"] is None or not is_legal_now(bv, seq, action):
        return ""
    return warning(bv["view"], bv["my_side"], action, cards_of(battle))
