"""The ``veteran`` bot: ``greedy``'s heuristics with the lessons of playing against it.

Built from two mixins over ``GreedyBot``: ``DeployMixin`` (deployment and reinforcement,
``veteran_deploy.py``) and ``CombatMixin`` (the combat and morale phases,
``veteran_combat.py``). It reads only the view and the legal actions, as greedy does; its
rules and their measured worth are in README.md ("veteran"). Pure: no Django.
"""

from __future__ import annotations

from .greedy import GreedyBot
from .veteran_combat import CombatMixin
from .veteran_deploy import DeployMixin


class VeteranBot(DeployMixin, CombatMixin, GreedyBot):
    name = "veteran"
