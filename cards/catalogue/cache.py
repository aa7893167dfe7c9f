"""The catalogue's public records, built once per process and catalogue version.

Every search, deck check and validation needs card records; building 300 model instances and
records per request costs more than the search itself. The records are kept until the loaded
catalogue version changes (a new ``CatalogueRelease``): one tiny query per call checks the
version, so another process loading a corrected catalogue is seen at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection

from ..models import RARITY, Card, CatalogueRelease, Printing
from .records import card_record
from .selectors import FINISH_ORDER

_lock = threading.Lock()
_cache: dict = {"key": None, "records": None}
# What is computed from the records (``derived``): kept while the records are the same object,
# i.e. for one catalogue version.
_derived: dict = {"records": None, "values": {}}


_VERSION_SQL = (f"SELECT id, version FROM {CatalogueRelease._meta.db_table} "
                "ORDER BY loaded_at DESC, id DESC LIMIT 1")


def _version_key() -> tuple | None:
    # The newest release, as ``order_by("-loaded_at", "-id").values_list("id", "version")
    # .first()`` in fixed SQL: it runs on every search and validation, and compiling the
    # ORM query cost ten times the query itself (bench/request_cpu.py).
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL)
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def _build() -> dict[int, dict]:
    finishes: dict[int, list[str]] = {}
    for number, finish in Printing.objects.order_by().values_list("card__number", "finish"):
        finishes.setdefault(number, []).append(finish)
    records = {}
    for card in Card.objects.all():
        record = card_record(card)
        record["printings"] = [{"finish": f, "rarity": RARITY[f]} for f in
                               sorted(finishes.get(card.number, ()), key=FINISH_ORDER.get)]
        records[card.number] = record
    return records


def records_by_number() -> dict[int, dict]:
    """Card number -> the card's public record (cards/catalogue/records.py) with its printings.

    Shared between callers: treat as read-only. Without a release (a database filled by hand,
    as some tests do) nothing is cached."""
    key = _version_key()
    records = _cache["records"]
    if key is not None and key == _cache["key"] and records is not None:
        return records
    records = _build()
    if key is not None:
        with _lock:
            _cache["key"], _cache["records"] = key, records
    return records


def derived[T](name: str, build: Callable[[dict[int, dict]], T]) -> T:
    """``build(records)``, computed once per catalogue version and shared (treat it as
    read-only): what a page derives from the whole catalogue (e.g. the scales each battle
    offers) costs nothing after its first request. ``name`` tells the derivations apart.
    Without a release the records are built afresh each call, and so is this."""
    records = records_by_number()
    with _lock:
        if _derived["records"] is not records:
            _derived["records"], _derived["values"] = records, {}
        values = _derived["values"]
        if name in values:
            return values[name]
    value = build(records)
    with _lock:
        if _derived["records"] is records:
            values.setdefault(name, value)
    return value


def clear() -> None:
    """Forget the cached records (tests that rewrite cards without a new release)."""
    with _lock:
        _cache["key"], _cache["records"] = None, None
        _derived["records"], _derived["values"] = None, {}
