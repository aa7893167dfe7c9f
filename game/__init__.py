"""What the game is, in one pure package (no Django, ever): battles, armies, sides, card and
troop types, the ending actions, the Battles Chart (3.0) and a deck's figures (2.0, 3.0,
15.0, 16.0).

The engine, the deck rules, the bots, the renderers and the model choices all import these
names from here, so a name, a colour or a chart figure is written once.
"""

from .actions import ENDING_ACTIONS
from .apportion import apportion
from .armies import ARMIES, ARMY_COLOURS, ARMY_FULL_NAMES, ARMY_NAMES, ARMY_TINTS
from .battles import BATTLE_NAMES, BATTLES
from .campaign import CAMPAIGN_BATTLE_NAMES, CAMPAIGN_BATTLES, CAMPAIGN_CHART
from .card_types import CARD_TYPES, TROOP_TYPES
from .chart import BATTLES_CHART, armies_at, chart_entry, chart_row
from .entry import ChartEntry
from .figures import DECK_KINDS, DeckFigures, deck_figures, normal_kind, round_half_up
from .sides import ARMY_SIDE, SIDE_NAMES, SIDES, other_side, side_of

__all__ = [
    "ARMIES", "ARMY_COLOURS", "ARMY_FULL_NAMES", "ARMY_NAMES", "ARMY_SIDE", "ARMY_TINTS",
    "BATTLES", "BATTLES_CHART", "BATTLE_NAMES", "CAMPAIGN_BATTLES", "CAMPAIGN_BATTLE_NAMES",
    "CAMPAIGN_CHART", "CARD_TYPES", "chart_row", "DECK_KINDS", "ENDING_ACTIONS", "SIDES",
    "SIDE_NAMES", "TROOP_TYPES",
    "ChartEntry", "DeckFigures", "apportion", "armies_at", "chart_entry", "deck_figures",
    "normal_kind", "other_side", "round_half_up", "side_of",
]
