"""Campaign players: the battle bots (battles.bots) plus the campaign decisions.

``CampaignBot(name, cards).choose(view, legal, rng)`` sees only ``view(campaign, side)`` and
the legal actions. Battle actions go to the wrapped bot with that board's view; splits,
retreats and reinforcements are decided here:

- split: ``random`` picks a proposal at random, ``greedy`` the first (historical) one;
- reinforce: ``random`` at random, ``greedy`` always reinforces;
- retreat (when offered): ``greedy`` retreats when the battle looks lost anyway
  (``lost_anyway``): its cards at that battle (field, Reserve, decks) are under half the
  enemy's and it has lost more cards there than the enemy; ``random`` retreats one time in
  twenty. Tuned with ``bench/campaign_retreat.py`` and ``simulate_campaign`` (README.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from battles.bots import get_bot
from battles.engine import CardTable
from game import other_side, side_of

RETREAT_SHARE = 1 / 2
RETREAT_ONLY_LOSING = True
RANDOM_RETREAT = 0.05


def _strength(board: dict[str, Any], side: str) -> int:
    on_field = sum(1 for p in board["pieces"] if p["side"] == side)
    reserve = board["reserves"][side]["count"]
    decks = sum(n for army, n in board["decks"].items() if side_of(army) == side)
    return on_field + reserve + decks


def lost_anyway(board: dict[str, Any], side: str, share: float | None = None,
                losing: bool | None = None) -> bool:
    """Whether ``side``'s battle on ``board`` (its own view) looks lost anyway: its cards
    there (field, Reserve, decks) are under ``share`` of the enemy's and, with ``losing``,
    it has also lost more cards there than the enemy (the battle goes against it, not
    merely a smaller army by the split). Tuned in README.md."""
    share = RETREAT_SHARE if share is None else share
    losing = RETREAT_ONLY_LOSING if losing is None else losing
    foe = other_side(side)
    if _strength(board, side) >= share * _strength(board, foe):
        return False
    return not losing or len(board["eliminated"][side]) > len(board["eliminated"][foe])


class CampaignBot:
    def __init__(self, name: str, cards: CardTable | Iterable[Mapping[str, Any]] | None = None
                 ) -> None:
        self.name = name
        self.bot = get_bot(name, cards)
        self.needs_view = name != "random"

    def choose(self, view: dict[str, Any] | None, legal: list[dict], rng: random.Random
               ) -> dict:
        kind = legal[0]["type"]
        if kind == "split":
            return legal[0] if self.name != "random" else legal[rng.randrange(len(legal))]
        if kind in ("reinforce", "keep"):
            return legal[0] if self.name != "random" else legal[rng.randrange(len(legal))]
        board = legal[0]["board"]
        retreat = next((a for a in legal if a["type"] == "retreat"), None)
        moves = [a for a in legal if a["type"] != "retreat"]
        if retreat is not None:
            if self.name == "random":
                if rng.random() < RANDOM_RETREAT:
                    return retreat
            elif view is not None and lost_anyway(view["boards"][board], retreat["side"]):
                return retreat
        plain = [{k: v for k, v in a.items() if k != "board"} for a in moves]
        bview = view["boards"][board] if (view is not None and self.bot.needs_view) else None
        pick = self.bot.choose(bview, plain, rng)
        return {**pick, "board": board}
