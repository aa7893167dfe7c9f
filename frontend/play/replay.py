"""What every game's replay page says of a replay book (``play.replays.ReplayBook``): whether
the dice re-derived from the revealed seed match those rolled, and whether the seed matches
the fingerprint shown from the start."""

from __future__ import annotations

import hashlib
from typing import Any

from play.replays import ReplayBook


def dice_sentence(book: ReplayBook, seed: Any) -> str:
    check = book.check
    if check.ok and not check.dice:  # nothing to compare: never "they match"
        return f"No dice were rolled, so there was nothing to re-derive from the seed {seed}"
    if check.ok:
        return (f"All {check.dice} dice rolls re-derived from the revealed seed {seed}: "
                "they match")
    return (f"The dice do not match: action {check.mismatch} replays differently from the "
            f"revealed seed {seed} ({check.detail})")


def seed_ok(match: Any) -> bool:
    """The revealed seed is the one whose hash was shown from the start (``play.seeds``)."""
    return hashlib.sha256(str(match.seed).encode()).hexdigest() == match.seed_hash
