"""The card records the deck rules need: the catalogue's cached public records.

``cards_by_number()`` is called on every validation (the builder validates on each edit, the
validate API on each request); cards/catalogue/cache.py builds the records once per catalogue
version.
"""

from __future__ import annotations

from cards.catalogue.cache import clear, derived, records_by_number

__all__ = ["cards_by_number", "clear", "derived"]


def cards_by_number() -> dict[int, dict]:
    """Card number -> card record (cards/catalogue/records.py). Shared: treat as read-only."""
    return records_by_number()
