"""Tell a match's sockets that it changed (``play.signals.match_changed``, sent after commit,
in the web process or a Celery worker), for every kind with a live channel: ONE listener,
connected once (``play.apps.PlayConfig.ready``).

After actions, an undo included (the signal carries ``since``: the seq before them) the
players' messages and, for a match that may be watched, the spectators' one are built here once
(``messages.change_messages``, from the signal's ``match`` and ``snap`` when it has them)
and each is sent to its own class's group (``<kind>.<id>.french`` / ``.allied`` /
``.watch``) as text: a receiving consumer whose last message was at ``since`` forwards it
without touching the database, any other builds its own. Every other change (a join, a
resignation, a flag fall, a pause) gets a nudge with only ``seq``, ``status`` and
``paused``: each consumer builds its own viewer's message. The messages built in a socket's
own ``act`` are kept for that thread (``take_answer``): the mover's answer is its side's
message, not a second build.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from play import registry

from . import messages
from .hooks import hooks_of

log = logging.getLogger(__name__)
_pending: set = set()  # tasks in flight (a loop keeps only weak references)
_answers = threading.local()  # the Change built in this thread's last commit


def take_answer(kind: str, match_id: int) -> messages.Change | None:
    """The change of that match built by this thread since the last call (then forgotten)."""
    change = getattr(_answers, "change", None)
    _answers.change = None
    return (change if change is not None and (change.kind, change.match_id) == (kind, match_id)
            else None)


def on_match_changed(sender, kind: str, match_id: int, seq: int, status: str,
                     since: int | None = None, **kwargs) -> None:
    try:
        match_kind = registry.get(kind)
    except LookupError:
        return
    if hooks_of(match_kind) is None:
        return  # a kind without sockets
    layer = get_channel_layer()
    if layer is None:
        return
    change = None
    if since is not None:
        try:
            change = messages.change_messages(kind, match_id, since, kwargs.get("match"),
                                              kwargs.get("snap"))
        except Exception:  # noqa: BLE001 - the nudges below still go; consumers build their own
            log.exception("%s %s: could not build the change's messages", kind, match_id)
    _answers.change = change
    nudge = {"type": "match.changed", "seq": seq, "status": status,
             "paused": bool(kwargs.get("paused"))}  # a tournament's pause
    sends = []
    for side in (*match_kind.game.sides, None):
        group = messages.class_group(kind, match_id, side)
        if change is not None and side in change.texts:
            sends.append((group, {"type": "match.message", "seq": change.seq,
                                  "status": change.status, "since": change.since,
                                  "text": change.texts[side]}))
        else:
            sends.append((group, nudge))
    try:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:  # the usual case: a request's or a worker's thread
            async_to_sync(_send_all)(layer, sends)
        else:  # sync code on a thread that runs a loop: send once it is free
            task = loop.create_task(_send_all(layer, sends))
            _pending.add(task)
            task.add_done_callback(_pending.discard)
    except Exception:  # noqa: BLE001 - the change is saved; consumers poll as a safety net
        log.exception("%s %s: could not nudge its websocket groups", kind, match_id)


async def _send_all(layer, sends: list[tuple[str, dict]]) -> None:
    """Every group's message in one hop to the loop, one after the other: a worker's
    ``async_to_sync`` makes a new loop, and with it new Redis connections, per call (one
    connection then, not one per group)."""
    for group, message in sends:
        await layer.group_send(group, message)
