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
import http.client
import ipaddress
import json
import socket
import ssl
import urllib.parse

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..models import Tournament, WebhookDelivery
from .common import enqueue
from .errors import TournamentError

TIMEOUT = 10


# --- URL safety (SSRF) -----------------------------------------------------------------------

class UnsafeWebhookURL(TournamentError):
    """The URL is not http(s), or its host resolves to an address we never call."""


class UnresolvableHost(UnsafeWebhookURL):
    """The host has no address (now): accepted at save, a network error (retried) at
    delivery."""


def allow_private() -> bool:
    """``EAGLES_WEBHOOK_ALLOW_PRIVATE`` (env or settings): allow private/loopback addresses
    (local development and tests with a 127.0.0.1 server). Off in production."""
    return bool(getattr(settings, "EAGLES_WEBHOOK_ALLOW_PRIVATE", False))


def _refused_reason(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    mapped = getattr(ip, "ipv4_mapped", None) or getattr(ip, "sixtofour", None)
    if mapped is not None:
        return _refused_reason(mapped)
    for attr, what in (("is_loopback", "loopback"), ("is_link_local", "link-local"),
                       ("is_multicast", "multicast"), ("is_unspecified", "unspecified"),
                       ("is_reserved", "reserved"), ("is_private", "private")):
        if getattr(ip, attr):
            return what
    if not ip.is_global:  # shared address space (100.64/10), documentation ranges...
        return "not public"
    return None


def _split(url: str) -> urllib.parse.SplitResult:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise UnsafeWebhookURL("webhook_url must be an http(s) URL")
    if not parts.hostname:
        raise UnsafeWebhookURL("webhook_url has no host")
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise UnsafeWebhookURL("webhook_url has an invalid port") from None
    return parts


def resolve_webhook_url(url: str) -> list[str]:
    """The addresses to call for ``url`` (all of its host's addresses must be public unless
    ``EAGLES_WEBHOOK_ALLOW_PRIVATE``). Raises ``UnsafeWebhookURL`` (400) naming the reason."""
    parts = _split(url)
    host = parts.hostname
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError) as exc:
        raise UnresolvableHost(f"webhook_url: the host {host!r} does not resolve ({exc})") \
            from None
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise UnresolvableHost(f"webhook_url: the host {host!r} has no address")
    if not allow_private():
        for address in addresses:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
            reason = _refused_reason(ip)
            if reason:
                raise UnsafeWebhookURL(
                    f"webhook_url must point to a public address: {host!r} resolves to "
                    f"{address} ({reason})")
    return addresses


def check_webhook_url(url: str) -> str:
    """Validate an organiser's webhook URL at save (``TournamentError`` -> 400): http(s), and
    every address its host resolves to is public. A host that does not resolve (now) is
    accepted: saving must not depend on DNS being up, and every delivery checks again and
    connects only to the address it checked."""
    try:
        resolve_webhook_url(url)
    except UnresolvableHost:
        pass
    return url


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address checked just before (no second DNS lookup to rebind)."""

    def __init__(self, host, address, **kw):
        super().__init__(host, **kw)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host, address, **kw):
        super().__init__(host, context=ssl.create_default_context(), **kw)
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _post(url: str, address: str, body: bytes, headers: dict) -> int:
    """POST without following redirects (a redirect is not a 2xx: a failed attempt)."""
    parts = _split(url)
    cls = _PinnedHTTPSConnection if parts.scheme == "https" else _PinnedHTTPConnection
    conn = cls(parts.hostname, address, port=parts.port, timeout=TIMEOUT)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    try:
        conn.request("POST", path, body=body, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


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
    headers = {"Content-Type": "application/json", "User-Agent": "EaglesOnline-Webhook/1",
               "X-Eagles-Event": d.event, "X-Eagles-Delivery": str(d.pk),
               "X-Eagles-Signature": sign(secret, body)}
    status, error = None, ""
    try:
        # checked again now: DNS may have changed since the URL was saved
        address = resolve_webhook_url(url)[0]
    except UnresolvableHost as exc:
        error = exc.message[:500]  # maybe temporary: retried like a network error
    except UnsafeWebhookURL as exc:  # refused for good: failed now, never retried
        WebhookDelivery.objects.filter(pk=d.pk).update(
            state=WebhookDelivery.State.FAILED, last_status=None,
            last_error=f"refused: {exc.message}"[:500])
        return WebhookDelivery.State.FAILED
    else:
        try:
            status = _post(url, address, body, headers)
            if not 200 <= status < 300:
                error = f"HTTP {status}"
        except (OSError, http.client.HTTPException) as exc:
            error = (str(exc) or type(exc).__name__)[:500]
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
