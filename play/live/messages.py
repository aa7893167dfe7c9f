"""What one viewer of a match receives over the socket, for every kind of match.

A message is ``{"type": <kind>, "seq", "status", "since", "events": [the viewer's events of
the actions after since], "my_side", ...the rest of the kind's view}``: the body is the
kind's (``LiveHooks.view``: for a battle ``battles.selectors.side_view`` /
``spectator_view``, for a campaign ``campaigns.selectors.side_view``), the frame around it
is built here. Every message is built for one viewer class (a side's player, or the
spectators) and sent only to that class's group (``class_group``: ``<kind>.<id>.french``,
``.allied``, ``.watch``): nothing built for one side ever reaches the other side's sockets.

``change_messages`` builds each class's message of one change once (one read of the match,
its position parsed once; or none: the committing action's own row and ``Snapshot``), in
the process that committed the change: each player's, and the spectators' too when the match
can be watched and its spectators' group was not empty at its last message (``watchers``; a
spectator's view depends on nobody's user, so one text serves every spectator socket). The
consumers of each class forward its text as it is (``notify``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from config.errors import NotFound
from play import registry
from play.registry import MatchKind
from play.turns import Snapshot

from .hooks import LiveHooks, hooks_of, live_hooks

WATCH = "watch"  # the spectators' group suffix


def live_kind(name: str) -> tuple[MatchKind, LiveHooks]:
    """The registered kind ``name`` and its live hooks; ``NotFound`` for a kind the site
    does not offer, or one without a live channel (refused like a match that is not there)."""
    try:
        kind = registry.get(name)
    except LookupError:
        raise NotFound(f"no such game: {name}") from None
    hooks = hooks_of(kind)
    if hooks is None:
        raise NotFound(f"no such game: {name}")
    return kind, hooks


def class_group(kind: str, match_id: int, side: str | None) -> str:
    """The group of one viewer class of a match: its French player's sockets, its Allied
    player's, or its spectators' (side None)."""
    return f"{kind}.{match_id}.{side or WATCH}"


def encode(message: dict) -> str:
    """A message as the socket sends it (compact JSON)."""
    return json.dumps(message, cls=DjangoJSONEncoder, separators=(",", ":"))


@dataclass(frozen=True)
class Viewer:
    """Who is connected: ``user`` plays ``side`` of match ``match_id`` of ``kind``, or (side
    None) watches it."""

    kind: str
    match_id: int
    user: object
    side: str | None


def viewer_for(kind: str, user, match_id) -> Viewer:
    """The viewer ``user`` is in match ``match_id`` (as the URL names it): a player (their
    side) or a spectator. ``NotFound`` when they may not look at it (or it is not there):
    the kind's own rule, as its page and API have it."""
    _, hooks = live_kind(kind)
    match = hooks.find(user, match_id)
    return Viewer(kind, match.pk, user, hooks.side_of(match, user))


def current(kind: str, match_ids: list[int]) -> dict[int, tuple]:
    """Each match's ``(seq, status, ...the presence columns)``: one query for every match of
    ``kind`` with open sockets in this process (the safety-net check, ``poller``)."""
    model, hooks = registry.get(kind).model, live_hooks(registry.get(kind))
    columns = hooks.presence.columns if hooks.presence else ()
    return {pk: tuple(rest) for pk, *rest in model.objects.filter(pk__in=match_ids)
            .values_list("id", "seq", "status", *columns)}


def present(viewer: Viewer) -> bool:
    """A player's open socket counts as being at the match, for a kind that keeps presence
    (at most one write every ``Presence.every`` s), so a player thinking with the page open
    cannot be claimed against as absent. Spectators are nobody's presence."""
    kind, hooks = live_kind(viewer.kind)
    if viewer.side is None or hooks.presence is None:
        return False
    row = kind.model.objects.filter(pk=viewer.match_id).only(
        "id", "status", *hooks.presence.columns).first()
    return row is not None and hooks.presence.touch(row, viewer.side)


def present_many(kind: str, due: list[tuple[int, str, tuple]]) -> int:
    """``present`` for many players at once, from the poll's rows ``(match id, side,
    (seq, status, ...columns))``: no read per socket, a write only where that side's last
    visit is old."""
    model, hooks = registry.get(kind).model, live_hooks(registry.get(kind))
    if hooks.presence is None:
        return 0
    presence = hooks.presence
    now = timezone.now()
    columns = presence.columns
    rows = [(model(pk=pk, status=row[1], **dict(zip(columns, row[2:], strict=True))), side)
            for pk, side, row in due]
    if presence.touch_many is not None:
        return presence.touch_many(rows, now)  # one statement for the round
    return sum(presence.touch(row, side, now) for row, side in rows)


