"""Ratings listen to the game service: ``play.signals.match_finished`` is sent *inside* the
transaction that ends a match, so a rating is written together with the end or not at all
(an error here rolls the end back).

A kind is rated if its ``MatchKind.rating_pool`` names one ("" = not rated). The two EAGLES
kinds have raters of their own (``RATERS``: ``RatedBattle`` / ``RatedCampaign`` and the
per-battle records, in the "eagles" pool); every other rated kind goes through the generic
``matches.rate_finished_match`` (``RatedMatch``, in its pool)."""

from __future__ import annotations

from play import registry

from .campaigns import rate_finished_campaign
from .matches import rate_finished_match
from .services import rate_finished_battle

RATERS = {"battle": rate_finished_battle, "campaign": rate_finished_campaign}


def pool_of(kind: str | None) -> str:
    """The rating pool of ``kind`` ("" for a kind not rated or not offered)."""
    try:
        return registry.get(kind or "").rating_pool
    except LookupError:
        return ""


def on_match_finished(sender=None, kind: str | None = None, match=None, **kwargs) -> None:
    if match is None or kind is None:
        return
    rate = RATERS.get(kind)
    if rate is not None:
        rate(sender, match)
        return
    pool = pool_of(kind)
    if pool:
        rate_finished_match(kind, pool, match)
