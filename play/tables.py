"""A started match's game data (the card table it plays with), built once per process
(issue 12, "Figures"; issue 25: one home for every kind).

A match's ``card_records`` (about 60 KB of JSON for EAGLES) are written when its position is
built and never change after that. So the hot path (an action, each viewer's websocket
message) reads the match row without them (``DEFERRED``) and takes the table from here: built
on the first use in this process, then kept. A match the caller says is not fixed yet (a
waiting battle, one set up before its records were kept) is built every time, never kept.

The table is the same for every viewer of a match (the cards' printed data, never who holds
what), so sharing it between viewers hides nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

DEFERRED = ("card_records",)  # the columns the hot path leaves out of a match row
MAX_MATCHES = 512  # tables kept (least recently used first out); ~100 KB each for EAGLES

# (kind, match id, its secret seed) -> table: the seed too, so that an id used again (a test
# database rolled back, a restored backup) never finds another match's table.
_tables: OrderedDict[tuple[str, int, int], Any] = OrderedDict()
_lock = threading.Lock()


def kept(kind: str, match: Any, build: Callable[[Any], Any], *, started: bool = True,
         keep: Callable[[Any], bool] | None = None) -> Any:
    """``build(match)``, built once per started match of ``kind`` in this process; a table
    built is kept unless ``keep(match)`` says the match's data is not fixed (asked after the
    build, so a ``match`` read with its records deferred loads them only on the first use)."""
    if match.pk is None or not started:
        return build(match)
    key = (kind, match.pk, match.seed)
    with _lock:
        table = _tables.get(key)
        if table is not None:
            _tables.move_to_end(key)
            return table
    table = build(match)
    if keep is None or keep(match):
        with _lock:
            _tables[key] = table
            while len(_tables) > MAX_MATCHES:
                _tables.popitem(last=False)
    return table


def is_kept(kind: str, match: Any) -> bool:
    return (kind, match.pk, match.seed) in _tables


def forget(match_id: int | None = None) -> None:
    """Drop the kept tables of ``match_id`` (None: all of them): tests."""
    with _lock:
        if match_id is None:
            _tables.clear()
        else:
            for key in [k for k in _tables if k[1] == match_id]:
                del _tables[key]
