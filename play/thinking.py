"""A mark in the cache while a worker thinks the computer's turn (battles and campaigns).

The computer thinks outside any transaction, for seconds when it searches (up to its CPU
budget per decision). Meanwhile the periodic tick sees a battle waiting for the computer with
no new action and would send ``bot_move`` again, and a second worker would think the same
turn beside the first, only for one of them to be dropped. The mark stops both: ``claim`` is
atomic (``cache.add``: Redis in production, the worker process's memory with ``make run``,
where the tick runs in that process too), the thinker refreshes it before each decision and
releases it when done; a worker that dies mid-thought leaves a mark that lapses after
``settings.EAGLES_THINKING_SECONDS``, and the tick sends the move again."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache


def ttl() -> int:
    """Seconds without a refresh before a mark lapses."""
    return int(settings.EAGLES_THINKING_SECONDS)


class Thinking:
    def __init__(self, kind: str, pk: int, seq: int) -> None:
        self.key = key(kind, pk, seq)

    def claim(self) -> bool:
        """True if no one else is thinking this turn (the mark is now ours)."""
        return bool(cache.add(self.key, 1, ttl()))

    def refresh(self) -> None:
        cache.set(self.key, 1, ttl())

    def release(self) -> None:
        cache.delete(self.key)


def key(kind: str, pk: int, seq: int) -> str:
    return f"eagles:thinking:{kind}:{pk}:{seq}"


def busy(kind: str, turns: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """The (pk, seq) of ``turns`` a worker is thinking now."""
    keys = {key(kind, pk, seq): (pk, seq) for pk, seq in turns}
    return {keys[k] for k in cache.get_many(list(keys))} if keys else set()
