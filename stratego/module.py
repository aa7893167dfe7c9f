"""Stratego: Waterloo as a game module of the game service (``play.protocol.GameModule``).
Pure: no Django. ``setup`` options: ``variant`` ("basic", "standard", "expert"; ``mode`` is
its older name, still read), ``turn_cap`` (bots only: RULINGS R20), and for the Expert game
the scenarios ``early_start``, ``grouchy`` and ``battlefield`` (one's own: ``{"mud":
[[col, row], ...]}``, the mud tiles' lower-left squares, RULINGS R43) (001 §14);
``cards``: the piece table (``stratego.loader.load_pieces``)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from play.protocol import Bot, GameModule

from . import engine
from .engine.board import other
from .engine.pieces import PieceTable
from .loader import load_pieces
from .players import make_bot

# An action whose events hold one of these cannot be taken back (play/undo.py): a die, a
# reveal, a draw the player did not see before, the end of a turn, a deployment or the game.
CLOSING = {
    "combat": "it revealed pieces",
    "fire": "it revealed a piece",
    "prussians_arrive": "it brought on Prussians",
    "turn": "it ended your turn",
    "deployed": "it ended your deployment",
    "game_over": "it ended the game",
    "draw_offered": "it offered a draw",
    "draft": "it drafted a card",
    "take_cards": "it took cards",
    "look": "it looked at a piece",
    "asked": "it asked the other player",
    "card": "it played a card",
    "pursuit": "it began the Pursuit",
    "pursued": "it revealed pieces",
}


def dice_stream(seed: int, seq: int) -> Iterator[int]:
    """The battle die of action number ``seq``: faces 1-6 (combat.FACES), endless."""
    rng = random.Random(f"stratego-dice:{seed}:{seq}")
    while True:
        yield rng.randint(1, 6)


def table_of(cards: Any) -> PieceTable:
    return cards if isinstance(cards, PieceTable) else load_pieces()


class StrategoWaterloo:
    kind = "stratego"
    title = "Stratego: Waterloo"
    sides: tuple[str, ...] = engine.SIDES
    ending_actions = frozenset({"end_turn", "deploy", "end_card", "decline"})
    IllegalAction: type[Exception] = engine.IllegalAction

    def setup(self, seed: int, options: Mapping[str, Any], cards: Any) -> engine.State:
        variant = options.get("variant", options.get("mode", "basic"))
        scenarios = {k: options[k] for k in ("early_start", "grouchy", "battlefield")
                     if options.get(k)}
        return engine.new_game(seed, table_of(cards), variant, options.get("turn_cap"),
                               scenarios)

    def legal_actions(self, state: engine.State, side: str) -> list[dict[str, Any]]:
        return engine.legal_actions(state, side)

    def apply(self, state: engine.State, action: dict[str, Any], dice: Iterable[int],
              legal: list[dict[str, Any]] | None = None, check: bool = True
              ) -> list[dict[str, Any]]:
        return engine.apply(state, action, dice, legal=legal, check=check)

    def normalise_action(self, action: dict[str, Any], side: str) -> dict[str, Any]:
        return {**action, "side": side}

    def forced_action(self, legal: list[dict[str, Any]], always_ask: bool
                      ) -> dict[str, Any] | None:
        if len(legal) == 1 and legal[0]["type"] not in ("end_turn", "deploy"):
            return legal[0]
        return None

    def to_move(self, state: engine.State) -> str | None:
        return engine.to_move(state)

    def outcome(self, state: engine.State) -> dict[str, Any] | None:
        return None if state.outcome is None else dict(state.outcome)

    def view(self, state: engine.State, viewer: str | None) -> dict[str, Any]:
        return engine.view(state, viewer)

    def events_for(self, events: Sequence[dict[str, Any]], viewer: str | None
                   ) -> list[dict[str, Any]]:
        return engine.events_for(events, viewer)

    def to_json(self, state: engine.State) -> dict[str, Any]:
        return engine.to_json(state)

    def from_json(self, doc: Mapping[str, Any], cards: Any) -> engine.State:
        return engine.from_json(doc, table_of(cards))

    def turns_ended(self, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                    ) -> list[str]:
        """Each player's turn is one half-turn; set-up ends no turn."""
        if not before or not after or before.get("phase") != "play":
            return []
        out: list[str] = []
        side = str(before["active"])
        for _ in range(max(0, int(after["half"]) - int(before["half"]))):
            out.append(side)
            side = other(side)
        return out

    def undo_turn_refusal(self, doc: Mapping[str, Any], side: str) -> str | None:
        if doc.get("phase") == "over":
            return "it is not your turn"
        pending = doc.get("pending")
        mover = pending["for"] if pending else doc.get("active")
        return None if mover == side else "it is not your turn"

    def undo_refusal(self, action: dict[str, Any], events: Sequence[dict[str, Any]],
                     side: str, known: set[int] | None, doc: Mapping[str, Any]) -> str | None:
        for e in events:
            if "dice" in e:
                return "it rolled the battle die"
            if e.get("type") in CLOSING:
                return CLOSING[e["type"]]
        return None

    def shown_cards(self, events: Sequence[dict[str, Any]], viewer: str) -> set[int]:
        return set()  # manoeuvre cards have no numbers: the hands are in the view (cards)

    def dice(self, seed: int, seq: int) -> Iterator[int]:
        return dice_stream(seed, seq)

    def bot_rng(self, seed: int, seq: int) -> random.Random:
        return random.Random(f"stratego-bot:{seed}:{seq}")

    def bot(self, name: str, cards: Any) -> Bot:
        return make_bot(name, table_of(cards))


GAME = StrategoWaterloo()

# mypy checks here that the module is the service's protocol type.
AS_PROTOCOL: GameModule = GAME
