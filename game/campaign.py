"""The campaign-only battle (16.0): the non-historical Battle of Charleroi.

16.0 names it and gives its Muster (50 %) and rates (R2 British, R2 Prussian in separate decks,
R3 French) but the Battles Chart has no row for it, and no card lists it among its battles:
this row is our design (battles/engine/RULINGS.md, campaign ruling 16-m). Only a campaign
plays it; ``BATTLES_CHART`` and ``BATTLES`` (the four historical battles) do not list it.
"""

from __future__ import annotations

from .entry import ChartEntry

CAMPAIGN_BATTLES: tuple[str, ...] = ("charleroi",)
CAMPAIGN_BATTLE_NAMES: dict[str, str] = {"charleroi": "Charleroi"}
# D and BP are nominal (a campaign deck holds every surviving card, 16.0); M is half the deck;
# R is printed in 16.0 itself, so a campaign deck there is not doubled (game.figures).
CAMPAIGN_CHART: dict[str, dict[str, ChartEntry]] = {
    "charleroi": {
        "french": ChartEntry(48, 24, 3, 450),
        "british": ChartEntry(32, 16, 2, 300),
        "prussian": ChartEntry(32, 16, 2, 280),
    },
}
