"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

import random
from typing import Any

from .base import Bot


class RandomBot(Bot):
    name = "random"
    needs_view = False

    def choose(self, view: dict[str, Any] | None, legal: list[dict], rng: random.Random
               ) -> dict:
        return legal[rng.randrange(len(legal))]
