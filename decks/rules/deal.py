"""Dealing a Battle Deck face-down from a named pool (2.0). Pure: no Django.

2.0: "Deal out (face-down) this number of cards." A dealt deck is never built card by card:
the player names a pool (the copies they own, or the whole set; optionally historical only,
the 2.0 note) and ``deal`` draws D x scale distinct cards from it with a random stream the
caller derives from the battle's secret seed, so the deal is checked with the seed at the end
like every roll.

Cards are the plain records of ``cards/data/catalogue.json`` (keys ``number``, ``army``,
``type``, ``battles``, ``terrain_battle``), keyed by number.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping


def pool_cards(records: Mapping[int, Mapping], battle: str, army: str,
               source_numbers: Iterable[int] | None = None, historical: bool = False
               ) -> list[int]:
    """The distinct card numbers a deal for ``army`` at ``battle`` may draw, sorted.

    ``source_numbers``: the numbers the player has (their collection; copies do not matter,
    2.0 forbids duplicates), or None for the whole set. Only the army's cards (2.0); Terrain
    only if it is this battle's (2.0: "Terrain cards should always be historical"); with
    ``historical`` every other card must have fought in the battle (the 2.0 note).
    """
    numbers = records.keys() if source_numbers is None else set(source_numbers)
    pool = []
    for number in numbers:
        card = records.get(number)
        if card is None or card.get("army") != army:
            continue
        if card.get("type") == "terrain":
            if card.get("terrain_battle") != battle:
                continue  # 2.0: terrain always historical, in every deal
        elif historical and battle not in (card.get("battles") or ()):
            continue
        pool.append(number)
    return sorted(pool)


def deal(pool: Iterable[int], size: int, rng: random.Random) -> list[int]:
    """``size`` distinct cards drawn uniformly without replacement from ``pool``, in dealing
    order. The pool is sorted first, so the deal depends only on its contents and ``rng``.
    Raises ``ValueError`` if the pool holds fewer than ``size`` distinct cards."""
    cards = sorted(set(pool))
    if size < 0 or size > len(cards):
        raise ValueError(f"cannot deal {size} cards from a pool of {len(cards)}")
    return rng.sample(cards, size)
