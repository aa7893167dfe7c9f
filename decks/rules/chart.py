"""The Battles Chart (3.0) as data, and how a deck scale changes its figures (2.0, 3.0, 15.0, 16.0).

Scales are exact fractions (``Fraction``), never floats, so 1/3 is 1/3 and a deck size is
either whole or not. Rounding, chosen once and used everywhere:

- deck size D x scale must be whole for every army of the battle (2.0: the ratio holds);
- muster M x scale and reinforcement rate R x scale round half up, and are at least 1;
- the BP limit is BP x scale rounded down: a deck's BP total is whole, so "total <= limit"
  is then exactly "total does not exceed BP x scale" (15.0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

BATTLES = ("quatre-bras", "ligny", "wavre", "waterloo")
ARMIES = ("french", "british", "prussian")
KINDS = ("dealt", "custom", "campaign")  # 2.0 dealt (was "standard"), 15.0, 16.0
PRINTINGS = ("gold", "silver", "bronze")  # 18.0: finishes, no effect on play

BATTLE_NAMES = {"quatre-bras": "Quatre Bras", "ligny": "Ligny", "wavre": "Wavre",
                "waterloo": "Waterloo"}
ARMY_NAMES = {"french": "French", "british": "British", "prussian": "Prussian"}

MIN_SCALE = Fraction(0)  # exclusive
MAX_SCALE = Fraction(4)  # inclusive


@dataclass(frozen=True, slots=True)
class ChartEntry:
    """One cell of the Battles Chart: D, M (None: no muster), R and BP."""

    deck: int
    muster: int | None
    reinforcements: int
    bp: int


# 3.0 Battles Chart. Waterloo Prussians: no muster, the whole deck is a reinforcement deck.
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
    """The chart cell for an army at a battle, or None if that army did not fight there."""
    return BATTLES_CHART.get(battle, {}).get(army)


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


def round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


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


@dataclass(frozen=True, slots=True)
class Figures:
    """The chart figures for one deck request, scaled; None where a figure does not apply."""

    required_size: int | None  # dealt decks only: D x scale (None if not whole)
    bp_limit: int | None  # BP x scale, rounded down
    muster: int | None  # None: no muster (Waterloo Prussians) or depends on the deck size
    reinforcement_rate: int | None
    muster_is_half: bool  # custom and campaign decks: muster is half the deck, rounded down


@lru_cache(maxsize=1024)
def figures(battle: str, army: str, kind: str, scale: Fraction | None) -> Figures | None:
    """Scaled D, BP, M and R for a deck request; None if the army did not fight that battle.

    - dealt (2.0, 3.0): D, M and R all scale; M and R round half up, at least 1.
    - custom (15.0): size free, BP limit scales, muster is half the deck (rounded down), R scales.
    - campaign (16.0): size free, muster is half the deck (rounded down), R is doubled and scales.
    - Waterloo Prussians (3.0 NOTE): no muster in any kind; the whole deck is reinforcements.
    With no usable scale (not a number, or not more than 0) only the unscaled shape is known.
    """
    entry = chart_entry(battle, army)
    if entry is None or kind not in KINDS:
        return None
    usable = scale is not None and scale > 0
    no_muster = entry.muster is None
    if kind == "dealt":  # 2.0: D x scale cards dealt from a pool
        if not usable:
            return Figures(None, None, None, None, False)
        size = entry.deck * scale
        required = size.numerator if size.denominator == 1 else None
        muster = None if no_muster else max(1, round_half_up(entry.muster * scale))
        if muster is not None and required is not None:
            muster = min(muster, required)
        rate = max(1, round_half_up(entry.reinforcements * scale))
        return Figures(required, math.floor(entry.bp * scale), muster, rate, False)
    rate_base = entry.reinforcements * (2 if kind == "campaign" else 1)
    if not usable:
        return Figures(None, None, None, None, not no_muster)
    rate = max(1, round_half_up(rate_base * scale))
    return Figures(None, math.floor(entry.bp * scale), None, rate, not no_muster)
