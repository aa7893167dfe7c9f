"""The catalogue data file, read once: the one loader for code outside the engine.

Pure (no Django): the CLI, the simulator, the benchmarks and the tests take their card records
from here and hand them to ``battles.engine.new_battle``; the engine never reads a file. The
online service uses the database catalogue instead (``battles.services``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

CATALOGUE_PATH = Path(__file__).resolve().parent.parent / "data" / "catalogue.json"


@lru_cache(maxsize=4)
def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def catalogue_records(path: Path = CATALOGUE_PATH) -> list[dict[str, Any]]:
    """Every card record of the data file (the keys of cards/data/catalogue.json)."""
    return _read(path)["cards"]


def catalogue_version(path: Path = CATALOGUE_PATH) -> str:
    """The ``version`` the data file carries."""
    return _read(path)["version"]
