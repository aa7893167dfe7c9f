"""The four battles of EAGLES: Waterloo (introduction), in campaign order (16.0)."""

from __future__ import annotations

BATTLES: tuple[str, ...] = ("quatre-bras", "ligny", "wavre", "waterloo")
BATTLE_NAMES: dict[str, str] = {"quatre-bras": "Quatre Bras", "ligny": "Ligny",
                                "wavre": "Wavre", "waterloo": "Waterloo"}
