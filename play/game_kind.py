"""A kind bound from a game module and its two tables, for a game whose app is only its rules
(La Belle Alliance's and Stratego's ``kind.py``): the hooks such a kind takes as they are
(the position read back, the game's own end, an end away from the board keeping the turn,
one clock per side stopped at the end, the row lock), once here rather than once per game.
The kind still says what is its own: the card table, the setup, the columns read from a
position, its export, its live hooks, its tournament seat. The EAGLES kinds (``battles``,
``campaigns``) keep hooks of their own (a battle's decks, a campaign's boards)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import clock
from .protocol import GameModule
from .registry import MatchKind
from .seats import locker


def stored_state(game: GameModule, cards: Callable[[Any], Any]
                 ) -> Callable[[Any], Any | None]:
    """``state_of(match)``: the position the match row keeps (``state``, the module's
    ``to_json``) read back with the match's card table; None before the start."""
    def state_of(match: Any) -> Any | None:
        if match.state is None:
            return None
        return game.from_json(match.state, cards(match))
    return state_of


def keep_turn(match: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    """An end by resignation, time or absence keeps the turn it came at."""
    return {**outcome, "turn": match.turn}


def stop_clocks(match: Any, now: Any) -> list[str]:
    """At the end: both clocks stopped where the last position left them."""
    return list(clock.stop(match, now))


def game_kind(game: GameModule, model: Any, action_model: Any, *,
              cards: Callable[[Any], Any], setup: Callable[[Any], Any],
              save_state: Callable[[Any, Any], list[str]], noun: str,
              **own: Any) -> MatchKind:
    """The ``MatchKind`` of ``game`` on ``model`` (its actions in ``action_model``, by a
    ``match`` foreign key): the computer knows what the players know of the cards (every
    card table these games hand over is public), the stored end is the module's
    ``outcome``, an end away from the board keeps the turn (``keep_turn``), the clocks stop
    at the end (``stop_clocks``), the row lock is ``seats.locker``'s. ``own``: the rest of
    ``MatchKind``'s fields (``live``, ``export_setup``, ``seat``, ...)."""
    return MatchKind(
        game=game, model=model, action_model=action_model, match_field="match", cards=cards,
        bot_cards=cards, setup=setup, save_state=save_state,
        final_outcome=lambda match, st: game.outcome(st) or {}, on_finish=stop_clocks,
        noun=noun, lock=locker(model, noun), off_board_outcome=keep_turn, **own)
