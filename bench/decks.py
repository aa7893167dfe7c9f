"""Deck rules throughput: validations per second of 36-card decks, pure Python, one core.

    .venv/bin/python bench/decks.py [--seconds 3]

Uses cards/data/catalogue.json (no database, no Django). Four deck mixes of 36 cards each are
validated in turn: the 36 cards of a valid dealt Waterloo French deck (historical mode on),
the same checked against a collection, an invalid one (duplicate, wrong army, non-historical
terrain, unknown card, checked against an empty collection: 38 problems) and a custom deck with
copies. Prints validations/s overall and per mix, and whether the target (>= 10,000/s) is met;
also deck code and deck-list round trips per second.
The API part of the issue's figure (p95 of POST /api/decks/validate/) belongs to the Django
layer's benchmark.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from decks.rules import (  # noqa: E402
    Deck,
    DeckEntry,
    decode,
    encode,
    format_decklist,
    parse_decklist,
    validate,
)
from game import TROOP_TYPES  # noqa: E402

TARGET_PER_SECOND = 10_000
CATALOGUE = ROOT / "cards" / "data" / "catalogue.json"


def load_cards() -> dict[int, dict]:
    return {c["number"]: c for c in json.loads(CATALOGUE.read_text("utf-8"))["cards"]}


def decks(cards: dict[int, dict]) -> dict[str, tuple[Deck, dict | None]]:
    rnd = random.Random(1815)
    pool = [n for n, c in sorted(cards.items()) if c["army"] == "french"
            and "waterloo" in c["battles"]
            and (c["type"] != "terrain" or c["terrain_battle"] == "waterloo")]
    chosen = rnd.sample(pool, 36)
    valid = Deck("waterloo", "french", "dealt", 1, [DeckEntry(n) for n in chosen], True)
    owned = {n: 1 for n in chosen}
    british = next(n for n, c in cards.items() if c["army"] == "british")
    other_terrain = next(n for n, c in cards.items() if c["army"] == "french"
                         and c["type"] == "terrain" and c["terrain_battle"] != "waterloo")
    bad_entries = [DeckEntry(chosen[0]), *valid.entries[:32], DeckEntry(british),
                   DeckEntry(other_terrain), DeckEntry(9999)]
    invalid = Deck("waterloo", "french", "dealt", 1, bad_entries, True)
    troops = [n for n in pool if cards[n]["type"] in TROOP_TYPES]
    custom_entries = [DeckEntry(n, 3, "bronze") for n in troops[:8]]
    custom_entries += [DeckEntry(n) for n in pool[:12] if cards[n]["type"] != "terrain"][:12]
    custom = Deck("waterloo", "french", "custom", 1, custom_entries)
    assert validate(valid, cards).valid
    return {"valid dealt cards": (valid, None), "valid + collection": (valid, owned),
            "invalid, no collection": (invalid, {}), "custom with copies": (custom, None)}


def rate(fn, seconds: float, rounds: int = 5) -> float:
    """Calls per CPU second of fn (this process's CPU time, so other processes on a shared
    machine do not count against us): the best of `rounds` runs of seconds/rounds each, after
    a warm-up (best, as timeit does)."""
    for _ in range(200):
        fn()
    best = 0.0
    for _ in range(rounds):
        done, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / rounds:
            for _ in range(250):
                fn()
            done += 250
        best = max(best, done / elapsed)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()
    if not CATALOGUE.exists():
        print(f"no catalogue at {CATALOGUE}", file=sys.stderr)
        return 2
    cards = load_cards()
    mixes = decks(cards)
    print(f"Deck rules, 36-card decks, one core, Python {sys.version.split()[0]}")
    for name, (deck, owned) in mixes.items():
        per_second = rate(lambda d=deck, o=owned: validate(d, cards, o), args.seconds)
        print(f"  validate  {name:<22} {per_second:>10,.0f} /s  "
              f"({1e6 / per_second:.1f} us each)")
    items = list(mixes.values())
    index = 0

    def mixed() -> None:
        nonlocal index
        deck, owned = items[index % len(items)]
        index += 1
        validate(deck, cards, owned)

    overall = rate(mixed, args.seconds)
    valid_deck = items[0][0]
    code = encode(valid_deck)
    text = format_decklist(valid_deck, cards)
    codes = rate(lambda: decode(encode(valid_deck)), 1)
    lists = rate(lambda: parse_decklist(format_decklist(valid_deck, cards), cards), 1)
    print(f"  deck code encode+decode          {codes:>10,.0f} /s  ({len(code)} characters)")
    print(f"  deck list format+parse           {lists:>10,.0f} /s  "
          f"({len(text.splitlines())} lines)")
    verdict = "met" if overall >= TARGET_PER_SECOND else "NOT met"
    print(f"validations/s (mixed, 36-card decks): {overall:,.0f}  "
          f"target >= {TARGET_PER_SECOND:,}/s: {verdict}")
    return 0 if overall >= TARGET_PER_SECOND else 1


if __name__ == "__main__":
    sys.exit(main())
