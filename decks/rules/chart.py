"""Deck scales (2.0): reading a scale, and which scales a battle allows. The chart and a
deck's figures live in the pure ``game`` package (``game.chart``, ``game.figures``); the
vocabulary is re-exported here for the deck rules' many callers.

Scales are exact fractions (``Fraction``), never floats, so 1/3 is 1/3 and a deck size is
either whole or not: D x scale must be whole for every army of the battle (2.0: the ratio
holds). How Muster, rate and BP limit round is ``game.figures``' docstring.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from game import ARMIES, ARMY_NAMES, BATTLE_NAMES, BATTLES, BATTLES_CHART, ChartEntry, chart_entry
from game.figures import round_half_up

__all__ = [
    "ARMIES", "ARMY_NAMES", "BATTLES", "BATTLES_CHART", "BATTLE_NAMES", "KINDS", "MAX_SCALE",
    "MIN_SCALE", "PRINTINGS", "ChartEntry", "as_scale", "chart_entry", "format_scale",
    "round_half_up", "scale_problem", "scale_step",
]

KINDS = ("dealt", "custom", "campaign")  # deck-code order (deck_code.py); never reorder;
# index 0 was "standard" (2.0 dealt; old codes holding cards read as custom)
PRINTINGS = ("gold", "silver", "bronze")  # 18.0: finishes, no effect on play

MIN_SCALE = Fraction(0)  # exclusive
MAX_SCALE = Fraction(4)  # inclusive


def as_scale(value: object) -> Fraction | None:
    """A scale as an exact fraction: 1, 0.5, "0.5", "1/3", Fraction, Decimal; None if not a number.

    Floats go through their shortest decimal text, so 0.1 is 1/10 and not 3602879701896397/2**55.
    """
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, Fraction):
            return value
        if isinstance(value, int):
            return Fraction(value)
        if isinstance(value, float):
            return Fraction(repr(value)) if math.isfinite(value) else None
        if isinstance(value, Decimal):
            return Fraction(value) if value.is_finite() else None
        if isinstance(value, str):
            text = value.strip()
            if not text or len(text) > 40:
                return None
            return Fraction(text)
    except (ValueError, ZeroDivisionError, ArithmeticError):
        return None
    return None


def format_scale(scale: Fraction) -> str:
    """'1', '1/2', '3/2' (exact; the form as_scale reads back)."""
    return str(scale)


def _format_size(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.4g}"


def scale_step(battle: str) -> Fraction:
    """The smallest scale that keeps every deck of the battle whole: 1 / gcd of the D values."""
    sizes = [entry.deck for entry in BATTLES_CHART[battle].values()]
    return Fraction(1, math.gcd(*sizes))


@lru_cache(maxsize=1024)
def scale_problem(battle: str, scale: Fraction | None, *, fixed_size: bool) -> str | None:
    """Why a scale is not allowed for a battle (2.0), or None if it is.

    ``fixed_size``: the deck kind has a D-sized deck (dealt), so D x scale must be whole for
    every army of the battle; otherwise (custom, campaign) only 0 < scale <= 4 is required.
    """
    if scale is None:
        return "2.0: the scale is not a number (write it like 1, 0.5 or 1/3)"
    if not MIN_SCALE < scale <= MAX_SCALE:
        return (f"2.0: scale {format_scale(scale)} is out of range; a scale must be more than 0 "
                f"and at most {MAX_SCALE}")
    if not fixed_size or battle not in BATTLES_CHART:
        return None
    row = BATTLES_CHART[battle]
    sizes = {army: entry.deck * scale for army, entry in row.items()}
    if all(size.denominator == 1 for size in sizes.values()):
        return None
    step = scale_step(battle)
    gives = ", ".join(f"{_format_size(size)} {ARMY_NAMES[army]}" for army, size in sizes.items())
    half = {army: entry.deck * Fraction(1, 2) for army, entry in row.items()}
    example = "/".join(_format_size(size) for size in half.values())
    return (f"2.0: scale {format_scale(scale)} would give {BATTLE_NAMES[battle]} decks of "
            f"{gives} cards; the ratio between the armies' decks must hold with whole decks, "
            f"so the scale must be a multiple of {step} (for example 1/2 gives {example})")
