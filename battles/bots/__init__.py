"""Computer players for the EAGLES battle engine (a pure package: no Django).

A bot sees only ``view(state, side)`` and the list of legal actions:

    bot = get_bot("greedy", cards)            # cards: the catalogue records (or a table)
    action = bot.choose(view, legal, rng)     # one of ``legal``; rng: random.Random

``bot.needs_view`` is False for bots that ignore the view (the simulator then skips building
it). Heuristics are described in README.md.
"""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import EasySearchBot, HardSearchBot, SearchBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot,
                              "search-easy": EasySearchBot, "search": SearchBot,
                              "search-hard": HardSearchBot}


def get_bot(name: str, cards=None) -> Bot:
    """A fresh bot by name (``random``, ``greedy``, ``search-easy``, ``search`` (normal),
    ``search-hard``); KeyError for an unknown name. ``cards``:
    the public catalogue records (or a card table) for bots that read card values."""
    if name not in BOTS:
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}")
    return BOTS[name](cards) if BOTS[name].needs_cards else BOTS[name]()


__all__ = ["BOTS", "Bot", "EasySearchBot", "GreedyBot", "HardSearchBot", "RandomBot",
           "SearchBot", "get_bot"]
