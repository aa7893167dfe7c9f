"""Reads the versioned piece data (outside the engine core, which is handed the table)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from .engine.pieces import PieceTable

DATA = Path(__file__).resolve().parent / "data"
CURRENT = "pieces-v1.json"


@cache
def load_pieces(name: str = CURRENT) -> PieceTable:
    with open(DATA / name, encoding="utf-8") as f:
        return PieceTable.from_doc(json.load(f))
