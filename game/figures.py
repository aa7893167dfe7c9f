"""A deck's figures: its size, Muster, reinforcement rate and BP limit, by one rule each.

``deck_figures`` is the one function the deck validator and the battle engine both call
(see battles/engine/RULINGS.md, 3.0). Scales are exact fractions. Rounding:

- dealt deck (2.0): size D x scale (None if not whole); Muster M x scale and rate R x scale
  rounded half up, at least 1, the Muster at most the deck;
- custom deck (15.0): Muster = size // 2; rate R x size / D rounded half up, at least 1 (3.0
  IMPORTANT: rates follow the deck's size, whatever its BP scale);
- campaign deck (16.0): Muster = size // 2; rate 2R x scale, scaled down with a deck smaller
  than D x scale (``campaign_rate``), rounded half up, at least 1;
- every kind: BP limit = BP x scale rounded down; Waterloo Prussians have no Muster (3.0 NOTE);
  Wavre Prussians muster their whole dealt deck, M12 = D12 (RULINGS 3.0-b).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .campaign import CAMPAIGN_BATTLES
from .chart import chart_entry

DECK_KINDS: tuple[str, ...] = ("dealt", "custom", "campaign")
_ALIASES = {"standard": "dealt"}  # the old name of a dealt deck, still accepted


def normal_kind(kind: str) -> str | None:
    """``dealt``, ``custom`` or ``campaign`` (``standard`` reads as ``dealt``); None if unknown."""
    kind = _ALIASES.get(kind, kind)
    return kind if kind in DECK_KINDS else None


def round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


@dataclass(frozen=True, slots=True)
class DeckFigures:
    """None where a figure is unknown (no usable scale or size); ``muster`` None: no Muster."""

    size: int | None  # dealt: D x scale (None if not whole); custom/campaign: the size given
    muster: int | None
    reinforcement_rate: int | None
    bp_limit: int | None


def deck_figures(battle: str, army: str, kind: str, scale: Fraction | int | None = 1,
                 size: int | None = None) -> DeckFigures | None:
    """The figures of one deck; None if the army did not fight the battle or the kind is
    unknown. ``size`` is the deck's card count (needed for custom and campaign decks)."""
    entry = chart_entry(battle, army)
    kind_name = normal_kind(kind) if isinstance(kind, str) else None
    if entry is None or kind_name is None:
        return None
    if isinstance(scale, int) and not isinstance(scale, bool):
        scale = Fraction(scale)
    usable = scale if isinstance(scale, Fraction) and scale > 0 else None  # None: no scale
    bp_limit = math.floor(entry.bp * usable) if usable is not None else None
    muster: int | None
    rate: int | None
    if kind_name == "dealt":
        if usable is None:
            return DeckFigures(None, None, None, None)
        whole = entry.deck * usable
        dealt = whole.numerator if whole.denominator == 1 else None
        # 3.0 NOTE: Waterloo Prussians have no Muster (entry.muster None)
        muster = None if entry.muster is None else max(1, round_half_up(entry.muster * usable))
        if muster is not None and dealt is not None:
            muster = min(muster, dealt)  # Wavre Prussians: M12 = D12 stays the whole deck
        rate = max(1, round_half_up(entry.reinforcements * usable))
        return DeckFigures(dealt, muster, rate, bp_limit)
    # 15.0, 16.0: "Musters should equal 50% (round down)" of the deck.
    muster = None if entry.muster is None or size is None else size // 2
    if kind_name == "custom":
        rate = (None if size is None
                else max(1, round_half_up(Fraction(entry.reinforcements * size, entry.deck))))
    else:
        rate = campaign_rate(battle, entry.reinforcements, entry.deck, usable, size)
    return DeckFigures(size, muster, rate, bp_limit)


def campaign_rate(battle: str, chart_rate: int, chart_deck: int, scale: Fraction | None,
                  size: int | None) -> int | None:
    """16.0: "Reinforcement rates (assuming most cards are in play) are double the rates
    note[d] on the Battle Chart": 2R x scale for a deck of at least the chart's D x scale (with
    most cards in play every campaign deck is: 1.6 to 3.2 D from the whole set); a smaller
    deck scales it with its size, 3.0 IMPORTANT ("if players play with larger/smaller Battle
    Decks, the specified Musters and Reinforcement rates are altered proportionally"):
    2R x size / D, rounded half up, at least 1 (RULINGS 16-c). Charleroi: 16.0 prints its
    rates without that assumption (its D is ours, nominal), so they stand as printed."""
    if scale is None:
        return None
    if battle in CAMPAIGN_BATTLES:
        return max(1, round_half_up(chart_rate * scale))
    doubled = 2 * chart_rate * scale
    full = chart_deck * scale
    if size is not None and size < full:
        doubled = doubled * size / full
    return max(1, round_half_up(doubled))
