"""A deck request: battle, army, kind, scale and entries (card number, count, optional printing).

Plain values only: the Django layer builds a ``Deck`` from its models, the deck code and the
deck-list text format build one from strings. Entries are kept as given (so validation can
report a bad count or an unknown printing); ``canonical()`` merges and sorts them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from .chart import PRINTINGS

# Sort order of printings inside one card number: no preference first, then Gold, Silver, Bronze.
PRINTING_ORDER: dict[str | None, int] = {
    None: 0, **{name: i + 1 for i, name in enumerate(PRINTINGS)}}


class DeckEntry(NamedTuple):
    """``count`` copies of card ``number``; ``printing`` is a preferred finish or None (any).

    A named tuple, not a dataclass: decks are built and compared in hot loops (validation,
    deck codes), and tuples are several times cheaper to create.
    """

    number: int
    # The field shadows tuple.count (the method), as intended: mypy reports any such field.
    count: int = 1  # type: ignore[assignment]
    printing: str | None = None


@dataclass(frozen=True, slots=True)
class Deck:
    battle: str
    army: str
    kind: str = "dealt"  # dealt (2.0), custom (15.0) or campaign (16.0)
    scale: Fraction | int | float | str = 1
    entries: tuple[DeckEntry, ...] = field(default=())
    historical: bool = False  # 2.0 optional: every card fought in this battle
    # Dealt decks (2.0) only: where the cards are dealt from, "collection" (the copies the
    # owner has) or "set" (the whole catalogue). A dealt deck's entries, if any, are the cards
    # dealt; the deck a player saves holds none.
    pool: str = "collection"

    def __post_init__(self) -> None:
        if not isinstance(self.entries, tuple):
            object.__setattr__(self, "entries", tuple(self.entries))

    def counts(self) -> dict[int, int]:
        """Copies per card number, all printings together (positive counts only)."""
        return card_counts(self.entries)

    def canonical(self) -> Deck:
        """The same deck with entries merged per (number, printing) and sorted."""
        return Deck(self.battle, self.army, self.kind, self.scale,
                    canonical_entries(self.entries), self.historical, self.pool)


def card_counts(entries: Iterable[DeckEntry]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for entry in entries:
        if type(entry.count) is int and entry.count > 0:
            counts[entry.number] = counts.get(entry.number, 0) + entry.count
    return counts


class CanonicalEntries(tuple):
    """Entries as ``canonical_entries`` returns them: a plain tuple that remembers it is already
    merged and sorted, so canonicalising it again (a deck code of a checked deck) is free."""

    __slots__ = ()


def canonical_entries(entries: Iterable[DeckEntry]) -> tuple[DeckEntry, ...]:
    """Merge entries with the same (number, printing), drop non-positive counts, sort."""
    if type(entries) is CanonicalEntries:
        return entries
    merged: dict[tuple[int, str | None], int] = {}
    for entry in entries:
        if type(entry.count) is int and entry.count > 0:
            key = (entry.number, entry.printing)
            merged[key] = merged.get(key, 0) + entry.count
    keys = sorted(merged, key=lambda k: (k[0], PRINTING_ORDER.get(k[1], 9), str(k[1])))
    return CanonicalEntries(DeckEntry(number, merged[number, printing], printing)
                            for number, printing in keys)
