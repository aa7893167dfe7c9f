"""Computer players for the EAGLES battle engine (a pure package: no Django).

A bot sees only ``view(state, side)`` and the list of legal actions:

    bot = get_bot("greedy", cards)            # cards: the catalogue records (or a table)
    action = bot.choose(view, legal, rng)     # one of ``legal``; rng: random.Random

``bot.needs_view`` is False for bots that ignore the view (the simulator then skips building
it). Heuristics are described in README.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from battles.engine import native as _native

if TYPE_CHECKING:
    from battles.engine.cards import CardTable

if _native.ACTIVE is not None:  # the compiled engine's build holds greedy compiled with it
    __path__.insert(0, str(_native.ACTIVE / "battles" / "bots"))

from .base import Bot  # noqa: E402
from .greedy import GreedyBot  # noqa: E402
from .random_bot import RandomBot  # noqa: E402
from .search import EasySearchBot, HardSearchBot, SearchBot  # noqa: E402

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot,
                              "search-easy": EasySearchBot, "search": SearchBot,
                              "search-hard": HardSearchBot}


def get_bot(name: str, cards: CardTable | Iterable[Mapping[str, Any]] | None = None) -> Bot:
    """A fresh bot by name (``random``, ``greedy``, ``search-easy``, ``search`` (normal),
    ``search-hard``); KeyError for an unknown name. ``cards``:
    the public catalogue records (or a card table) for bots that read card values."""
    if name not in BOTS:
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}")
    # a bot class that needs_cards takes them (GreedyBot, SearchBot); Bot's own __init__ not
    make: Callable[..., Bot] = BOTS[name]
    return make(cards) if BOTS[name].needs_cards else make()


__all__ = ["BOTS", "Bot", "EasySearchBot", "GreedyBot", "HardSearchBot", "RandomBot",
           "SearchBot", "get_bot"]
