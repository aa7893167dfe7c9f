"""Abuse limits (issue 11): fixed-window counters in the Django cache, shared by every process
(the cache is Redis when REDIS_URL is set), and the per-user limit on expensive endpoints.

A counter is one cache key per scope, identity and window; ``cache.incr`` is atomic on Redis.
The identity is hashed so account names and addresses never appear in cache keys.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse


def _key(scope: str, ident: str, window: int) -> tuple[str, float]:
    """The counter's key for the current window and the seconds until that window ends."""
    now = time.time()
    start = int(now // window) * window
    digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"eagles:throttle:{scope}:{digest}:{start}", start + window - now


def count(scope: str, ident: str, window: int) -> int:
    """How many times ``hit`` was called for (scope, ident) in the current window."""
    key, _ = _key(scope, ident, window)
    return int(cache.get(key, 0))


def hit(scope: str, ident: str, window: int) -> int:
    """Count one event for (scope, ident) in the current window; the new count."""
    key, _ = _key(scope, ident, window)
    cache.add(key, 0, timeout=window + 1)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window + 1)
        return 1


def retry_after(scope: str, ident: str, limit: int, window: int) -> int | None:
    """Seconds until (scope, ident) may try again when it has reached ``limit``, else None."""
    key, remaining = _key(scope, ident, window)
    if int(cache.get(key, 0)) < limit:
        return None
    return max(1, math.ceil(remaining))


def client_address(request: HttpRequest) -> str:
    """The client's address as the server sees it. Behind a proxy, the server must be told the
    real address (daphne --proxy-headers, gunicorn --forwarded-allow-ips): headers a client
    can set are never trusted here."""
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
        wait = retry_after(f"expensive:{scope}", who, limit, self.WINDOW)
        if wait is not None:
            return throttled_response(
                request, wait,
                f"Too many requests of this kind ({limit} a minute); try again in {wait} s.")
        hit(f"expensive:{scope}", who, self.WINDOW)
        return None
