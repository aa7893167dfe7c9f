"""Send the game service's tasks by name, after the transaction commits (so the worker sees
what was recorded). The service never imports ``play.tasks``: no import cycle, and a web
process need not load the tasks' modules.

``EAGLES_PLAY_QUEUE`` names the queue (tests give a worker its own); unset: the default."""

from __future__ import annotations

import logging
import os
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.db import transaction
from django.utils import timezone

log = logging.getLogger(__name__)

BOT_MOVE = "play.bot_move"
FLAG_FALL = "play.flag_fall"
TICK = "play.tick"
# A flag-fall task is booked with an ETA only for deadlines this close; later ones (a
# correspondence move) are found by the beat tick (a broker holds far ETAs badly: Redis
# redelivers them after its visibility timeout).
FLAG_FALL_ETA_MAX = timedelta(hours=1)


def queue() -> str | None:
    return os.environ.get("EAGLES_PLAY_QUEUE") or None


def send_bot_move(kind: str, match_id: int, seq: int) -> None:
    """Ask a worker for the computer's turn from ``seq`` (idempotent by ``seq``)."""
    _send(BOT_MOVE, [kind, match_id, seq])


def send_flag_fall(kind: str, match_id: int, seq: int, eta: datetime) -> None:
    _send(FLAG_FALL, [kind, match_id, seq], eta=eta)


def after_commit(name: str, args: list, options: dict | None = None) -> None:
    """Send the task ``name`` (another app's, by name) once this transaction commits, in
    the play queue unless ``options`` route it. A broker that is down is logged, never
    raised: the change is saved, and the app's own sweep finds the work left (issue 31: the
    end's rating and tournament result, done by a worker after the ending commits). Tests
    run it at once instead (tests/conftest.py ``results_at_once``)."""
    # nobody waits for its result: without ``ignore_result`` a Redis result backend would
    # subscribe this process to the task's result channel (a round trip to Redis, and one
    # subscription kept per task sent)
    transaction.on_commit(lambda: _send(name, args, ignore_result=True, **(options or {})))


def _send(name: str, args: list, **options: Any) -> None:
    q = queue()
    if q and "queue" not in options:
        options["queue"] = q
    try:
        current_app.send_task(name, args=args, **options)
    except Exception:  # noqa: BLE001 - a lost broker delays the task; the beat's tick resends
        log.exception("could not send %s%r: the beat's tick will find it", name, args)


def bot_move_on_commit(kind: str, match_id: int, seq: int) -> None:
    transaction.on_commit(lambda: send_bot_move(kind, match_id, seq))


def flag_fall_on_commit(kind: str, match: Any) -> None:
    """Book the flag fall of ``match``'s deadline once this transaction commits (only a near
    one: the tick finds the far ones)."""
    deadline, match_id, seq = match.deadline, match.pk, match.seq
    if deadline is None or deadline - timezone.now() > FLAG_FALL_ETA_MAX:
        return
    transaction.on_commit(lambda: send_flag_fall(kind, match_id, seq, deadline))
