"""Which copies of a collection are free for a deck version: the one ownership rule (pure).

Imports nothing from Django; ``decks.selectors.free_copies`` reads the collection and the
committed versions and applies it for the builder, save, the deck list and tournament
registration alike.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping


def free_for(owned: Mapping[int, int], committed: Iterable[tuple[Hashable, Iterable]],
             version: Hashable | None = None) -> dict[int, int]:
    """Copies per card number free for ``version``: ``owned`` less the copies of every
    ``committed`` version but ``version`` itself.

    ``owned``: copies per card number (all printings together). ``committed``: (version key,
    stored entries ``[[number, count, printing], ...]``) of every version whose cards are held
    (a physical deck a tournament counts on). The copies committed to a version are held FOR
    it: they back that version and no other - not even another version of the same deck, nor
    an unsaved list (``version`` None). Several committed versions add up. Never negative.
    """
    free = dict(owned)
    for key, entries in committed:
        if version is not None and key == version:
            continue
        for number, count, *_printing in entries:
            if number in free:
                free[number] = max(0, free[number] - count)
    return free
