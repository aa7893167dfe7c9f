"""The pages' one mapping of a service's refusal (``config.errors.ServiceError``).

A 404 or 403 is the site's error page (``refuse``); anything else is a message on the page
the user was on (``page_message``), chosen by the refusal's ``code``, never by its text.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from config.errors import ServiceError

# Codes a page words its own way (the API's sentence is written for a program).
PAGE_MESSAGES = {
    "stale_seq": "The battle has moved on: this is where it stands now.",
}


def refuse(exc: ServiceError) -> None:
    """Raise the HTTP error a not-found or not-allowed refusal stands for; else return."""
    if exc.status == 404:
        raise Http404(exc.message) from None
    if exc.status == 403:
        raise PermissionDenied(exc.message) from None


def page_message(exc: ServiceError, *, capitalise: bool = False) -> str:
    """The sentence a page shows for a refusal (the battle pages capitalise theirs)."""
    message = PAGE_MESSAGES.get(exc.code, exc.message)
    return message[:1].upper() + message[1:] if capitalise else message
