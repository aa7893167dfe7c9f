"""The Standard and Expert games' own controls on a Stratego page (pure: the stdlib): the
manoeuvre hand drawn as cards (each playable one a button; a card played on a square, the
Fighting spirit or the Grand battery, is chosen first and its squares light up on the
board), the draft and the Prussians' two cards as card choices, and the Pursuit (the
cavalry set aside, each selectable; the pieces fleeing; the count).

Everything comes from the viewer's view and legal actions (``selectors.game_view``): the
opponent's hand is a count, its discards are named only once the rules show them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .words import card_name, piece_name, side_name, tile_name

# 001 §11, each card's sentence (what the card says, as the page shows it).
CARD_TEXT = {
    "reconnaissance": "Look at four adjoining pieces of your choice on the opponent's side.",
    "initiative": "Move three of your pieces in one single action.",
    "combined_attack": "Attack with three pieces, one infantry, one cavalry and one "
                       "artillery, in one single action.",
    "fighting_spirit": "Add 1 strength to one of your pieces (also in defence, when it is "
                       "attacked).",
    "grand_battery": "All adjoining artillery may fire once in a single action.",
}
CARD_TYPES = ("card", "draft", "take_cards")  # shown in the hand, not among the buttons


def _json(action: Mapping[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def _square_of_card(a: Mapping[str, Any]) -> Any:
    return a.get("square") or a.get("from")


def hand_context(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], side: str | None,
                 base: str, chosen: str | None) -> dict[str, Any] | None:
    """The manoeuvre cards as the viewer sees them (None in the Basic game): ``cards``, my
    hand, each with its text and, when it may be played now, ``play`` (the action's JSON:
    one button) or ``choose`` (a link that lights its squares on the board); ``draft`` and
    ``take``: the card choices of the draft and of the Prussians' arrival; the opponent's
    hand size and the cards played, face up."""
    cards = view.get("cards")
    if not isinstance(cards, Mapping):
        return None
    plays: dict[str, list[Mapping[str, Any]]] = {}
    for a in legal:
        if a.get("type") == "card":
            plays.setdefault(str(a.get("card")), []).append(a)
    hand = []
    for i, name in enumerate(cards.get("hand") or ()):
        entry: dict[str, Any] = {"key": name, "name": card_name(name),
                                 "text": CARD_TEXT.get(name, ""), "index": i,
                                 "chosen": chosen == name}
        options = plays.get(name) or []
        if options and not any(_square_of_card(a) for a in options):
            entry["play"] = _json(options[0])
        elif options and not any(h.get("key") == name and "choose" in h for h in hand):
            entry["choose"] = f"{base}?card={name}#board"
            entry["squares"] = len(options)
        hand.append(entry)
    enemy = [s for s in (cards.get("hand_count") or {}) if s != side]
    draft = [{"keep": card_name(a.get("keep")),
              "discard": card_name(a["discard"]) if a.get("discard") else "",
              "json": _json(a)} for a in legal if a.get("type") == "draft"]
    take = [{"cards": " and ".join(card_name(c) for c in a.get("cards") or ()),
             "json": _json(a)} for a in legal if a.get("type") == "take_cards"]
    played = {s: [card_name(c) for c in v] for s, v in (cards.get("played") or {}).items()}
    in_play = view.get("card_in_play") or None
    return {
        "hand": hand, "mine": side is not None,
        "enemy_count": sum((cards.get("hand_count") or {}).get(s, 0) for s in enemy),
        "pile": [card_name(c) for c in cards.get("pile") or ()] if draft else [],
        "draft": draft, "take": take, "played": played,
        "in_play": {"name": card_name(in_play.get("card")), "steps": in_play.get("steps"),
                    "mine": in_play.get("side") == side} if in_play else None,
        "discards": {s: [card_name(c) for c in v]
                     for s, v in (cards.get("discards") or {}).items()},
    }


def card_targets(legal: Sequence[Mapping[str, Any]], chosen: str | None
                 ) -> list[tuple[tuple[int, int], Mapping[str, Any]]]:
    """The squares a chosen card may be played on (Fighting spirit: a piece of mine; Grand
    battery: a battery's artillery), each with its action."""
    out = []
    for a in legal:
        sq = _square_of_card(a)
        if a.get("type") == "card" and a.get("card") == chosen and isinstance(sq, list) \
                and len(sq) == 2:
            out.append(((int(sq[0]), int(sq[1])), a))
    return out


def pursuit_context(view: Mapping[str, Any], side: str | None,
                    owners: Mapping[tuple[str, Any], Any], base: str,
                    selected: tuple[str, Any] | None) -> dict[str, Any] | None:
    """The Pursuit (Expert; None when there is none): each side's cavalry set aside by slot
    (mine by name, selectable when it may pursue or be saved; the enemy's by its back
    until revealed), the pieces saved, the count so far."""
    p = view.get("pursuit")
    if not isinstance(p, Mapping):
        return None
    rows = []
    for s in (p.get("victor"), p.get("defeated")):
        entries = []
        for e in (p.get("aside") or {}).get(s) or ():
            pid = e.get("id")
            pick = pid is not None and s == side and ("piece", str(pid)) in owners
            entries.append({"slot": e.get("slot"), "name": piece_name(e),
                            "url": f"{base}?sel=p-{pid}#board" if pick else "",
                            "selected": selected == ("piece", str(pid))})
        rows.append({"side": s, "victor": s == p.get("victor"), "aside": entries,
                     "saved": (p.get("saved") or {}).get(s, 0)})
    return {"rows": rows, "sector": p.get("sector"), "pursued": p.get("pursued"),
            "mine": side in (p.get("victor"), p.get("defeated"))}


def terrain_rows(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The terrain tiles in words (their state: hits, the flag, a ruin) and the mud."""
    out = []
    for t in view.get("terrain") or ():
        state = []
        if t.get("destroyed"):
            state.append("a ruin")
        elif "damage" in t:
            state.append(f"{t['damage']} of 4 hits")
        if t.get("owner"):
            state.append(f"the {side_name(t['owner'])} flag")
        if t.get("fortified_by"):
            state.append(f"fortified by the {side_name(t['fortified_by'])}")
        out.append({"name": tile_name(t.get("name")), "kind": t.get("kind"),
                    "state": ", ".join(state)})
    mud = (view.get("options") or {}).get("mud") or ()
    if mud:
        n = len(mud) // 4
        out.append({"name": "Mud", "kind": "mud",
                    "state": f"{n} tile{'s' if n != 1 else ''} of 2 x 2 squares: artillery "
                             "cannot move onto them"})
    return out
