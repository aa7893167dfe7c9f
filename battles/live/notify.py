"""Nudge a battle's websocket group when it changed (``signals.battle_changed``, sent after
commit, in the web process or a Celery worker). The nudge carries only ``seq`` and
``status``: each consumer builds its own viewer's message (``messages.battle_message``)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .messages import group_name

log = logging.getLogger(__name__)


def on_battle_changed(sender, battle_id: int, seq: int, status: str, **kwargs) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(battle_id), {
            "type": "battle.changed", "seq": seq, "status": status})
    except Exception:  # noqa: BLE001 - the change is saved; consumers poll as a safety net
        log.exception("battle %s: could not nudge its websocket group", battle_id)
