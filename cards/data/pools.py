"""Historical pools per army and battle: ``python -m cards.data.pools [catalogue.json]``.

Prints, for every army and battle it fought, the cards whose ``battles`` list it (the
historical pool of the 2.0 note, from which the engine deals default decks), by type, with
the specials' share, and the artillery cards whose guns break their battery rule. Pure Python:
no Django, so the data tests and the README figures use the same counts.
"""

import json
import sys
from collections import Counter
from pathlib import Path

from game import ARMIES, BATTLES, CARD_TYPES

DATA_FILE = Path(__file__).resolve().parent / "catalogue.json"

# Guns per battery, by army, nationality and kind (README "Artillery: guns per battery").
# French: foot 8 (6 guns + 2 howitzers), horse 6 (4 + 2). British, KGL and Hanoverian:
# 6 (5 + 1), foot and horse (HF: Uxbridge's cavalry, 30 guns = five 6-gun troops).
# Netherlands and Brunswick: 8 (6 + 2). Prussian: 8, foot and horse (NS-P: 312 guns in 39
# batteries).
BATTERY_GUNS = {
    ("french", None, "foot"): 8, ("french", None, "horse"): 6,
    ("british", "british", "foot"): 6, ("british", "british", "horse"): 6,
    ("british", "kgl", "foot"): 6, ("british", "kgl", "horse"): 6,
    ("british", "hanoverian", "foot"): 6, ("british", "hanoverian", "horse"): 6,
    ("british", "netherlands", "foot"): 8, ("british", "netherlands", "horse"): 8,
    ("british", "brunswick", "foot"): 8, ("british", "brunswick", "horse"): 8,
    ("prussian", None, "foot"): 8, ("prussian", None, "horse"): 8,
}


def load(path: Path = DATA_FILE) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def pool(data: dict, army: str, battle: str) -> list[dict]:
    """Every card of ``army`` whose battles list ``battle`` (terrain included)."""
    return [c for c in data["cards"] if c["army"] == army and battle in c["battles"]]


def pool_counts(data: dict, army: str, battle: str) -> dict[str, int]:
    """Counts by type, plus ``horse`` (horse artillery) and ``total``."""
    cards = pool(data, army, battle)
    counts = Counter(c["type"] for c in cards)
    out = {t: counts.get(t, 0) for t in CARD_TYPES}
    out["horse"] = sum(1 for c in cards if c["artillery_kind"] == "horse")
    out["total"] = len(cards)
    return out


def fought(data: dict) -> list[tuple[str, str]]:
    """(army, battle) pairs with at least one non-special card."""
    return [(a, b) for b in BATTLES for a in ARMIES
            if any(c["type"] != "special" for c in pool(data, a, b))]


def battery_guns(card: dict) -> int:
    return BATTERY_GUNS[(card["army"], card["nationality"], card["artillery_kind"])]


def bad_guns(data: dict) -> list[int]:
    """Artillery cards whose guns are not a whole number of batteries of their kind."""
    return [c["number"] for c in data["cards"]
            if c["type"] == "artillery" and c["guns"] % battery_guns(c)]


def report(data: dict) -> str:
    lines = [f"catalogue {data['version']}",
             "army      battle       gen inf art(h) cav ter spec total  spec%"]
    for army, battle in fought(data):
        n = pool_counts(data, army, battle)
        share = 100 * n["special"] / n["total"]
        lines.append(f"{army:9} {battle:12} {n['general']:3} {n['infantry']:3} "
                     f"{n['artillery']:3}({n['horse']}) {n['cavalry']:3} {n['terrain']:3} "
                     f"{n['special']:4} {n['total']:5}  {share:4.1f}")
    lines.append(f"artillery off its battery size: {bad_guns(data) or 'none'}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(load(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA_FILE)))
