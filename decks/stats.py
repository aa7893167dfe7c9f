"""Deck statistics over card records (pure: no ORM inside; give it ``cards_by_number``).

``deck_statistics`` feeds the deck page's chart and the ``/stats/`` API: counts by type,
morale and corps, total combat value (cv) and Battle Points, the generals' coverage of the
corps in the deck (12.2: a General supports troops of his own corps; Corps "A" generals,
the Army Commanders, support any corps) and the battles the cards fought in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from game import BATTLES, CARD_TYPES, TROOP_TYPES

MORALES = ("a", "b", "c", "d")
ARMY_COMMAND = "A"  # 12.2: Corps "A" generals support any corps


def _parts(entry) -> tuple[int, int]:
    if isinstance(entry, Mapping):
        return entry.get("number"), entry.get("count", 1)
    number, count = entry[0], (entry[1] if len(entry) > 1 else 1)
    return number, count


def deck_statistics(entries: Iterable, cards_by_number: Mapping[int, Mapping]) -> dict:
    """Statistics of a deck's entries (``DeckEntry``, ``[number, count, printing]`` or dicts).

    Copies count (three copies of a card count three times); unknown cards and bad counts are
    skipped and counted in ``unknown``. Returns::

        {"cards": 36, "unknown": 0,
         "by_type": {"general": 3, ...}, "by_morale": {"a": 2, ..., "none": 5},
         "by_corps": {"I": 12, ..., "none": 4},           # troops and generals, by corps
         "cv_total": 84, "bp_total": 370,
         "battles": {"waterloo": 36, "ligny": 10, ...},   # cards that fought there
         "generals": [{"number": 1, "name": ..., "corps": "A"}],
         "army_commanders": [1],
         "coverage": {"covered": ["I", "II"], "uncovered": ["VI"], "by_army_commander": true,
                      "corps": {"I": {"troops": 10, "generals": [5]}, ...}}}
    """
    by_type: Counter = Counter()
    by_morale: Counter = Counter()
    by_corps: Counter = Counter()
    battles: Counter = Counter()
    troops_by_corps: Counter = Counter()
    generals_by_corps: dict[str, list[int]] = {}
    generals: list[dict] = []
    commanders: list[int] = []
    size = unknown = cv_total = bp_total = 0
    for entry in entries:
        number, count = _parts(entry)
        card = cards_by_number.get(number) if type(number) is int else None
        if card is None or type(count) is not int or count <= 0:
            unknown += 1
            continue
        size += count
        kind = card.get("type")
        by_type[kind] += count
        bp_total += (card.get("bp") or 0) * count
        cv_total += (card.get("cv") or 0) * count
        for battle in card.get("battles") or ():
            battles[battle] += count
        if kind in TROOP_TYPES:
            by_morale[card.get("morale") or "none"] += count
            corps = card.get("ob_corps")
            by_corps[corps or "none"] += count
            if corps:
                troops_by_corps[corps] += count
        elif kind == "general":
            corps = card.get("corps")
            by_corps[corps or "none"] += count
            generals.append({"number": number, "name": card.get("name"), "corps": corps})
            if corps == ARMY_COMMAND:
                commanders.append(number)
            elif corps:
                generals_by_corps.setdefault(corps, []).append(number)
    corps_rows = {corps: {"troops": troops_by_corps[corps],
                          "generals": sorted(generals_by_corps.get(corps, []))}
                  for corps in sorted(troops_by_corps)}
    covered = [c for c, row in corps_rows.items() if row["generals"] or commanders]
    return {
        "cards": size,
        "unknown": unknown,
        "by_type": {t: by_type[t] for t in CARD_TYPES},
        "by_morale": {**{m: by_morale[m] for m in MORALES}, "none": by_morale["none"]},
        "by_corps": dict(sorted(by_corps.items(), key=lambda kv: (kv[0] == "none", kv[0]))),
        "cv_total": cv_total,
        "bp_total": bp_total,
        "battles": {b: battles[b] for b in BATTLES},
        "generals": sorted(generals, key=lambda g: g["number"]),
        "army_commanders": sorted(commanders),
        "coverage": {
            "covered": covered,
            "uncovered": [c for c in corps_rows if c not in covered],
            "by_army_commander": bool(commanders),
            "corps": corps_rows,
        },
    }
