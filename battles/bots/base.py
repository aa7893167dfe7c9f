"""The bot interface."""

from __future__ import annotations

import random
from typing import Any


class Bot:
    """A player: ``choose(view, legal, rng)`` returns one of ``legal``.

    ``view`` is ``battles.engine.view(state, side)`` (or None when ``needs_view`` is False);
    ``legal`` is ``legal_actions(state, side)`` (never empty); ``rng`` breaks ties. A bot must
    not read anything else about the state."""

    name = "bot"
    needs_view = True
    # False: given a single legal action the bot plays it without reading the view (the
    # simulator then skips building the view for it)
    view_if_forced = True
    needs_cards = False  # True: the constructor takes the catalogue's card records

    def choose(self, view: dict[str, Any] | None, legal: list[dict], rng: random.Random
               ) -> dict:
        raise NotImplementedError
