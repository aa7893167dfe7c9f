"""The card table of a started battle, built once per process (issue 12, "Figures").

A battle's ``card_records`` (about 60 KB of JSON) are written when its position is built: at
creation against the computer, at join between people; after that they never change. So the
hot path (an action, each viewer's websocket message) reads the battle row without them
(``defer(DEFERRED)``) and takes the engine's table from here: read and built on the first use
in this process, then kept. A waiting battle (no position yet) or one without its own records
(set up before they were recorded: the catalogue as it is now) is never kept.

The table is the same for every viewer of a battle (the cards' printed data, never who holds
what), so sharing it between viewers hides nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from .engine import CardTable
from .models import Battle, Status
from .setup import engine_cards

DEFERRED = ("card_records",)  # the columns the hot path leaves out of the battle row
MAX_BATTLES = 512  # tables kept (least recently used first out); ~100 KB each

# (battle id, its secret seed) -> table: the seed too, so that an id used again (a test
# database rolled back, a restored backup) never finds another battle's table.
_tables: OrderedDict[tuple[int, int], CardTable] = OrderedDict()
_lock = threading.Lock()


def cards_of(battle: Battle) -> CardTable:
    """``setup.engine_cards(battle)``, built once per started battle in this process. A
    ``battle`` read with ``card_records`` deferred loads them only on the first use."""
    if battle.pk is None or battle.status == Status.WAITING:
        return engine_cards(battle)
    key = (battle.pk, battle.seed)
    with _lock:
        table = _tables.get(key)
        if table is not None:
            _tables.move_to_end(key)
            return table
    table = engine_cards(battle)
    if battle.card_records:  # its own records: fixed for good
        with _lock:
            _tables[key] = table
            while len(_tables) > MAX_BATTLES:
                _tables.popitem(last=False)
    return table


def forget(battle_id: int | None = None) -> None:
    """Drop the kept table of ``battle_id`` (None: all of them): tests."""
    with _lock:
        if battle_id is None:
            _tables.clear()
        else:
            for key in [k for k in _tables if k[0] == battle_id]:
                del _tables[key]
