"""How a deck of ``size`` places is shared over the card types of a pool: one rule for every
default deck (the engine's historical deck, 2.0 note) and the campaign's split proposals.

Largest remainder over the types' shares of the pool (RULINGS 4.1-d), then every type
present in the pool keeps at least one place when the deck has a place for each type
(RULINGS 4.1-e, issue 29): without it a type of one card in a large pool (the Prussian
Wavre pool's one General, 12/23 of a place) rounds to none and no default deck holds it.
The place is taken from the type most over its share (ties: type name).
"""

from __future__ import annotations

from collections.abc import Mapping


def apportion(counts: Mapping[str, int], size: int) -> dict[str, int]:
    """type -> places, summing to ``min(size, pool)``, each at most the type's count."""
    total = sum(counts.values())
    size = min(size, total)
    if total == 0 or size <= 0:
        return {kind: 0 for kind in counts}
    # floats, as the engine's default decks have always been dealt (the golden replays)
    shares = {kind: n * size / total for kind, n in sorted(counts.items())}
    quota = {kind: int(share) for kind, share in shares.items()}
    by_remainder = sorted(shares, key=lambda kind: (quota[kind] - shares[kind], kind))
    for kind in by_remainder[: size - sum(quota.values())]:
        quota[kind] += 1
    present = [kind for kind in shares if counts[kind] > 0]
    if size >= len(present):
        for kind in sorted((k for k in present if quota[k] == 0),
                           key=lambda k: (-shares[k], k)):
            donor = max((k for k in present if quota[k] > 1),
                        key=lambda k: (quota[k] - shares[k], k))
            quota[donor] -= 1
            quota[kind] = 1
    return quota
