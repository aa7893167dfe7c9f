"""A match's game data (the card table it plays with), built once per process for each
content (issue 12, "Figures"; issue 25: one home for every kind; issue 31: keyed by content).

A match's card records are a ``models.CardSet``, stored once and named by its digest, and
never change. So the hot path (an action, each viewer's websocket message) reads the match
row, which holds only the digest (``card_set_id``), and takes the table from here: built on
the first use of that digest in this process, then kept for every match that plays with the
same records. A match whose data is not fixed (a battle set up before records were kept plays
with the catalogue as it is now) has no key: built every time, never kept.

The table is the same for every viewer of a match (the cards' printed data, never who holds
what), so sharing it between viewers, and between matches with the same records, hides
nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

MAX_TABLES = 256  # tables kept (least recently used first out); ~100 KB each for EAGLES

# (what, a content key) -> table; the key names the content (a records digest, a data file's
# version), so a table found is always the right one, whichever match asks.
_tables: OrderedDict[Hashable, Any] = OrderedDict()
_lock = threading.Lock()


def kept(key: Hashable | None, build: Callable[[], Any]) -> Any:
    """``build()``, built once per ``key`` in this process and kept (None: not fixed, built
    every time)."""
    if key is None:
        return build()
    with _lock:
        table = _tables.get(key)
        if table is not None:
            _tables.move_to_end(key)
            return table
    table = build()
    with _lock:
        _tables[key] = table
        while len(_tables) > MAX_TABLES:
            _tables.popitem(last=False)
    return table


def is_kept(key: Hashable) -> bool:
    return key in _tables


def cards_key(match: Any) -> tuple[str, str] | None:
    """The key of a match's card table: its records' digest (None: it has none)."""
    return ("cards", match.card_set_id) if match.card_set_id is not None else None


def forget() -> None:
    """Drop every kept table: tests."""
    with _lock:
        _tables.clear()
