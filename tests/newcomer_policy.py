"""A scripted newcomer who has just finished the tutorial (battles/tutorial.py): what it
taught, as a policy over the legal actions of a battle: deploy a card in each Position,
then fire whenever a card can, engage the enemy with infantry or cavalry, bring troops on
from the Reserve, and otherwise roll, pass and end the phase or turn. Pure: the tests use it
both over the service (to pick a seed) and in the browser (to pick which button to click)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine import load_cards
from cards.catalogue.file import catalogue_records

CARDS = load_cards(catalogue_records())
TROOPS = ("infantry", "cavalry")


def _kind(view: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    num = action.get("card")
    if num is None:
        for p in view.get("pieces") or ():
            if p.get("piece") == action.get("piece"):
                num = p.get("card")
    return CARDS[num].kind if isinstance(num, int) and num in CARDS else ""


def _mine_at(view: Mapping[str, Any], place: str, side: str) -> int:
    return sum(1 for p in view.get("pieces") or ()
               if p.get("place") == place and p.get("side") == side)


def choose(legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> Mapping[str, Any]:
    side = str(legal[0]["side"])
    enemy = "allied" if side == "french" else "french"
    by_type: dict[str, list[Mapping[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(str(a["type"]), []).append(a)
    if "deploy" in by_type or "deployment_done" in by_type:
        plain = [a for a in by_type.get("deploy", ()) if "formation" not in a
                 and _kind(view, a) in (*TROOPS, "artillery")]
        empty = [a for a in plain if _mine_at(view, str(a["to"]), side) == 0]
        if empty:
            return empty[0]
        return by_type.get("deployment_done", plain)[0]
    for kind in ("roll_morale", "pass"):
        if kind in by_type:
            return by_type[kind][0]
    for kind in ("shock", "fire"):
        if kind in by_type:
            return by_type[kind][0]
    engage = [a for a in by_type.get("move", ()) if str(a.get("to", "")).startswith(enemy)
              and a.get("formation", "line") == "line" and _kind(view, a) in TROOPS
              and "piece" in a]
    if engage:
        return engage[0]
    enter = [a for a in by_type.get("move", ()) if "card" in a and _kind(view, a) in TROOPS
             and str(a.get("to", "")).startswith(side) and a.get("formation", "line") == "line"
             and _mine_at(view, str(a["to"]), side) < 2]
    if enter:
        return enter[0]
    for kind in ("end_phase", "end_turn"):
        if kind in by_type:
            return by_type[kind][0]
    return legal[0]


# The Campaign Game (16.0): the same newcomer on two boards. A split or a keep: the first one
# offered (the site's suggestion); never a Retreat (it concedes the battle).
CAMPAIGN_FIRST = ("split", "keep")


def choose_campaign(legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any]
                    ) -> Mapping[str, Any]:
    for kind in CAMPAIGN_FIRST:
        offered = [a for a in legal if a["type"] == kind]
        if offered:
            return offered[0]
    fighting = [a for a in legal if a["type"] != "retreat"] or list(legal)
    board = fighting[0].get("board")
    boards = view.get("boards") or {}
    return choose(fighting, boards.get(board) or {})
