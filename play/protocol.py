"""What a game module gives the game service: one small, typed protocol (pure, no Django).

The service stores a match as its setup plus an append-only list of actions; it hands the
module the state, an action and that action's dice, and asks it who moves, what each viewer
may see and whether the game is over. It never reads a state itself.

A module's ``dice(seed, seq)`` and ``bot_rng(seed, seq)`` are its own so that the stored
matches of a game replay exactly (the EAGLES battle and campaign seed their streams
differently, and every stored match depends on it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

Action = dict[str, Any]
Event = dict[str, Any]


@runtime_checkable
class Bot(Protocol):
    """A computer player: chooses one of ``legal`` from what its side may see."""

    needs_view: bool

    def choose(self, view: dict[str, Any] | None, legal: list[Action], rng: random.Random
               ) -> Action: ...


@runtime_checkable
class GameModule(Protocol):
    """A game's rules, as the service uses them. ``State`` is the module's own type."""

    kind: str  # the registry's key and the URL's: "battle", "campaign", ...
    title: str  # what a person calls it: "EAGLES battle"
    sides: tuple[str, ...]
    # Actions that end a phase or a turn: the computer falls back on them when it has made
    # too many actions in a row (a guard against a loop, never a rule).
    ending_actions: frozenset[str]
    IllegalAction: type[Exception]  # what ``apply`` raises for an action that is not legal

    def setup(self, seed: int, options: Mapping[str, Any], cards: Any) -> Any:
        """The state before the first action; ``cards``: the game's data, handed in."""

    def legal_actions(self, state: Any, side: str) -> list[Action]:
        """What ``side`` may do now ([] when it is not its move)."""

    def apply(self, state: Any, action: Action, dice: Iterable[int],
              legal: list[Action] | None = None, check: bool = True) -> list[Event]:
        """Play ``action`` on ``state`` (in place) and return every event, unfiltered, as
        it is to be stored. Raises the module's ``IllegalAction`` (a ``ValueError``) and
        changes nothing when the action is not legal. ``legal``: this position's
        ``legal_actions`` when the caller has listed them already (listing is costly);
        ``check`` False: a recorded action replayed (its events are compared instead)."""

    def normalise_action(self, action: Action, side: str) -> Action:
        """A player's ``action`` as the module checks and stores it (e.g. with its side)."""

    def forced_action(self, legal: list[Action], always_ask: bool) -> Action | None:
        """The action to play for a person who has no real choice among ``legal`` (a lone
        pass, unless they asked to be asked: ``always_ask``), or None: they choose."""

    def to_move(self, state: Any) -> str | None:
        """The side that must act now; None once the game is over."""

    def outcome(self, state: Any) -> dict[str, Any] | None:
        """None while the game runs; else at least ``{"winner": side or None, "reason"}``."""

    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """What ``viewer`` (a side, or None: a spectator) may see: the only way a state
        leaves the service towards a person."""

    def events_for(self, events: Sequence[Event], viewer: str | None) -> list[Event]:
        """``events`` as ``viewer`` may see them."""

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, doc: Mapping[str, Any], cards: Any) -> Any: ...

    def turns_ended(self, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                    ) -> list[str]:
        """The sides whose turn ended between two positions (``to_json``'s), one entry per
        turn ended: each gets a live clock's increment (``play.clock``)."""

    def undo_turn_refusal(self, doc: Mapping[str, Any], side: str) -> str | None:
        """Why ``side``, to move in the position ``doc`` (``to_json``'s), may not take an
        action back now (it is not its own turn), or None."""

    def undo_refusal(self, action: Action, events: Sequence[Event], side: str,
                     known: set[int] | None, doc: Mapping[str, Any]) -> str | None:
        """Why ``side``'s last ``action`` (with these events; ``doc`` the position now)
        closes its undo window (a die, a reveal, a draw, a decision, a card shown to the
        opponent for the first time), or None if it may be taken back. ``known``: the cards
        the opponent had been shown before (None: count every card shown as new)."""

    def shown_cards(self, events: Sequence[Event], viewer: str) -> set[int]:
        """The cards these events name to ``viewer``."""

    def dice(self, seed: int, seq: int) -> Iterable[int]:
        """The dice of action number ``seq``: fixed by the match's secret seed and ``seq``."""

    def bot_rng(self, seed: int, seq: int) -> random.Random:
        """The computer's tie-breaks for action number ``seq``."""

    def bot(self, name: str, cards: Any) -> Bot:
        """The computer player ``name`` (one of the game's bot names) for this game."""


