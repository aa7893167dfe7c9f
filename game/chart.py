"""The Battles Chart (3.0), value by value as printed in the rulebook."""

from __future__ import annotations

from .campaign import CAMPAIGN_CHART
from .entry import ChartEntry
from .sides import ARMY_SIDE, SIDES

# Armies in the order of the chart's columns (French, British, Prussian). Waterloo Prussians
# have no Muster (3.0 NOTE). Wavre Prussians M12 = D12 is kept as printed (RULINGS 3.0-b).
BATTLES_CHART: dict[str, dict[str, ChartEntry]] = {
    "quatre-bras": {
        "french": ChartEntry(14, 10, 1, 130),
        "british": ChartEntry(18, 9, 1, 160),
    },
    "ligny": {
        "french": ChartEntry(36, 18, 2, 330),
        "prussian": ChartEntry(40, 20, 2, 310),
    },
    "wavre": {
        "french": ChartEntry(16, 8, 1, 140),
        "prussian": ChartEntry(12, 12, 1, 90),
    },
    "waterloo": {
        "french": ChartEntry(36, 18, 2, 380),
        "british": ChartEntry(36, 18, 2, 360),
        "prussian": ChartEntry(24, None, 2, 190),
    },
}


def chart_entry(battle: str, army: str) -> ChartEntry | None:
    """The chart cell for an army at a battle, or None if that army did not fight there
    (the campaign-only Charleroi row of ``game.campaign`` included)."""
    return chart_row(battle).get(army)


def chart_row(battle: str) -> dict[str, ChartEntry]:
    """A battle's chart row: the Battles Chart, or the campaign-only row (16.0 Charleroi)."""
    return BATTLES_CHART.get(battle) or CAMPAIGN_CHART.get(battle, {})


def armies_at(battle: str, side: str | None = None) -> tuple[str, ...]:
    """The armies that fought ``battle`` (of ``side`` only, if given), in chart order."""
    return tuple(a for a in BATTLES_CHART[battle]
                 if side is None or SIDES[ARMY_SIDE[a]] == side)
