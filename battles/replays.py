"""A battle's replays and export, bound to the battle (``play.replays`` does the work, for
every game): the names the battle's API, its replay page and its tests have always used.

- ``replayable(user, battle_id)``: the finished battle ``user`` may replay, or the refusal
  (404; 409 ``battle_not_over``).
- ``export(battle)``: the ``eagles-battle/1`` document (``battles.kind.export_setup``) that
  ``battles.engine.replay_file`` replays offline with no Django.
- ``replay_book(battle, keep=None)``: the battle rebuilt from its revealed seed, every die
  checked (``play.replays.ReplayBook``: its ``all`` viewpoint is ``modules.merged_view``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from play import replays
from play.replays import DiceCheck, ReplayBook, Step

from .kind import KIND
from .models import Battle

__all__ = ["DiceCheck", "ReplayBook", "Step", "export", "replay_book", "replayable"]


def replayable(user, battle_id) -> Battle:
    return replays.replayable(KIND, user, battle_id)


def export(battle: Battle) -> dict[str, Any]:
    return replays.export(KIND, battle)


def replay_book(battle: Battle, keep: Callable[[int, int], bool] | None = None
                ) -> ReplayBook:
    return replays.replay_book(KIND, battle, keep)
