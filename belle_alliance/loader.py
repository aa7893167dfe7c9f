"""Reads a card-data file (outside the pure engine, which is handed the data)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from .engine.cards import CardData, parse_cards

DATA_DIR = Path(__file__).resolve().parent / "data"
HOUSE = "house-v2"


def load_cards(path: str | Path) -> CardData:
    """The ``CardData`` of a JSON file (``CardDataError`` if it does not fit)."""
    with open(path, encoding="utf-8") as f:
        return parse_cards(json.load(f))


@cache
def edition(name: str = HOUSE) -> CardData:
    """A shipped edition by name (``data/<name>.json``), read once."""
    return load_cards(DATA_DIR / f"{name}.json")
