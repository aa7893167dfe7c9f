"""Writing ratings: a finished rated battle between two people updates both players'
Glicko-2 ratings and their records for that battle and side, once.

``rate_finished_battle`` is called by the worker's ``ratings.rate`` (``listeners.rate_now``,
the battle row locked) once the end of a rated battle has committed with its
``PendingRating`` row (``listeners``: issue 31, the rating off the ending action's path);
the rating and the pending row's removal are one transaction.
Both players' ``Rating`` rows are locked (``select_for_update``) one after the other in
user-id order, so two battles ending at once between the same people (in any seats) cannot
deadlock; the ``RatedBattle`` row (one per battle) makes a second call change nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from battles.models import Battle, Status

from . import glicko2
from .models import EAGLES, RatedBattle, Rating, SideRecord

RATING_PERIOD_DAYS = 30  # a month without a rated battle grows the RD by one period


def periods_idle(rating: Rating, now: datetime | None = None) -> int:
    """Whole rating periods since the player's last rated battle (0 for a newcomer)."""
    if rating.pk is None or rating.games == 0 or rating.updated_at is None:
        return 0
    return max(0, ((now or timezone.now()) - rating.updated_at).days // RATING_PERIOD_DAYS)


def current(rating: Rating, now: datetime | None = None) -> glicko2.Rating:
    """The rating as of ``now``: its RD grown for every idle period (Glicko-2 step 6)."""
    return glicko2.inactive(rating.as_glicko(), periods_idle(rating, now))


def rateable(battle: Battle) -> bool:
    """A finished battle marked rated between two people (the computer's never count)."""
    return bool(battle.rated and not battle.bot and battle.french_player_id
                and battle.allied_player_id and battle.status == Status.FINISHED
                and battle.outcome)


def french_score(outcome: dict) -> float:
    """1 the French won, 0 the Allies won, 0.5 a draw (no winner: the turn limit with equal
    losses)."""
    winner = outcome.get("winner")
    return 1.0 if winner == "french" else 0.0 if winner == "allied" else 0.5


def count_result(user_id: int, battle: str, side: str, score: float,
                 pool: str = EAGLES) -> None:
    """Add one result (``score`` for ``side``) to the player's ``SideRecord`` of ``battle`` (an
    EAGLES battle, or another pool's kind) in ``pool``."""
    SideRecord.objects.bulk_create(
        [SideRecord(user_id=user_id, pool=pool, battle=battle, side=side)],
        ignore_conflicts=True)
    won, lost = int(score == 1.0), int(score == 0.0)
    SideRecord.objects.filter(user_id=user_id, pool=pool, battle=battle, side=side).update(
        played=F("played") + 1, won=F("won") + won, lost=F("lost") + lost,
        drawn=F("drawn") + (1 - won - lost))


def rate_battle(battle: Battle, now: datetime | None = None) -> RatedBattle | None:
    """Rate ``battle`` (finished, rated, two people) once: both ratings (one rating period of
    one game each), both side records and a ``RatedBattle``. None if it is not rateable or
    was rated already."""
    if not rateable(battle):
        return None
    now = now or timezone.now()
    french_id, allied_id = battle.french_player_id, battle.allied_player_id
    with transaction.atomic():
        if RatedBattle.objects.filter(battle_id=battle.pk).exists():
            return None
        score = french_score(battle.outcome)
        figures = rate_players(french_id, allied_id, score, now)
        count_result(french_id, battle.battle, "french", score)
        count_result(allied_id, battle.battle, "allied", 1.0 - score)
        return RatedBattle.objects.create(battle=battle, **figures)


def rate_players(french_id: int, allied_id: int, score: float, now: datetime,
                 pool: str = EAGLES) -> dict:
    """One rated game between two players (a battle, a campaign, another kind's match): both
    players' ``Rating`` rows of ``pool`` updated from the ratings before (one rating period
    of one game each, games + 1); returns the fields of the record (``RatedBattle`` /
    ``RatedCampaign`` / ``RatedMatch``) with the figures before and after. Call inside the
    transaction that records the game."""
    # Lowest user id first, when making the rows (a first insert waits on the unique
    # index like a lock) and when locking them: no deadlock between two games.
    order = sorted({french_id, allied_id})
    Rating.objects.bulk_create([Rating(user_id=uid, pool=pool) for uid in order],
                               ignore_conflicts=True)
    rows = {uid: Rating.objects.select_for_update().get(user_id=uid, pool=pool)
            for uid in order}
    french, allied = rows[french_id], rows[allied_id]
    before_f, before_a = current(french, now), current(allied, now)
    after_f, after_a = glicko2.rate_game(before_f, before_a, score)
    for row, after in ((french, after_f), (allied, after_a)):
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.games += 1
        row.save(update_fields=["rating", "rd", "volatility", "games", "updated_at"])
    return {"french_player_id": french_id, "allied_player_id": allied_id,
            "french_score": score,
            "french_before": before_f.rating, "french_after": after_f.rating,
            "french_rd_before": before_f.rd, "french_rd_after": after_f.rd,
            "allied_before": before_a.rating, "allied_after": after_a.rating,
            "allied_rd_before": before_a.rd, "allied_rd_after": after_a.rd}


def rate_finished_battle(sender=None, battle: Battle | None = None,
                         **kwargs) -> RatedBattle | None:
    """A battle's rater (``listeners.rate_now``, in the worker's transaction)."""
    if battle is None:
        return None
    return rate_battle(battle)
