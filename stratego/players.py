"""The computer players by name: ``random`` and ``greedy`` (``bots``), ``search``
(``search``, which plays the greedy policy out: it imports ``bots``, so the names are
gathered here, above both)."""

from __future__ import annotations

from typing import Any

from .bots import GreedyBot, RandomBot
from .engine.pieces import PieceTable
from .search import SearchBot


def make_bot(name: str, table: PieceTable, **options: Any) -> Any:
    """``random``, ``greedy`` or ``search`` (``stratego.search``; options: ``budget``, the CPU
    seconds per decision, ``samples``, ``candidates``). ``greedy`` and ``search`` take
    ``setup``: "plan" (their own set-up, ``setup_policy``; the default) or "random"."""
    if name == "search":
        return SearchBot(table, **options)
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot(table, **options)
    raise ValueError(f"no Stratego bot named {name!r}")
