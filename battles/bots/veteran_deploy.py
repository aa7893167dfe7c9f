"""``veteran``'s deployment and reinforcement rules (a mixin over ``GreedyBot``)."""

from __future__ import annotations


class DeployMixin:
    """Overrides of ``GreedyBot``'s scoring for deployment (4.1) and reinforcement (10.0)."""
