"""Ratings listen to the game service: ``play.signals.match_finished`` is sent *inside* the
transaction that ends a match, so a rating is written together with the end or not at all
(an error here rolls the end back)."""

from __future__ import annotations

from .campaigns import rate_finished_campaign
from .services import rate_finished_battle

RATERS = {"battle": rate_finished_battle, "campaign": rate_finished_campaign}


def on_match_finished(sender=None, kind: str | None = None, match=None, **kwargs) -> None:
    rate = RATERS.get(kind or "")
    if rate is not None and match is not None:
        rate(sender, match)
