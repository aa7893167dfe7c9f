"""Abuse limits (issue 11): fixed-window counters in the Django cache, shared by every process
(the cache is Redis when REDIS_URL is set), and the per-user limit on expensive endpoints.

A counter is one cache key per scope, identity and window; ``cache.incr`` is atomic on Redis.
The identity is hashed so account names and addresses never appear in cache keys.

The counters live in the ``counters`` cache (the same Redis as the default cache, without its
forgiveness, config/cache.py): when it cannot be reached, ``count``, ``hit`` and
``retry_after`` raise ``CountersUnavailable`` and each caller decides: the log-in fails closed
(a 503 that says why, accounts/limits.py), sign-up and the expensive endpoints stay open.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import time

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse

log = logging.getLogger(__name__)


class CountersUnavailable(Exception):
    """The counters' cache (Redis) cannot be reached."""


def _counters():
    return caches["counters"]


def _guarded(fn):
    """``fn`` with the cache's errors (a lost Redis) raised as ``CountersUnavailable``."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CountersUnavailable:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever the cache client raises
            log.warning("throttle counters unavailable: %s", exc)
            raise CountersUnavailable(str(exc)) from exc

    return call


def _key(scope: str, ident: str, window: int) -> tuple[str, float]:
    """The counter's key for the current window and the seconds until that window ends."""
    now = time.time()
    start = int(now // window) * window
    digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"eagles:throttle:{scope}:{digest}:{start}", start + window - now


@_guarded
def count(scope: str, ident: str, window: int) -> int:
    """How many times ``hit`` was called for (scope, ident) in the current window."""
    key, _ = _key(scope, ident, window)
    return int(_counters().get(key, 0))


@_guarded
def hit(scope: str, ident: str, window: int) -> int:
    """Count one event for (scope, ident) in the current window; the new count."""
    key, _ = _key(scope, ident, window)
    cache = _counters()
    cache.add(key, 0, timeout=window + 1)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window + 1)
        return 1


@_guarded
def retry_after(scope: str, ident: str, limit: int, window: int) -> int | None:
    """Seconds until (scope, ident) may try again when it has reached ``limit``, else None."""
    key, remaining = _key(scope, ident, window)
    if int(_counters().get(key, 0)) < limit:
        return None
    return max(1, math.ceil(remaining))


def client_address(request: HttpRequest) -> str:
    """The client's address as the nearest trusted proxy saw it (issue 30).

    Each proxy appends the address it saw to ``X-Forwarded-For`` (nginx's
    ``$proxy_add_x_forwarded_for``), so with ``settings.EAGLES_TRUSTED_PROXIES`` = N proxies
    in front, the N-th value from the right is the one the outermost trusted proxy wrote;
    everything left of it is the client's own to choose. (The web server's own proxy handling
    is not relied on: daphne's ``--proxy-headers``, used by ``make run``, takes the leftmost,
    client-written value; the Procfile's uvicorn trusts only 127.0.0.1, docs/deploy.md.) With
    no trusted proxy (0, the default) the address is the connection's, ``REMOTE_ADDR``."""
    trusted = settings.EAGLES_TRUSTED_PROXIES
    if trusted > 0:
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        hops = [hop for hop in hops if hop]
        if hops:
            return hops[-trusted] if len(hops) >= trusted else hops[0]
    return request.META.get("REMOTE_ADDR") or "unknown"


def throttled_response(request: HttpRequest, wait: int, message: str) -> HttpResponse:
    """429 with Retry-After: JSON for the API, a short page elsewhere."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message, "retry_after": wait},
                                              status=429)
    else:
        from django.shortcuts import render

        response = render(request, "429.html", {"message": message, "retry_after": wait},
                          status=429)
    response["Retry-After"] = str(wait)
    return response


def _requester(request: HttpRequest) -> str:
    """Who is asking: the session user, else the API token's hash, else the address (DRF
    authenticates tokens only inside the view, after this middleware)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    auth = request.META.get("HTTP_AUTHORIZATION", "")
    if auth:
        return "auth:" + hashlib.sha256(auth.encode("utf-8", "surrogatepass")).hexdigest()
    return "addr:" + client_address(request)


class ExpensiveEndpointMiddleware:
    """Per-user limit on the POSTs of expensive endpoints (imports, new battles, simulations),
    named by URL name in settings.EAGLES_EXPENSIVE_ENDPOINTS: one place for pages and API."""

    WINDOW = 60

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        if request.method != "POST" or request.resolver_match is None:
            return None
        scope = settings.EAGLES_EXPENSIVE_ENDPOINTS.get(request.resolver_match.url_name)
        if scope is None:
            return None
        limit = settings.EAGLES_EXPENSIVE_PER_MINUTE
        who = _requester(request)
        try:
            wait = retry_after(f"expensive:{scope}", who, limit, self.WINDOW)
            if wait is None:
                hit(f"expensive:{scope}", who, self.WINDOW)
        except CountersUnavailable:
            return None  # open while the counters are gone: the work itself is still bounded
        if wait is not None:
            return throttled_response(
                request, wait,
                f"Too many requests of this kind ({limit} a minute); try again in {wait} s.")
        return None
