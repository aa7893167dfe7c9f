"""La Belle Alliance as a module of the game service (``play.protocol.GameModule``), pure.

``cards``: the ``engine.CardData`` the caller hands in (``belle_alliance.loader``); the module
reads no file. There is no hidden information: ``view`` and ``events_for`` show everything.
An action may be taken back until a die is rolled or the phase ends (``undo_refusal``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from play.protocol import GameModule

from . import engine
from .bots import get_bot

SIDES = engine.SIDES


def _dice(seed: int, seq: int) -> Iterator[int]:
    return engine.SeededDice(f"{seed}:{seq}")


def _phase_index(doc: Mapping[str, Any]) -> int | None:
    """Player phases played so far: two a turn, French then Allied."""
    if not doc or doc.get("turn") is None:
        return None
    return (int(doc["turn"]) - 1) * 2 + (0 if doc.get("phase") == "french" else 1)


class BelleAlliance:
    kind = "belle_alliance"
    title = "La Belle Alliance"
    sides: tuple[str, ...] = SIDES
    # every activation (and the pass when nothing else is legal) ends its player's phase
    ending_actions = frozenset({"act", "pass"})
    IllegalAction: type[Exception] = engine.IllegalAction

    def setup(self, seed: int, options: Mapping[str, Any], cards: Any) -> engine.State:
        return engine.new_game(cards)

    def legal_actions(self, state: engine.State, side: str) -> list[dict[str, Any]]:
        return engine.legal_actions(state, side)

    def apply(self, state: engine.State, action: dict[str, Any], dice: Iterable[int],
              legal: list[dict[str, Any]] | None = None, check: bool = True
              ) -> list[dict[str, Any]]:
        return engine.apply(state, action, dice, check=check, legal=legal)

    def normalise_action(self, action: dict[str, Any], side: str) -> dict[str, Any]:
        """A French activation without ``napoleon`` is one without him; "target" may be left
        out when the action has none."""
        if action.get("type") != "act":
            return dict(action)
        out = {"type": "act", "card": action.get("card"), "action": action.get("action"),
               "target": action.get("target")}
        if side == "french":
            out["napoleon"] = bool(action.get("napoleon", False))
        return out

    def forced_action(self, legal: list[dict[str, Any]], always_ask: bool
                      ) -> dict[str, Any] | None:
        if len(legal) != 1:
            return None
        if legal[0]["type"] == "pass" and always_ask:
            return None
        return legal[0]

    def to_move(self, state: engine.State) -> str | None:
        return state.to_move()

    def outcome(self, state: engine.State) -> dict[str, Any] | None:
        return engine.outcome(state)

    def view(self, state: engine.State, viewer: str | None) -> dict[str, Any]:
        return engine.view(state, viewer)

    def events_for(self, events: Sequence[dict[str, Any]], viewer: str | None
                   ) -> list[dict[str, Any]]:
        return engine.events_for(events, viewer)

    def to_json(self, state: engine.State) -> dict[str, Any]:
        return engine.to_json(state)

    def from_json(self, doc: Mapping[str, Any], cards: Any) -> engine.State:
        return engine.from_json(doc, cards)

    def turns_ended(self, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                    ) -> list[str]:
        """One entry per player phase ended (a phase is a player's turn)."""
        if not before or not after:
            return []
        old, new = _phase_index(before), _phase_index(after)
        if old is None or new is None:
            return []
        return [SIDES[i % 2] for i in range(old, new)]

    def undo_turn_refusal(self, doc: Mapping[str, Any], side: str) -> str | None:
        if doc.get("winner") is not None:
            return "the game is over"
        pending = doc.get("pending")
        to_move = pending["side"] if pending else doc.get("phase")
        return None if to_move == side else "it is not your turn"

    def undo_refusal(self, action: dict[str, Any], events: Sequence[dict[str, Any]],
                     side: str, known: set[int] | None, doc: Mapping[str, Any]) -> str | None:
        for e in events:
            if e.get("type") == "game_over":
                return "it ended the game"
            if "dice" in e:
                return "it rolled a die"
            if e.get("type") == "phase":
                return "it ended your phase"
        return None

    def shown_cards(self, events: Sequence[dict[str, Any]], viewer: str) -> set[int]:
        return set()  # every card is face up from the start

    def dice(self, seed: int, seq: int) -> Iterable[int]:
        return _dice(seed, seq)

    def bot_rng(self, seed: int, seq: int) -> random.Random:
        return random.Random(f"belle-alliance-bot:{seed}:{seq}")

    def bot(self, name: str, cards: Any) -> Any:
        return get_bot(name, cards)


GAME = BelleAlliance()
_CHECK: GameModule = GAME  # mypy: the module is the service's protocol type