def load(kind: MatchKind, hooks: LiveHooks, match_id: int):
    """The match's row as a message needs it (its players, its invitee), or None."""
    related = [f"{side}_player" for side in kind.game.sides]
    return (kind.model.objects.filter(pk=match_id).select_related(*related, "invited")
            .defer(*hooks.deferred).first())


def snapshot(kind: MatchKind, match, since: int) -> Snapshot:
    """The match's position (parsed once) and its log rows after ``since``: one read serves
    every viewer class's message of a change. Only up to the row's own ``seq``: actions are
    written in the same transaction as the row's new ``seq``, so every action up to it is
    there, and one recorded between the two reads waits for the next message."""
    state = (kind.game.from_json(match.state, kind.cards(match)) if match.state is not None
             else None)
    rows = list(kind.action_model.objects
                .filter(**{kind.match_field: match}, seq__gt=since, seq__lte=match.seq)
                .order_by("seq").values_list("seq", "side", "action", "events", "auto",
                                            "auto_reason"))
    return Snapshot(state, rows)


def _message(kind: str, data: dict, since: int) -> dict:
    events = data.pop("log")
    return {"type": kind, **data, "since": since, "events": events}


def message(viewer: Viewer, since: int, match=None) -> dict:
    """The message of ``viewer``'s class, built on its own (a hello, or a change whose
    prebuilt text did not fit what the socket had): ``{"type": kind, "seq", "status",
    "since", "events": [after since], "my_side", ...the class's view}``. The user plays no
    part: a spectator's is every spectator's. ``match``: the row, if already read."""
    kind, hooks = live_kind(viewer.kind)
    match = match if match is not None else load(kind, hooks, viewer.match_id)
    if match is None:
        raise NotFound(f"no such {kind.noun}")
    return _message(viewer.kind, hooks.view(match, viewer.side, since, None), since)


def own_message(viewer: Viewer, since: int) -> tuple[Viewer, dict]:
    """A socket's own ``message``, and its viewer: a spectator who plays the match now (an
    invitee, or someone who took an open seat, after connecting) becomes that side's viewer
    from this message on. A player stays their side's."""
    kind, hooks = live_kind(viewer.kind)
    match = load(kind, hooks, viewer.match_id)
    if match is None:
        raise NotFound(f"no such {kind.noun}")
    if viewer.side is None:
        side = hooks.side_of(match, viewer.user)
        if side is not None:
            viewer = replace(viewer, side=side)
    return viewer, message(viewer, since, match)


@dataclass(frozen=True)
class Change:
    """The messages of one change, built once: ``texts`` maps a side to its player's encoded
    message (only the sides a person plays) and None to the spectators' (only when the match
    can be watched); each covers the actions after ``since`` up to ``seq``."""

    kind: str
    match_id: int
    since: int
    seq: int
    status: str
    texts: dict[str | None, str]


def watched(kind: MatchKind, match) -> bool:
    """Whether anyone may be watching ``match`` (the kind's rule: for both games public and
    started). A private match's ``.watch`` group holds nobody who may read a spectator's
    text of it: none is built."""
    return live_hooks(kind).watched(match)


def change_messages(kind_name: str, match_id: int, since: int, match=None,
                    snap: Snapshot | None = None, spectators: bool = True) -> Change | None:
    """Each player's message of the change after ``since`` and, if it may be watched (and
    ``spectators``: not known to have nobody watching, ``watchers``), the spectators' (key
    None), from one read of the match (its row, its position parsed once, its log rows after
    ``since``), or from ``match`` and ``snap`` as the committing action left them (no read at
    all). None: no such match."""
    kind, hooks = live_kind(kind_name)
    if match is None or snap is None:
        match = load(kind, hooks, match_id)
        if match is None:
            return None
        snap = snapshot(kind, match, since)
    texts: dict[str | None, str] = {
        side: encode(_message(kind_name, hooks.view(match, side, since, snap), since))
        for side in kind.game.sides if match.player_id(side) is not None}
    if spectators and watched(kind, match):
        # Built unless the last message to the spectators' group reached nobody (``watchers``:
        # the pub/sub layer's PUBLISH says how many got it); the group then gets a nudge, and
        # a spectator who came meanwhile builds their own message from it.
        texts[None] = encode(_message(kind_name, hooks.view(match, None, since, snap), since))
    return Change(kind_name, match.pk, since, match.seq, match.status, texts)
