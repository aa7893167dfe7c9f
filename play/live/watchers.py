"""Whether a match's spectators' group had anyone in it at its last message (issue 31).

Every change of a public match under way used to build, besides each player's message, the
spectators' one (a view and a JSON encoding: a third of the messages' work), whether anyone
watched or not. The pub/sub layer's PUBLISH answers how many subscribers got each message
(``config.channel_layer.DegradingPubSubChannelLayer.group_send_many``), so the process that
sends a change learns, for free, whether its spectators' group was empty. A group found
empty gets, at the next change, the cheap nudge (``notify``) instead of a prebuilt text;
that nudge's own answer says when someone has come (the next change builds the text again).

Nothing can be missed by this: a spectator who arrives unseen receives the nudge and builds
their own message, as every socket does for a nudge (``consumers.match_changed``); only the
prebuilt text is spared. What is known is this process's last answer for the match (each web
process and worker learns from its own sends; unknown means "build", as before), kept for
the ``KEPT`` matches sent to most recently; a spectator connecting to this process clears it
at once (``joined``). The cost: spectators who arrive at a match nobody watched, on another
process than the next mover's, each build the first change's message themselves (one read),
as every spectator socket did for every change before the text was built once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping

from .messages import WATCH

KEPT = 20_000  # matches remembered per process (a few dozen bytes each)
WATCH_SUFFIX = f".{WATCH}"  # ``messages.class_group``'s spectators' group: "<kind>.<id>.watch"

_lock = threading.Lock()  # read by database threads, written by the event loop
_empty: OrderedDict[str, None] = OrderedDict()  # spectators' groups empty at their last send


def nobody_watching(group: str) -> bool:
    """Whether the last message this process sent to spectators' group ``group`` reached
    nobody (False when not known)."""
    with _lock:
        return group in _empty


def heard(receivers: Mapping[str, int | None]) -> None:
    """Record how many subscribers each group's message reached (None: not known)."""
    with _lock:
        for group, count in receivers.items():
            if count is None or not group.endswith(WATCH_SUFFIX):
                continue  # not known (Redis unreachable): as it was
            if count == 0:
                _empty[group] = None
                _empty.move_to_end(group)
                while len(_empty) > KEPT:
                    _empty.popitem(last=False)
            else:
                _empty.pop(group, None)


def joined(group: str) -> None:
    """A spectator's socket joined ``group`` in this process: build its text again."""
    with _lock:
        _empty.pop(group, None)


def forget() -> None:
    """Forget everything heard (a test's fresh start)."""
    with _lock:
        _empty.clear()
