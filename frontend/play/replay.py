"""What every game's replay page says of a replay book (``play.replays.ReplayBook``): whether
the dice re-derived from the revealed seed match those rolled, and whether the seed matches
the fingerprint shown from the start; and the step a page shows (``replay_at``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest

from config.errors import ServiceError
from play import replays
from play.registry import MatchKind
from play.replays import ReplayBook

from .frame import int_or_raw


def dice_sentence(book: ReplayBook, seed: Any) -> str:
    check = book.check
    if check.ok and not check.dice:  # nothing to compare: never "they match"
        return f"No dice were rolled, so there was nothing to re-derive from the seed {seed}"
    if check.ok:
        return (f"All {check.dice} dice rolls re-derived from the revealed seed {seed}: "
                "they match")
    return (f"The dice do not match: action {check.mismatch} replays differently from the "
            f"revealed seed {seed} ({check.detail})")


def seed_ok(match: Any) -> bool:
    """The revealed seed is the one whose hash was shown from the start (``play.seeds``)."""
    return hashlib.sha256(str(match.seed).encode()).hexdigest() == match.seed_hash


@dataclass(frozen=True)
class ReplayAt:
    """A finished match's replay at the step a page shows (``replay_at``)."""

    match: Any
    book: ReplayBook
    step: int
    last: int

    @property
    def at(self) -> Any:
        """The step's record (who acted, its events)."""
        return self.book.steps[self.step]

    def context(self) -> dict[str, Any]:
        """What every replay page shows of it: the step, its neighbours, the dice and seed
        checks."""
        m = self.match
        return {"m": m, "step": self.step, "last": self.last, "prev": max(self.step - 1, 0),
                "next": min(self.step + 1, self.last),
                "dice": dice_sentence(self.book, m.seed), "dice_ok": self.book.check.ok,
                "seed": str(m.seed), "seed_hash": m.seed_hash, "seed_ok": seed_ok(m)}


def replay_at(kind: MatchKind, request: HttpRequest, pk: Any) -> ReplayAt:
    """Match ``pk`` of ``kind`` replayed to ``?step=n`` (clamped to the log; nonsense: the
    start), only that step kept (``play.replays.replay_book``); 404 unless ``request.user``
    may see it and it is over."""
    try:
        m = replays.replayable(kind, request.user, pk)
    except ServiceError as exc:
        raise Http404(f"a {kind.noun}'s replay is shown once it is over") from exc
    step = int_or_raw(request.GET.get("step", "0"))
    step = min(step if type(step) is int else 0, m.seq)
    book = replays.replay_book(kind, m, keep=lambda i, last: i == min(step, last), log=True)
    last = len(book.steps) - 1
    return ReplayAt(m, book, min(step, last), last)
