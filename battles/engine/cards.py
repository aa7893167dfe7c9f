"""The card table the engine plays with (1.0), built from catalogue records as plain dicts.

The engine never imports the Django catalogue models nor reads a file: ``load_cards(records)``
takes the card records its caller hands it (dicts with the keys of cards/data/catalogue.json;
the online service gives each battle's recorded snapshot, scripts and tests use
``cards.catalogue.file``). Each card becomes a small read-only ``Card`` tuple.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import suppress
from typing import Any, Final, NamedTuple

from game import ARMIES, TROOP_TYPES

MORALE_VALUE = {"a": 4, "b": 3, "c": 2, "d": 1}  # 6.0
TROOPS: Final = frozenset(TROOP_TYPES)


class Card(NamedTuple):
    num: int
    name: str
    army: str  # french / british / prussian (the card back, 1.0)
    nat: str | None  # nationality within Wellington's army
    kind: str  # general / infantry / cavalry / artillery / terrain / special
    battles: tuple[str, ...]
    cv: int
    morale: int  # 6.0 value: A=4 ... D=1
    fp: int  # 7.2 infantry/cavalry firepower
    shock: int  # 7.3
    long: int  # 7.23 artillery long range F
    short: int  # 7.23 artillery short range F
    horse: bool  # 7.24
    off: int  # 12.1
    dfn: int
    corps: str | None  # a general's command (12.2); "A" = army-wide
    ob_corps: str | None  # a troop card's corps (17.4)
    cos: bool  # 12.3 chief of staff
    sic: bool  # 12.3 note: second in command (Uxbridge)
    tbattle: str | None  # 11.0
    tpos: str | None  # l / c / r, seen from the owner's side (4.2)
    tclass: str | None  # hill / woods / river / building
    move_limit: int  # 11.3 (rivers)
    timing: str | None  # 13.0
    restrictions: tuple[str, ...]
    effect: Any  # a Mapping[str, Any] for Specials, else None (read where known present)
    bp: int
    troop: bool  # an Infantry, Cavalry or Artillery card (kind in TROOPS), kept: read often


class CardTable(dict[int, Card]):
    """number -> Card, plus each army's commander (12.3) found from the data."""

    commanders: dict[str, int]


def keep(cards: Mapping[int, Card], name: str, value: Any) -> None:
    """Keep ``value`` on a ``CardTable`` as the attribute ``name`` (a per-table cache); a
    plain dict of cards takes no attribute, and then nothing is kept."""
    with suppress(AttributeError):
        setattr(cards, name, value)


def _card(r: Mapping[str, Any]) -> Card:
    def i(key: str) -> int:
        v = r.get(key)
        return int(v) if v is not None else 0

    return Card(
        num=int(r["number"]), name=str(r["name"]), army=r["army"], nat=r.get("nationality"),
        kind=r["type"], battles=tuple(r.get("battles") or ()), cv=i("cv"),
        morale=MORALE_VALUE.get(r.get("morale") or "", 0), fp=i("firepower"), shock=i("shock"),
        long=i("fire_long"), short=i("fire_short"), horse=r.get("artillery_kind") == "horse",
        off=i("offense"), dfn=i("defense"), corps=r.get("corps"), ob_corps=r.get("ob_corps"),
        cos=bool(r.get("chief_of_staff")), sic=bool(r.get("second_in_command")),
        tbattle=r.get("terrain_battle"), tpos=r.get("terrain_position"),
        tclass=r.get("terrain_class"), move_limit=i("move_limit"),
        timing=r.get("special_timing"), restrictions=tuple(r.get("special_restrictions") or ()),
        effect=dict(r["effect"]) if r.get("effect") else None, bp=i("bp"),
        troop=r["type"] in TROOPS,
    )


def load_cards(records: Iterable[Mapping[str, Any]]) -> CardTable:
    """Build the card table from catalogue records (plain dicts)."""
    table = CardTable()
    for r in records:
        c = _card(r)
        table[c.num] = c
    # 12.3: an army's commander is its best "A" general that is not a chief of staff
    # (Napoléon, Wellington, Blücher in the catalogue): highest offense+defense, then number.
    table.commanders = {}
    for army in ARMIES:
        best = [c for c in table.values()
                if c.army == army and c.kind == "general" and c.corps == "A" and not c.cos]
        if best:
            table.commanders[army] = min(best, key=lambda c: (-(c.off + c.dfn), c.num)).num
    return table

