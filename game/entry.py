"""One cell of a battles chart: the type of the Battles Chart (``game.chart``) and of the
campaign-only row (``game.campaign``), kept apart so that neither imports the other's module
for it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChartEntry:
    """One cell: D (2.0), M (3.0; None: no Muster), R (10.0) and BP (15.0)."""

    deck: int
    muster: int | None
    reinforcements: int
    bp: int
