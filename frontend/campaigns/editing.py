"""The campaign page's editors: the split editor (move each free card between the two
battles' decks, 16.0 "The French player splits their cards") and the undo notes.

The split editor needs no JavaScript: a form with one choice per free card, posted to
``campaign-split``; the counts and Battle Points per deck are drawn by the server for the
choice shown (``static/frontend/campaign-split.js`` recounts them as the player clicks).
Whatever is posted goes to ``services.act`` as one ``split`` action: the core accepts any
partition of the free cards and refuses anything else with its own precise message. The
core's proposals stay on the page as one-click buttons.

Only the player's own pool is read (``split_plan`` of their own side): nothing of the other
side's cards is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.campaign import split_plan
from config.errors import BadInput
from game import SIDE_NAMES

from .chart import NAMES

CARD_FIELD = "card-"


def _name(b: str) -> str:
    return NAMES.get(b, b.replace("-", " ").title())


def split_context(core, side: str | None, legal: list[Mapping], cards,
                  posted: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The editor's rows and per-deck totals when ``side`` must split now (else None).
    ``posted``: the choice the player sent (shown again after a refusal); by default the
    first of the core's proposals."""
    proposals = [a for a in legal if a.get("type") == "split"]
    if core is None or side is None or not proposals:
        return None
    battles = list(proposals[0]["decks"])
    free, forced = split_plan(core, side)
    default = {n: b for b, nums in proposals[0]["decks"].items() for n in nums}
    chosen: dict[int, str] = {}
    for n in free:
        raw = (posted or {}).get(f"{CARD_FIELD}{n}")
        chosen[n] = raw if raw in battles else default.get(n, battles[0])
    rows = [{"number": n, "name": cards[n].name, "kind": cards[n].kind, "bp": cards[n].bp,
             "field": f"{CARD_FIELD}{n}",
             "choices": [{"battle": b, "name": _name(b), "checked": chosen[n] == b}
                         for b in battles]}
            for n in sorted(free, key=lambda n: (cards[n].army, cards[n].kind, n))]
    decks = []
    for b in battles:
        mine = [n for n in free if chosen[n] == b] + list(forced.get(b, ()))
        decks.append({"battle": b, "name": _name(b), "count": len(mine),
                      "bp": sum(cards[n].bp for n in mine),
                      "forced": [{"name": cards[n].name, "bp": cards[n].bp}
                                 for n in forced.get(b, ())],
                      "forced_bp": sum(cards[n].bp for n in forced.get(b, ())),
                      "forced_count": len(forced.get(b, ()))})
    return {"rows": rows, "decks": decks, "side_name": SIDE_NAMES.get(side, side)}


def split_action(side: str, battles: list[str], free: list[int],
                 posted: Mapping[str, str]) -> dict[str, Any]:
    """The ``split`` action a posted editor form stands for. Each free card goes to the
    battle chosen for it; a card posted with no or an unknown battle is refused here, naming
    it, and everything else (a card missing, one that is not free) by the core."""
    decks: dict[str, list[int]] = {b: [] for b in battles}
    for n in free:
        raw = posted.get(f"{CARD_FIELD}{n}")
        if raw is None:
            continue  # missing: the core names it
        if raw not in decks:
            raise BadInput(f"card {n}: choose one of {', '.join(_name(b) for b in battles)} "
                           f"for it, not {raw!r}", field=f"{CARD_FIELD}{n}")
        decks[raw].append(n)
    for key, raw in posted.items():  # a card that is not one of the free cards
        number = key[len(CARD_FIELD):] if key.startswith(CARD_FIELD) else ""
        if number.isascii() and number.isdigit() and len(number) < 10 \
                and int(number) not in free and raw in decks:
            decks[raw].append(int(number))
    return {"type": "split", "side": side, "decks": decks}


def undo_notes(log: list[Mapping], side: str | None, limit: int = 3) -> list[str]:
    """The last undos as the viewer may read them: only that an action was taken back."""
    out = []
    for e in log:
        if e.get("type") != "undone":
            continue
        if e.get("side") == side:
            out.append(f"You took back your last action (#{e.get('undoes')}).")
        else:
            out.append(f"The {SIDE_NAMES.get(e.get('side'), '')} player took back their last "
                       f"action (#{e.get('undoes')}).")
    return out[-limit:]
