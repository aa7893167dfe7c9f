"""Shared by the La Belle Alliance tests: the editions, a game with changes, actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from belle_alliance import engine as e
from belle_alliance.loader import edition, load_cards

FIXTURE = Path(__file__).with_name("fixture-v1.json")


@cache
def fixture() -> e.CardData:
    """The test edition: every attack reads, for the acting side, 1 own casualty, 2 own
    morale 2, 3 enemy casualty, 4 enemy morale 2, 5 a casualty each, 6 two enemy casualties
    and enemy morale 1 (and its capture)."""
    return load_cards(FIXTURE)


def house() -> e.CardData:
    return edition()


def game(cards: e.CardData | None = None, phase: str = "french") -> e.State:
    s = e.new_game(cards or fixture())
    s.phase = phase
    return s


def fill(s: e.State, side: str, card: str, n: int) -> None:
    """Move ``n`` markers of ``card`` onto ``side``'s casualty track (markers conserved)."""
    s.markers[card] -= n
    s.tracks[side].extend([card] * n)


def act(card: str, action: str = "attack", target: str | None = None,
        napoleon: bool | None = None, side: str = "french") -> dict[str, Any]:
    a: dict[str, Any] = {"type": "act", "card": card, "action": action, "target": target}
    if side == "french":
        a["napoleon"] = bool(napoleon)
    return a


def fr(card: str, target: str | None = None, action: str = "attack",
       napoleon: bool = False) -> dict[str, Any]:
    return act(card, action, target, napoleon, "french")


def al(card: str, target: str | None = None, action: str = "attack") -> dict[str, Any]:
    return act(card, action, target, None, "allied")


def kinds(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [ev for ev in events if ev["type"] == kind]
