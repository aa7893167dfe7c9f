"""A match's secret seed and its published hash (pure).

The seed fixes a match's deal and dice; it stays on the server until the match ends. Its
sha256 is shown from the start, so that both players can check afterwards that no roll was
changed (ARCHITECTURE, "Battles are event logs")."""

from __future__ import annotations

import hashlib
import secrets


def new_seed() -> int:
    """A fresh secret seed (63 bits: fits a signed BIGINT)."""
    return secrets.randbits(63)


def seed_hash(seed: int) -> str:
    """The sha256 hex of ``str(seed)``: what a player may check the revealed seed against."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
