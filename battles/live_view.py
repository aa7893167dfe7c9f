"""A battle's part of the live channel (``play/live/``; ``KIND.live`` names ``LIVE``): who may
look at a battle, what each viewer class sees of it, who may watch it, how a socket's player
acts, and the players' presence (``play/presence.py``: an open socket is being at the
battle).

A player gets ``selectors.side_view`` (their side's view, their legal actions, the log
filtered for their side), a spectator ``selectors.spectator_view`` (nobody's side: both
sides' face-down cards hidden, no legal actions, no deal, no user in it, so one text serves
every spectator); both from the change's ``Snapshot`` when the live channel has one.
"""

from __future__ import annotations

from play import presence
from play.live.hooks import LiveHooks

from . import selectors, services
from .models import Battle


def view(battle: Battle, side: str | None, since: int, snap=None) -> dict:
    """What ``side`` (None: a spectator) sees of ``battle``, its log after ``since``."""
    if side is None:
        return selectors.spectator_view(battle, since, snap)
    return selectors.side_view(battle, side,
                               snap if snap is not None else selectors.snapshot(battle, since))


def watched(battle: Battle) -> bool:
    """Whether anyone may be watching ``battle`` (``selectors.watchable``: public and
    started). A private battle's ``.watch`` group is always empty: no spectator's message.
    An upper bound: a public one's is built only if its group was not found empty at its
    last message (``play.live.watchers``)."""
    return battle.public and battle.status in selectors.WATCHABLE


LIVE = LiveHooks(
    find=lambda user, battle_id: selectors.watchable(user, battle_id),
    side_of=lambda battle, user: selectors.side_of(battle, user),
    view=view, watched=watched,
    act=lambda battle_id, user, seq, action: services.act(battle_id, user, seq, action),
    presence=presence.SOCKET)
