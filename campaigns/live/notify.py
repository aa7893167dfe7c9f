"""Nudge a campaign's websocket group when it changed (``play.signals.match_changed``, sent
after commit, in the web process or a Celery worker). The nudge carries only ``seq`` and
``status``: each consumer builds its own viewer's message (``messages.campaign_message``)."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .messages import group_name

log = logging.getLogger(__name__)
_pending: set = set()  # tasks in flight (a loop keeps only weak references)


def on_campaign_changed(sender, kind: str, match_id: int, seq: int, status: str,
                        **kwargs) -> None:
    if kind != "campaign":
        return
    campaign_id = match_id
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "campaign.changed", "seq": seq, "status": status}
    try:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:  # the usual case: a request's or a worker's thread
            async_to_sync(layer.group_send)(group_name(campaign_id), message)
        else:  # sync code on a thread that runs a loop: send once it is free
            task = loop.create_task(layer.group_send(group_name(campaign_id), message))
            _pending.add(task)
            task.add_done_callback(_pending.discard)
    except Exception:  # noqa: BLE001 - the change is saved; consumers poll as a safety net
        log.exception("campaign %s: could not nudge its websocket group", campaign_id)
