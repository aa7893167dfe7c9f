"""What one viewer of a battle receives over the socket, built from the selectors only.

A player gets ``selectors.battle_view`` (their side's view, their legal actions, the log
filtered for their side), a spectator ``selectors.spectator_view`` (nobody's side); the log
is sent as ``events`` (only the actions after ``since``). Every message is built for its own
viewer: nothing built for one viewer is ever sent to another.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles import cardcache, presence, selectors
from battles.errors import NotFound
from battles.models import Battle

GROUP = "battle.{}"


def group_name(battle_id: int) -> str:
    return GROUP.format(battle_id)


@dataclass(frozen=True)
class Viewer:
    """Who is connected: ``user`` plays ``side``, or (side None) watches."""

    battle_id: int
    user: object
    side: str | None


def viewer_for(user, battle_id) -> Viewer:
    """The viewer ``user`` is in battle ``battle_id``: a player (their side) or, for a
    public battle, a spectator. ``NotFound`` for a private battle they do not play (or none)."""
    battle = selectors.watchable(user, battle_id)
    return Viewer(battle.pk, user, selectors.side_of(battle, user))


def current(battle_id: int) -> tuple[int, str] | None:
    """The battle's ``(seq, status)``: one cheap query (the safety-net check)."""
    return Battle.objects.filter(pk=battle_id).values_list("seq", "status").first()


def present(viewer: Viewer) -> bool:
    """A player's open socket counts as being at the battle (``presence.touch``: at most one
    write every ``TOUCH_EVERY`` s), so a player thinking with the page open cannot be claimed
    against as absent. Spectators are nobody's presence."""
    if viewer.side is None:
        return False
    battle = Battle.objects.filter(pk=viewer.battle_id).only("id", "status", "seen").first()
    return battle is not None and presence.touch(battle, viewer.side)


def battle_message(viewer: Viewer, since: int) -> dict:
    """``{"type": "battle", "seq", "status", "events": [after since], ...the viewer's view}``."""
    battle = Battle.objects.filter(pk=viewer.battle_id).select_related(
        "french_player", "allied_player", "invited").defer(*cardcache.DEFERRED).first()
    if battle is None:
        raise NotFound("no such battle")
    if viewer.side is None:
        data = selectors.spectator_view(battle, since=since)
    else:
        data = selectors.battle_view(battle, viewer.user, since=since)
    events = data.pop("log")
    return {"type": "battle", **data, "since": since, "events": events}
