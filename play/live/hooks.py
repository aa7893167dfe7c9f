"""What a game's app tells the live channel about its matches: the few things only it knows
(``LiveHooks``). Everything else (the consumer, the groups, the frames, the messages of a
change built once, the safety net) is ``play.live``'s, once for every kind.

A kind names its hooks by dotted path in ``MatchKind.live`` (``"battles.live_view.LIVE"``):
they read the app's selectors and call its service, which import the kind, so the kind
cannot import them; ``hooks_of`` imports them when a socket or a change first needs them.
Pure: no Channels here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.module_loading import import_string

from play.registry import MatchKind


@dataclass(frozen=True)
class Presence:
    """A player's open socket counts as being at the match (a kind whose absence rules need
    it: ``play.presence.SOCKET``, for battles and campaigns)."""

    columns: tuple[str, ...]  # the row's columns ``touch`` reads (the poll reads them too)
    every: float  # a side's visit is written at most this often (seconds)
    # touch(row with pk, status and ``columns``, side, now=None) -> whether it wrote
    touch: Callable[..., bool]
    # touch_many([(row, side)], now=None) -> rows written: ``touch`` for many players in one
    # statement (the poller's round); None: ``touch`` for each
    touch_many: Callable[..., int] | None = None


@dataclass(frozen=True)
class LiveHooks:
    """One kind's part of its live messages.

    ``view(match, side, since, snap)`` is the kind's message body: what ``side`` (None: a
    spectator) may see of ``match``, with its log of the actions after ``since`` as ``"log"``
    and ``"my_side"``; from ``snap`` (``play.turns.Snapshot``: the position parsed once and
    the log rows after ``since``) when given, so that one change's messages read nothing
    more, else from its own reads. A side's view depends on the side only (never on which
    user plays it), a spectator's on nobody: one text serves a whole viewer class."""

    # (user, the id as the URL has it) -> the match; NotFound unless they may look at it
    find: Callable[[Any, Any], Any]
    side_of: Callable[[Any, Any], str | None]  # (match, user) -> the side they play, or None
    view: Callable[[Any, str | None, int, Any], dict]  # see above
    watched: Callable[[Any], bool]  # may anyone watch it now (else no spectators' text)
    act: Callable[[int, Any, Any, Any], Any]  # (match id, user, seq, action): the service's act
    deferred: tuple[str, ...] = ()  # columns a message never needs (large ones)
    presence: Presence | None = None


@cache
def _imported(path: str) -> LiveHooks:
    return import_string(path)


def hooks_of(kind: MatchKind) -> LiveHooks | None:
    """``kind``'s live hooks (None: its matches have no live channel)."""
    return _imported(kind.live) if kind.live else None


def live_hooks(kind: MatchKind) -> LiveHooks:
    """``kind``'s live hooks, for a kind known to have them (a socket is open on it)."""
    hooks = hooks_of(kind)
    if hooks is None:
        raise LookupError(f"{kind.kind} matches have no live channel")
    return hooks
