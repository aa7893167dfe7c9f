"""What a list page's rows show, worked out in Python once per row rather than by template
tags (issue 31: a list page's cost was mostly its 50 rows' ``{% url %}`` and ``|date``).

``utc_text``: a time as ``|date:"j M Y, H:i"`` shows it in the site's time zone (UTC).
``url_of``: a page's URL by id, reversed once and then filled in."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.dates import MONTHS_3

_SLOT = 918273645  # an id no real one collides with in the URL's text


def utc_text(when: datetime | None) -> str:
    """"27 Nov 2026, 18:30", as the template's ``|date:"j M Y, H:i"`` writes it."""
    if when is None:
        return ""
    when = timezone.localtime(when) if timezone.is_aware(when) else when
    return f"{when.day} {str(MONTHS_3[when.month]).title()} {when.year}, {when:%H:%M}"


def url_of(name: str) -> Callable[[int], str]:
    """``reverse(name, args=[pk])`` for any ``pk``, reversing ``name`` only once."""
    head, _, tail = reverse(name, args=[_SLOT]).partition(str(_SLOT))
    return lambda pk: f"{head}{int(pk)}{tail}"
