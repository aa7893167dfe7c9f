"""Race to ten, pure: on your turn roll a die as often as you like (a 1 loses what you rolled
this turn and ends it), hold to bank it and pass the turn, or taunt (no die, no end: a move
that may be taken back). First to bank or reach 10 wins. No hidden information but the die."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

SIDES = ("french", "allied")
GOAL = 10


class IllegalAction(ValueError):
    pass


def _dice(seed: int, seq: int) -> Iterator[int]:
    rng = random.Random(f"toy:{seed}:{seq}")
    while True:
        yield rng.randint(1, 6)


class CautiousBot:
    needs_view = True

    def choose(self, view: dict[str, Any] | None, legal: list[dict], rng: random.Random
               ) -> dict:
        assert view is not None
        wanted = "roll" if view["pending"] < 4 else "hold"
        return next(a for a in legal if a["type"] == wanted)


class RaceToTen:
    kind = "race"
    title = "Race to ten (a test game)"
    sides = SIDES
    ending_actions = frozenset({"hold"})
    IllegalAction = IllegalAction

    def setup(self, seed: int, options: Mapping[str, Any], cards: Any) -> dict:
        return {"to_move": SIDES[0], "banked": {s: 0 for s in SIDES}, "pending": 0,
                "turn": 1, "taunts": 0, "winner": None}

    def legal_actions(self, state: dict, side: str) -> list[dict]:
        if state["winner"] is not None or state["to_move"] != side:
            return []
        return [{"type": t, "side": side} for t in ("roll", "hold", "taunt")]

    def apply(self, state: dict, action: dict, dice: Iterable[int],
              legal: list[dict] | None = None, check: bool = True) -> list[dict]:
        side = state["to_move"]
        if action not in (legal if legal is not None else self.legal_actions(state, side)):
            raise IllegalAction(f"illegal action for {side}: {action!r}")
        events: list[dict] = []
        if action["type"] == "taunt":
            state["taunts"] += 1
            events.append({"type": "taunt", "side": side, "visibility": "all"})
            return events
        if action["type"] == "roll":
            die = next(iter(dice))
            events.append({"type": "rolled", "side": side, "dice": [die], "visibility": "all"})
            if die == 1:
                state["pending"] = 0
                self._pass(state, events)
                return events
            state["pending"] += die
            if state["banked"][side] + state["pending"] >= GOAL:
                self._win(state, side, events)
            return events
        state["banked"][side] += state["pending"]
        state["pending"] = 0
        if state["banked"][side] >= GOAL:
            self._win(state, side, events)
        else:
            self._pass(state, events)
        return events

    def _pass(self, state: dict, events: list[dict]) -> None:
        state["to_move"] = SIDES[1 - SIDES.index(state["to_move"])]
        state["turn"] += 1
        events.append({"type": "turn", "to": state["to_move"], "visibility": "all"})

    def _win(self, state: dict, side: str, events: list[dict]) -> None:
        state["winner"] = side
        events.append({"type": "race_over", "winner": side, "visibility": "all"})

    def normalise_action(self, action: dict, side: str) -> dict:
        return {**action, "side": side}

    def forced_action(self, legal: list[dict], always_ask: bool) -> dict | None:
        return None

    def to_move(self, state: dict) -> str | None:
        return None if state["winner"] is not None else state["to_move"]

    def outcome(self, state: dict) -> dict | None:
        return None if state["winner"] is None else {"winner": state["winner"],
                                                     "reason": "race"}

    def view(self, state: dict, viewer: str | None) -> dict[str, Any]:
        return {**state, "banked": dict(state["banked"]), "viewer": viewer}

    def events_for(self, events: Sequence[dict], viewer: str | None) -> list[dict]:
        return [dict(e) for e in events if e.get("visibility") in ("all", viewer)]

    def to_json(self, state: dict) -> dict[str, Any]:
        return {**state, "banked": dict(state["banked"])}

    def from_json(self, doc: Mapping[str, Any], cards: Any) -> dict:
        return {**doc, "banked": dict(doc["banked"])}

    def turns_ended(self, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                    ) -> list[str]:
        if not before or not after or after["turn"] <= before["turn"]:
            return []
        return [before["to_move"]]

    def undo_turn_refusal(self, doc: Mapping[str, Any], side: str) -> str | None:
        return None

    def undo_refusal(self, action: dict, events: Sequence[dict], side: str,
                     known: set[int] | None, doc: Mapping[str, Any]) -> str | None:
        if any("dice" in e for e in events):
            return "it rolled dice"
        if any(e.get("type") == "turn" for e in events):
            return "it ended your turn"
        return None

    def shown_cards(self, events: Sequence[dict], viewer: str) -> set[int]:
        return set()

    def dice(self, seed: int, seq: int) -> Iterator[int]:
        return _dice(seed, seq)

    def bot_rng(self, seed: int, seq: int) -> random.Random:
        return random.Random(f"toy-bot:{seed}:{seq}")

    def bot(self, name: str, cards: Any) -> CautiousBot:
        return CautiousBot()


GAME = RaceToTen()
