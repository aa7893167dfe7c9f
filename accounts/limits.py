"""Log-in and sign-up limits (issue 11), shared by the pages and the API.

Log-in: wrong passwords are counted per account name and per address; once either reaches
settings.EAGLES_LOGIN_FAILURES within the window, every log-in for that name or from that
address is refused, the right password included, until the window ends (guessing a password
then costs a window per EAGLES_LOGIN_FAILURES guesses). Sign-up: every attempt is counted per
address and per requested name, at most settings.EAGLES_SIGNUPS_PER_WINDOW.

When the counters cannot be reached (Redis gone, issue 30) the log-in fails closed: it is
refused with ``LOGIN_PAUSED`` (a 503 with Retry-After), since unlimited guessing is the one
thing the limit exists to stop; sign-up stays open (a new account can do nothing a visitor
cannot).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from config.throttling import CountersUnavailable, client_address, hit, retry_after

LOGIN_PAUSED_SECONDS = 30
LOGIN_PAUSED = ("Log-in is paused: the counters that limit password guessing cannot be "
                "reached just now. Try again in a minute.")


class LoginPaused(Exception):
    """Log-in refused because its limits cannot be checked (see the module's text)."""


def _idents(request: HttpRequest, username: str) -> list[tuple[str, str]]:
    # Account names are case-insensitive here: "Alice" and "alice" share one counter.
    return [("addr", client_address(request)), ("account", username.strip().lower())]


def login_retry_after(request: HttpRequest, username: str) -> int | None:
    """Seconds to wait when log-ins for this name or from this address are blocked;
    ``LoginPaused`` when that cannot be known."""
    try:
        waits = [retry_after(f"login-{kind}", ident, settings.EAGLES_LOGIN_FAILURES,
                             settings.EAGLES_THROTTLE_WINDOW)
                 for kind, ident in _idents(request, username)]
    except CountersUnavailable:
        raise LoginPaused from None
    return max((w for w in waits if w is not None), default=None)


def record_login_failure(request: HttpRequest, username: str) -> None:
    try:
        for kind, ident in _idents(request, username):
            hit(f"login-{kind}", ident, settings.EAGLES_THROTTLE_WINDOW)
    except CountersUnavailable:
        pass  # lost since the check: the next attempt is refused (LoginPaused)


def signup_attempt(request: HttpRequest, username: str) -> int | None:
    """Count one sign-up attempt; seconds to wait if the limit was already reached (the
    refused attempt is not counted)."""
    try:
        waits = [retry_after(f"signup-{kind}", ident, settings.EAGLES_SIGNUPS_PER_WINDOW,
                             settings.EAGLES_THROTTLE_WINDOW)
                 for kind, ident in _idents(request, username)]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is None:
            for kind, ident in _idents(request, username):
                hit(f"signup-{kind}", ident, settings.EAGLES_THROTTLE_WINDOW)
    except CountersUnavailable:
        return None  # open: see the module's text
    return wait


def wait_message(wait: int) -> str:
    minutes = (wait + 59) // 60
    when = f"{wait} seconds" if wait < 120 else f"{minutes} minutes"
    return f"Too many attempts. Try again in {when}."
