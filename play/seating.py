"""Seating a match, any kind: two people at the board from the start, no waiting seat, no
invitation (a tournament's game, when its round is paired).

``seat(kind_name, french_user, allied_user, **options)`` asks the kind's ``seat`` hook
(``registry.MatchKind.seat``) for the new active match; the options are the kind's own (a
battle: its scenario, scale, each side's deck choice, time control, ...:
``battles.seated.create_seated_battle``). It runs in the caller's transaction when there is
one (a round's matches: all of them or none). A kind the site does not offer, or one with no
``seat`` hook, is refused with a ``BadInput`` naming it.
"""

from __future__ import annotations

from typing import Any

from config.errors import BadInput

from . import registry
from .registry import Match


def can_seat(kind_name: str) -> bool:
    """Whether a tournament can seat matches of ``kind_name``."""
    try:
        return registry.get(kind_name).seat is not None
    except LookupError:
        return False


def seat(kind_name: str, french_user: Any, allied_user: Any, **options: Any) -> Match:
    """A new active match of ``kind_name``, ``french_user`` on the French side and
    ``allied_user`` on the Allied side (see the module)."""
    try:
        kind = registry.get(kind_name)
    except LookupError:
        raise BadInput(f"no such game: {str(kind_name)[:40]!r}: nothing can be seated") \
            from None
    if kind.seat is None:
        raise BadInput(f"a {kind.noun} cannot be seated by a tournament: the {kind.kind!r} "
                       "game has no seating (MatchKind.seat)")
    return kind.seat(french_user, allied_user, dict(options))
