"""The piece table the engine is handed (``stratego/data/pieces-v1.json``, read by
``stratego.loader``): one ``PieceSpec`` per piece. The engine never reads a file."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

TYPES = ("light_infantry", "line_infantry", "light_cavalry", "heavy_cavalry", "artillery",
         "commander", "commander_in_chief")
# 001 §4: the back of a piece shows only its kind; commanders are light cavalry (§5).
BACK = {"light_infantry": "infantry", "line_infantry": "infantry",
        "light_cavalry": "cavalry", "heavy_cavalry": "cavalry", "commander": "cavalry",
        "commander_in_chief": "cavalry", "artillery": "artillery"}
CAVALRY = frozenset({"light_cavalry", "heavy_cavalry", "commander", "commander_in_chief"})
# 001 §7: light infantry 3 squares, line infantry 2, artillery 1 (cavalry: a line, §4).
INFANTRY_MOVE = {"light_infantry": 3, "line_infantry": 2, "artillery": 1}


@dataclass(frozen=True, slots=True)
class PieceSpec:
    id: str
    army: str
    name: str
    type: str
    strength: int | None  # None: artillery and commanders-in-chief (no strength printed)
    source: str

    @property
    def back(self) -> str:
        return BACK[self.type]


class PieceTable:
    """The pieces of one data version, by id, in the file's order."""

    def __init__(self, version: str, specs: Iterable[PieceSpec]) -> None:
        self.version = version
        self.specs: dict[str, PieceSpec] = {s.id: s for s in specs}

    def __getitem__(self, piece_id: str) -> PieceSpec:
        return self.specs[piece_id]

    def army(self, army: str) -> list[PieceSpec]:
        return [s for s in self.specs.values() if s.army == army]

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> PieceTable:
        """The table from the data file's JSON document (validated: a broken file fails)."""
        specs = []
        for p in doc["pieces"]:
            if p["type"] not in TYPES or p["army"] not in ("french", "allied", "prussian"):
                raise ValueError(f"bad piece: {p!r}")
            strength = p["strength"]
            if (strength is None) != (p["type"] in ("artillery", "commander_in_chief")):
                raise ValueError(f"bad strength: {p!r}")
            specs.append(PieceSpec(p["id"], p["army"], p["name"], p["type"], strength,
                                   p["source"]))
        table = cls(str(doc["version"]), specs)
        if len(table.specs) != len(specs):
            raise ValueError("duplicate piece ids")
        return table
