"""view(campaign, side) and the versioned JSON format (campaign.schema.json)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from battles.engine import SIDES, CardTable, IllegalAction, card_table
from battles.engine import from_json as board_from_json
from battles.engine import to_json as board_to_json
from battles.engine import view as board_view

from .core import VERSION, Campaign, can_retreat, to_move

FORMAT = "eagles-campaign"
VIEW_FORMAT = "eagles-campaign-view"


def _public_history(entry: dict, side: str | None) -> dict:
    if entry["type"] == "split" and entry["side"] != side:
        return {k: v for k, v in entry.items() if k != "decks"}
    return dict(entry)


def view(c: Campaign, side: str | None) -> dict[str, Any]:
    """What ``side`` may see (None: a spectator): every board through ``engine.view``; the
    other side's pool, set-aside cards, split and survivors as counts only. Eliminated cards
    are public (the engine shows each elimination)."""
    s = SIDES.index(side) if side is not None else None
    turn = to_move(c)

    def cards_or_count(i: int, nums: list[int]) -> dict[str, Any]:
        return {"cards": list(nums), "count": len(nums)} if i == s else {"count": len(nums)}

    decision = None
    if c.decision is not None:
        decision = {k: v for k, v in c.decision.items() if k != "cards"}
        decision["count"] = len(c.decision["cards"])
        if c.decision["side"] == side:
            decision["cards"] = list(c.decision["cards"])
    return {
        "format": VIEW_FORMAT,
        "version": VERSION,
        "viewer": side,
        "phase": c.phase,
        "step": c.step,
        "to_move": turn,
        "can_retreat": bool(turn and turn["board"] and side is not None and side == turn["side"]
                            and can_retreat(c, turn["board"], side)),
        "boards": {b: board_view(st, side) for b, st in c.boards.items()},
        "results": {b: dict(r) for b, r in c.results.items()},
        "pools": {SIDES[i]: cards_or_count(i, c.pools[i]) for i in (0, 1)},
        "set_aside": {SIDES[i]: cards_or_count(i, c.set_aside[i]) for i in (0, 1)},
        "eliminated": {SIDES[i]: list(c.eliminated[i]) for i in (0, 1)},
        "decision": decision,
        "history": [_public_history(h, side) for h in c.history],
        "winner": c.winner,
    }


def to_json(c: Campaign) -> dict[str, Any]:
    """The whole campaign, exactly (secret: for the server and saved games only)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": c.seed,
        "settings": dict(c.settings),
        "phase": c.phase,
        "step": c.step,
        "sequence": c.sequence,
        "boards": {b: board_to_json(st) for b, st in c.boards.items()},
        "fresh": dict(c.fresh),
        "results": {b: dict(r) for b, r in c.results.items()},
        "pools": {SIDES[i]: list(c.pools[i]) for i in (0, 1)},
        "eliminated": {SIDES[i]: list(c.eliminated[i]) for i in (0, 1)},
        "set_aside": {SIDES[i]: list(c.set_aside[i]) for i in (0, 1)},
        "splits": {side: {b: list(v) for b, v in d.items()} for side, d in c.splits.items()},
        "decision": dict(c.decision) if c.decision else None,
        "history": [dict(h) for h in c.history],
        "winner": c.winner,
    }


def from_json(doc: Mapping[str, Any],
              cards: CardTable | Iterable[Mapping[str, Any]] | None = None) -> Campaign:
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT or \
            doc.get("version") != VERSION:
        raise IllegalAction(f"not an {FORMAT} v{VERSION} document")
    table = card_table(cards)
    c = Campaign.__new__(Campaign)
    c.cards = table
    c.seed = str(doc["seed"])
    c.settings = dict(doc["settings"])
    c.phase, c.step, c.sequence = doc["phase"], doc["step"], int(doc["sequence"])
    c.boards = {b: board_from_json(d, table) for b, d in doc["boards"].items()}
    c.fresh = {b: bool(v) for b, v in doc["fresh"].items()}
    c.results = {b: dict(r) for b, r in doc["results"].items()}
    c.pools = [list(doc["pools"][side]) for side in SIDES]
    c.eliminated = [list(doc["eliminated"][side]) for side in SIDES]
    c.set_aside = [list(doc["set_aside"][side]) for side in SIDES]
    c.splits = {side: {b: list(v) for b, v in d.items()} for side, d in doc["splits"].items()}
    c.decision = dict(doc["decision"]) if doc["decision"] else None
    c.history = [dict(h) for h in doc["history"]]
    c.winner = doc["winner"]
    if c.phase not in ("first", "second", "charleroi", "over"):
        raise IllegalAction(f"unknown campaign phase {c.phase!r}")
    return c
