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


def choose(legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any],
           warned: Sequence[Mapping[str, Any]] = ()) -> Mapping[str, Any]:
    """The newcomer's choice among ``legal``; ``warned``: the actions the page marks as able
    to lose the battle (they are left alone while anything else is offered)."""
    side = str(legal[0]["side"])
    legal = [a for a in legal if a not in warned] or list(legal)
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


def choose_campaign(legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any],
                    warned: Sequence[Mapping[str, Any]] = ()) -> Mapping[str, Any]:
    for kind in CAMPAIGN_FIRST:
        offered = [a for a in legal if a["type"] == kind]
        if offered:
            return offered[0]
    fighting = [a for a in legal if a["type"] != "retreat"] or list(legal)
    board = fighting[0].get("board")
    boards = view.get("boards") or {}
    return choose(fighting, boards.get(board) or {}, warned)

# Issue 28's cut, and why it is still a plausible newcomer (not a trick on the measure):
# - Holding no answer they would play (the policy never plays a Special), a newcomer in the
#   enemy's turn asked "let the fire of X on Y go ahead?" ten times over takes the button
#   next to Pass that says what they want: "Pass for the rest of this enemy turn"
#   (play/passing.py). The next enemy turn asks again. (They do not untick the kinds of
#   window in "When to ask you to answer": measured below, SKIP_KINDS.)
# - A move the page marks as able to lose the battle (4.3, 12.4: its button's data-warn, a
#   confirmation before it) is left alone while anything else is offered: the old policy
#   confirmed every such warning, which no newcomer reading "you may lose the battle" does.
# - Everything else is as the tutorial taught: fire whenever a card can, engage with
#   infantry and cavalry, bring troops on from the Reserve, then end the phase and turn.
PASS_REST_OF_TURN = True
# - Deploying: the page's "Deploy several cards at once" form comes filled in with one troop
#   card in each empty Position, which is what the tutorial taught them to do card by card;
#   they press "Deploy these and end my deployment" (frontend/battle/deploy_form.py).
# - The first time ending the phase or turn is the only button left, they press the one next
#   to it that says what they want: "End it, and from now on end it for me when that is all
#   that is left" (Preferences.end_for_me); an end they could skip (moves still offered) stays
#   their click.
DEPLOY_FROM_ONE_FORM = True
END_FOR_ME = True
# - Firing: in a Combat Phase where two or more of their cards can fire, they press the
#   button beside the fire list, "Fire with every ready card (each at its suggested
#   target)" (play/passing.py: fire_order), once, instead of a fire button per card: the
#   tutorial's "fire whenever a card can", with the site's suggested target (the page marks
#   it) instead of the first one listed. A lone ready card is still one fire click.
# - Answering: the site's per-kind choice is a panel, not a button beside Pass: "When to ask
#   you to answer", open it, untick every kind, Save (six clicks), then pass the window
#   still open. Counted so (SKIP_KINDS = True: tests/newcomer_campaign.py), it does not pay:
#   six seeds 424 clicks against 419 with "Pass for the rest of this enemy turn" once per
#   enemy turn (bench/newcomer_clicks.py, 2026-11-28), so the newcomer keeps the button.
#   tests/test_newcomer_clicks.py plays the panel too, to keep the count honest.
#   So the page offers the per-kind choice as a button beside Pass too: "Pass, and do not
#   ask me about enemy moves into contact again" (play/passing.py: pass_and_skip_kind).
#   Holding no answer they would play, the newcomer takes it in each window they are asked
#   in (one click per kind of window, instead of one "Pass for the rest of this enemy turn"
#   per enemy turn).
FIRE_ORDER = True
SKIP_KINDS = False
PASS_KIND = True

