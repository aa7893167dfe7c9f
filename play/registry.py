"""The games the site offers: each kind of match, its pure game module and where its matches
are stored. An app offers a kind with a module ``<app>/kind.py`` holding ``KIND``, found when
Django starts (``autodiscover``); the service looks a kind up by name and never imports a
game's app, so a new game is a module, its tables, pages and bots, with no change here.

A ``MatchKind``'s hooks are the few things only the game's app knows: the card table a match
plays with, its state before the first action, the columns read from a state, the outcome it
stores, how a player's row is locked, its part of the live channel, the setup columns of its
export. Everything else (recording, the computer's turn, time, undo, expiry, replays and
export, the signals) is the service's, once (``play.turns``, ``play.undo``, ``play.clock``,
``play.replays``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .protocol import GameModule

# A stored match: a row of the kind's model (battles.Battle, campaigns.Campaign, ...). The
# service reads and sets only the fields every match model has (seats, seq, seed, state,
# to_move, status, outcome, clocks, paused_at, ...): typed Any, as Django's models are here.
Match = Any


@dataclass(frozen=True)
class MatchKind:
    game: GameModule
    model: Any  # the match's model: seats, seq, seed, state, clocks (battles.Battle, ...)
    action_model: Any  # one row per action: (match, seq) unique, side, action, events, auto
    match_field: str  # the action row's foreign key to its match ("battle", "campaign")
    cards: Callable[[Any], Any]  # the card table a match plays with (its own records)
    bot_cards: Callable[[Any], Any]  # what the computer may know of the cards
    setup: Callable[[Any], Any]  # the state before the first action, from the stored setup
    save_state: Callable[[Any, Any], list[str]]  # snapshot + columns read from it -> fields
    final_outcome: Callable[[Any, Any], dict]  # what is stored when the game decides the end
    on_finish: Callable[[Any, Any], list[str]]  # stop the clocks, clear columns -> fields
    noun: str  # "battle": what the service's messages call one match
    # (match, side) of ``user`` locked for update (``select_for_update``); NotFound unless
    # ``user`` plays it.
    lock: Callable[[Any, Any], tuple[Any, str]]
    # An end decided away from the board (time, resignation) -> the outcome stored.
    off_board_outcome: Callable[[Any, dict], dict] = lambda match, outcome: outcome
    # The live channel's hooks (``play.live.hooks.LiveHooks``) by dotted path, imported on
    # first use (they read the app's selectors, which import the kind); "": no sockets.
    live: str = ""
    # Its exports (``play.replays.export``): the setup columns that, with the seed and the
    # actions, rebuild a finished match (the game's own: a battle's decks, a campaign's
    # pools; the card records it played with), and the document's ``format`` ("": "<kind>/1").
    export_setup: Callable[[Any], dict] = lambda match: {}
    export_format: str = ""
    # A match with both players seated from the start (a tournament's game, ``play.seating``):
    # (french_user, allied_user, options) -> the new active match, created in the caller's
    # transaction; the options are the kind's own (a battle's scenario, decks, time control).
    # None: a tournament cannot seat this kind. Usually ``imported("app.module.function")``:
    # the app's creation code imports the kind, so the kind cannot import it.
    seat: Callable[[Any, Any, dict], Any] | None = None
    url_name: str = ""  # a match's page: reverse(url_name, args=[id]) ("": the kind's name)
    # The rating a rated result of this kind updates (``ratings``: one Glicko-2 rating per
    # player and pool): battles and campaigns "eagles", Stratego "stratego"; "": not rated.
    rating_pool: str = ""

    @property
    def kind(self) -> str:
        return self.game.kind

    @property
    def page(self) -> str:
        """The URL name of a match's page (``url_name``, else the kind's name); a kind with no
        page has none to reverse (``reverse`` raises ``NoReverseMatch``: callers guard)."""
        return self.url_name or self.kind


_kinds: dict[str, MatchKind] = {}


def register(kind: MatchKind) -> None:
    """Offer ``kind`` (idempotent for the same binding; a second binding of a name is a bug)."""
    known = _kinds.get(kind.kind)
    if known is not None and known is not kind:
        raise RuntimeError(f"the match kind {kind.kind!r} is registered twice")
    _kinds[kind.kind] = kind


def autodiscover() -> None:
    """Register the ``KIND`` of every installed app that has a ``kind`` module (as Django's
    admin finds ``admin`` modules), in ``INSTALLED_APPS`` order."""
    from django.apps import apps

    for config in apps.get_app_configs():
        name = f"{config.name}.kind"
        if importlib.util.find_spec(name) is not None:
            register(importlib.import_module(name).KIND)


def get(kind: str) -> MatchKind:
    """The registered ``kind``; ``LookupError`` for a kind the site does not offer."""
    try:
        return _kinds[kind]
    except KeyError:
        raise LookupError(f"no such game: {kind!r}") from None


def kinds() -> Iterator[MatchKind]:
    """Every registered kind, in registration order."""
    return iter(list(_kinds.values()))


def kind_of(match: Match) -> MatchKind:
    """The registered kind whose model ``match`` is a row of; ``LookupError`` otherwise."""
    for kind in list(_kinds.values()):
        if isinstance(match, kind.model):
            return kind
    raise LookupError(f"no kind of match stores {type(match).__name__} rows")


def page_url(kind: MatchKind | str, match_id: Any) -> str | None:
    """The page of match ``match_id`` of ``kind`` (``MatchKind.page`` reversed with its id), or
    None for a kind the site does not offer or one with no page (the toy game)."""
    from django.urls import NoReverseMatch, reverse

    try:
        found = get(kind) if isinstance(kind, str) else kind
        return reverse(found.page, args=[match_id])
    except (LookupError, NoReverseMatch):
        return None


def imported(path: str) -> Callable[..., Any]:
    """The function at dotted ``path``, imported on its first call (a kind's hook living in
    a module that imports the kind: ``seat``)."""
    def call(*args: Any, **kwargs: Any) -> Any:
        from django.utils.module_loading import import_string

        return import_string(path)(*args, **kwargs)

    call.__qualname__ = call.__name__ = f"imported({path!r})"
    return call
