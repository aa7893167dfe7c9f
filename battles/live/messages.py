"""What one viewer of a battle receives over the socket, built from the selectors only.

A player gets ``selectors.battle_view`` (their side's view, their legal actions, the log
filtered for their side), a spectator ``selectors.spectator_view`` (nobody's side); the log
is sent as ``events`` (only the actions after ``since``). Every message is built for its own
viewer class and sent only to that class's group (``class_group``: ``battle.<id>.french``,
``.allied``, ``.watch``): nothing built for one side ever reaches the other side's sockets.

``change_messages`` builds each player's message of one change once (one read of the battle,
its position parsed once), in the process that committed the change, and the spectators' one
too when the battle can be watched: ``spectator_view`` depends on nobody's user (no "you",
no deal, no delay), so one text serves every spectator socket. The consumers of each class
forward its text as it is (``live.notify``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from battles import cardcache, presence, selectors
from battles.errors import NotFound
from battles.models import Battle
from game import SIDES

WATCH = "watch"  # the spectators' group suffix


def class_group(battle_id: int, side: str | None) -> str:
    """The group of one viewer class of a battle: its French player's sockets, its Allied
    player's, or its spectators' (side None)."""
    return f"battle.{battle_id}.{side or WATCH}"


def encode(message: dict) -> str:
    """A message as the socket sends it (compact JSON)."""
    return json.dumps(message, cls=DjangoJSONEncoder, separators=(",", ":"))


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


def current(battle_ids: list[int]) -> dict[int, tuple[int, str, dict | None]]:
    """Each battle's ``(seq, status, seen)``: one query for every battle with open sockets in
    this process (the safety-net check, ``live.poller``)."""
    return {pk: (seq, status, seen) for pk, seq, status, seen in
            Battle.objects.filter(pk__in=battle_ids).values_list("id", "seq", "status", "seen")}


def present(viewer: Viewer) -> bool:
    """A player's open socket counts as being at the battle (``presence.touch``: at most one
    write every ``TOUCH_EVERY`` s), so a player thinking with the page open cannot be claimed
    against as absent. Spectators are nobody's presence."""
    if viewer.side is None:
        return False
    battle = Battle.objects.filter(pk=viewer.battle_id).only("id", "status", "seen").first()
    return battle is not None and presence.touch(battle, viewer.side)


def present_many(due: list[tuple[int, str, str, dict | None]]) -> int:
    """``present`` for many players at once, from the poll's rows ``(battle id, side, status,
    seen)``: no read per socket, a write only where that side's last visit is old."""
    now = timezone.now()
    return sum(presence.touch(Battle(pk=pk, status=status, seen=seen), side, now)
               for pk, side, status, seen in due)


def _battle(battle_id: int) -> Battle | None:
    return Battle.objects.filter(pk=battle_id).select_related(
        "french_player", "allied_player", "invited").defer(*cardcache.DEFERRED).first()


def _message(data: dict, since: int) -> dict:
    events = data.pop("log")
    return {"type": "battle", **data, "since": since, "events": events}


def battle_message(viewer: Viewer, since: int) -> dict:
    """``{"type": "battle", "seq", "status", "events": [after since], ...the viewer's view}``."""
    battle = _battle(viewer.battle_id)
    if battle is None:
        raise NotFound("no such battle")
    if viewer.side is None:
        data = selectors.spectator_view(battle, since=since)
    else:
        data = selectors.battle_view(battle, viewer.user, since=since)
    return _message(data, since)


@dataclass(frozen=True)
class Change:
    """The messages of one change, built once: ``texts`` maps a side to its player's encoded
    message (only the sides a person plays) and None to the spectators' (only when the battle
    can be watched); each covers the actions after ``since`` up to ``seq``."""

    battle_id: int
    since: int
    seq: int
    status: str
    texts: dict[str | None, str]


def watched(battle: Battle) -> bool:
    """Whether anyone may be watching ``battle`` (``selectors.watchable``: public and
    started). A private battle's ``.watch`` group is always empty: no spectator's message."""
    return battle.public and battle.status in selectors.WATCHABLE


def change_messages(battle_id: int, since: int, battle: Battle | None = None,
                    snap: selectors.Snapshot | None = None) -> Change | None:
    """Each player's message of the change after ``since`` and, if it may be watched, the
    spectators' (key None), from one read of the battle (its row, its position parsed once,
    its log rows after ``since``), or from ``battle`` and ``snap`` as the committing action
    left them (no read at all). None: no such battle."""
    if battle is None or snap is None:
        battle = _battle(battle_id)
        if battle is None:
            return None
        snap = selectors.snapshot(battle, since)
    texts: dict[str | None, str] = {
        side: encode(_message(selectors.side_view(battle, side, snap), since))
        for side in SIDES if battle.player_id(side) is not None}
    if watched(battle):
        # Built even when nobody watches: the group's members are the layer's, not known
        # here; the cost is a view and an encoding, no query (figures: battles/README.md).
        texts[None] = encode(_message(selectors.spectator_view(battle, since, snap), since))
    return Change(battle.pk, since, battle.seq, battle.status, texts)
