"""Webhooks: the organiser's URL receives ``round.paired``, ``round.finished`` and
``tournament.finished`` as signed JSON.

Signature (README "Webhooks"): header ``X-Eagles-Signature: sha256=<hex>`` where hex is
HMAC-SHA256 of the exact request body with the tournament's ``webhook_secret``. Headers
``X-Eagles-Event`` and ``X-Eagles-Delivery`` (the delivery id: the same on every retry, so a
receiver can drop duplicates). Celery retries failures with exponential backoff.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import urllib.error
import urllib.request

from django.db import transaction
from django.utils import timezone

from ..models import Tournament, WebhookDelivery
from .common import enqueue

TIMEOUT = 10


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, signature: str) -> bool:
    return hmac.compare_digest(sign(secret, body), signature or "")


def emit(t: Tournament, event: str, key: str, data: dict) -> WebhookDelivery | None:
    """Record the event once (``key`` is its identity) and deliver it after commit."""
    if not t.webhook_url:
        return None
    payload = {"event": event, "tournament": {"id": t.pk, "name": t.name},
               "created_at": timezone.now().isoformat(), **data}
    delivery, created = WebhookDelivery.objects.get_or_create(
        tournament=t, key=key, defaults={"event": event, "url": t.webhook_url,
                                         "payload": payload})
    if created:
        enqueue("deliver_webhook", delivery.pk)
    return delivery


def body_of(delivery: WebhookDelivery) -> bytes:
    return json.dumps(delivery.payload, sort_keys=True, separators=(",", ":")).encode()


class DeliveryFailed(Exception):
    pass


def deliver(delivery_id, final_attempt: bool = False) -> str:
    """POST one delivery. Returns its state; raises ``DeliveryFailed`` (for a retry) when the
    receiver did not answer 2xx. A delivered one is never sent again."""
    with transaction.atomic():
        d = (WebhookDelivery.objects.select_for_update().select_related("tournament")
             .filter(pk=delivery_id).first())
        if d is None or d.state == WebhookDelivery.State.DELIVERED:
            return "gone" if d is None else d.state
        d.attempts += 1
        d.save(update_fields=["attempts"])
        secret, url, body = d.tournament.webhook_secret, d.url, body_of(d)
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "EaglesOnline-Webhook/1",
        "X-Eagles-Event": d.event, "X-Eagles-Delivery": str(d.pk),
        "X-Eagles-Signature": sign(secret, body)})
    status, error = None, ""
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310
            status = response.status
    except urllib.error.HTTPError as exc:
        status, error = exc.code, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError) as exc:
        error = str(getattr(exc, "reason", exc))[:500]
    ok = status is not None and 200 <= status < 300
    fields = {"last_status": status, "last_error": error}
    if ok:
        fields.update(state=WebhookDelivery.State.DELIVERED, delivered_at=timezone.now())
    elif final_attempt:
        fields.update(state=WebhookDelivery.State.FAILED)
    WebhookDelivery.objects.filter(pk=d.pk).update(**fields)
    if not ok:
        raise DeliveryFailed(error or f"HTTP {status}")
    return WebhookDelivery.State.DELIVERED