class Replays(Protocol):
    """What a game module MAY add for the replays of its finished matches (``play.replays``);
    each member is optional, looked up on the module (``getattr``), with the default said.
    Not part of ``GameModule``'s check: a game without them replays all the same."""

    def revealed_view(self, state: Any) -> dict[str, Any]:
        """The position with every card shown (the match is over, its seed public): the
        replay's ``all`` viewpoint. Default: the spectator's ``view(state, None)``."""

    def copy_state(self, state: Any) -> Any:
        """An independent copy of ``state`` (a replay keeps the position after each step).
        Default: ``copy.deepcopy``."""

    def turn_of(self, state: Any) -> int | None:
        """The game's turn in ``state``, for a replay's list of turns. Default: None."""


class Batches(Protocol):
    """What a game module MAY add (looked up with ``getattr``) for ``turns.act_many`` and
    the lone end a player asked to have played for them (``autoplay``)."""

    # The action types that may be sent together in one submit (EAGLES: a deployment).
    batch_actions: frozenset[str]
    # The actions ending one's own phase or turn, played for a player who asked
    # (``accounts.Preferences.end_for_me``) when one is their lone action.
    own_endings: frozenset[str]

    def name_action(self, action: Action, cards: Any) -> str:
        """An action as a refusal names it (a card's name, where it goes)."""


class FireOrders(Protocol):
    """What a game module MAY add for a standing order to fire (EAGLES: "Fire with every
    ready card (each at its suggested target)", ``play.passing.fire_order``), kept as
    ``Match.pass_choices[side]["fire"]`` and played through ``chosen_action`` (reason
    "order"). Optional, looked up with ``getattr``."""

    def fire_order_key(self, state: Any, side: str) -> str | None:
        """A key naming ``side``'s own Combat Phase now (a later one has another key), or
        None when it is not theirs."""

    def suggested_fires(self, state: Any, side: str, legal: list[Action]) -> list[Action]:
        """For each of ``side``'s cards that can fire, its fire at the suggested target (a
        rule read only from what ``side`` sees)."""


class PassChoices(Protocol):
    """What a game module MAY add so that a player's standing choices to pass are honoured
    (``Match.pass_choices[side]``, set by ``play.passing``; read by ``play.autoplay.extend``).
    Optional, looked up on the module (``getattr``): a game without them auto-plays only what
    ``forced_action`` forces. The module alone reads the choices; the service only stores
    them and records what they played as the player's own rows, flagged ``auto`` with the
    reason returned (``MatchAction.auto_reason``)."""

    # The kinds of response window a player may choose not to be asked in (its keys).
    response_kinds: tuple[str, ...]

    def response_kind(self, state: Any, side: str) -> str | None:
        """The kind of response window ``side`` must answer now (one of ``response_kinds``),
        or None: it is not a window a standing choice may pass."""

    def enemy_turn(self, state: Any, side: str) -> str | None:
        """A key naming the enemy turn in which ``side`` answers now (what "pass for the
        rest of this turn" covers: a later turn has another key), or None."""

    def chosen_action(self, state: Any, side: str, legal: list[Action],
                      choices: Mapping[str, Any]) -> tuple[Action, str] | None:
        """The action ``side``'s standing ``choices`` play for them now among ``legal`` and
        why (a short key, at most 16 characters: "turn", "skip:fire"), or None: they are asked."""
