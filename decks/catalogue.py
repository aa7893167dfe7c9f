"""The card records the deck rules need, cached per process and per catalogue version.

``cards_by_number()`` is called on every validation (the builder validates on each keystroke,
the validate API on each request), so the 300 records are built once and kept until the
loaded catalogue version changes (a new ``CatalogueRelease``). One tiny query per call checks
the version, so another process loading a new catalogue is seen at once.
"""

from __future__ import annotations

import threading

from cards.models import Card, CatalogueRelease
from cards.records import card_record

_lock = threading.Lock()
_cache: dict = {"key": None, "records": None}


def _version_key():
    release = (CatalogueRelease.objects.order_by("-loaded_at", "-id")
               .values_list("id", "version").first())
    return release


def cards_by_number() -> dict[int, dict]:
    """Card number -> card record (cards/records.py), for the current catalogue version.

    Treat the result as read-only: it is shared between callers. Without any release (a
    database filled by hand, as some tests do) nothing is cached.
    """
    key = _version_key()
    records = _cache["records"]
    if key is not None and key == _cache["key"] and records is not None:
        return records
    records = {card.number: card_record(card) for card in Card.objects.all()}
    if key is not None:
        with _lock:
            _cache["key"], _cache["records"] = key, records
    return records


def clear() -> None:
    """Forget the cached records (tests that rewrite cards without a new release)."""
    with _lock:
        _cache["key"], _cache["records"] = None, None
