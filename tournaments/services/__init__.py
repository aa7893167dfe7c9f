"""Tournament use cases. Each runs in one transaction under the tournament's row lock and
raises a ``TournamentError`` (with an HTTP status) on bad input, changing nothing.

Every result enters through ``record_result`` (``lifecycle.py``, which owns start, pairing,
results and the finish; the other modules build on it). README "Services" has the map."""

from .clock import advance, next_due, schedule_wake
from .errors import Conflict, NotAllowed, NotFound, TournamentError
from .lifecycle import (
    pair_next_round,
    pair_round,
    pause,
    planned_rounds,
    recommended_rounds,
    resume,
    start_tournament,
    unlock_decks,
)
from .registration import check_in, deck_problems, drop, register, sides_needed, withdraw
from .results import (
    clean_result,
    correct_result,
    record_result,
    report_result,
    settle_dispute,
    time_limit,
)
from .setup import cancel_tournament, create_tournament, publish_lists, update_tournament
from .standings import compute_rows, snapshot

__all__ = [
    "Conflict", "NotAllowed", "NotFound", "TournamentError", "advance", "cancel_tournament",
    "check_in", "clean_result", "compute_rows", "correct_result", "create_tournament",
    "deck_problems", "drop", "next_due", "pair_next_round", "pair_round", "pause",
    "planned_rounds", "publish_lists", "recommended_rounds", "record_result", "register",
    "report_result", "resume", "schedule_wake", "settle_dispute", "sides_needed", "snapshot",
    "start_tournament", "time_limit", "unlock_decks", "update_tournament", "withdraw",
]
