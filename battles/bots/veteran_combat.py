"""``veteran``'s combat and morale rules (a mixin over ``GreedyBot``)."""

from __future__ import annotations


class CombatMixin:
    """Overrides of ``GreedyBot``'s scoring for the combat (7.0-9.0, 13.0) and morale
    (6.0) phases."""
