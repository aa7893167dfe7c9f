"""Tournament use cases. Each runs in one transaction under the tournament's row lock and
raises a ``TournamentError`` (with an HTTP status) on bad input, changing nothing.

Every result enters through ``record_result`` (``results.py``)."""

from .clock import advance, next_due, schedule_wake
from .errors import Conflict, NotAllowed, NotFound, TournamentError
from .registration import check_in, deck_problems, drop, register, sides_needed, withdraw
from .results import (
    clean_result,
    correct_result,
    record_result,
    report_result,
    settle_dispute,
    time_limit,
)
from .rounds import pair_next_round, pair_round, pause, resume, start_tournament, unlock_decks
from .setup import (
    cancel_tournament,
    create_tournament,
    planned_rounds,
    publish_lists,
    recommended_rounds,
    update_tournament,
)
from .standings import compute_rows, snapshot

__all__ = [
    "Conflict", "NotAllowed", "NotFound", "TournamentError", "advance", "cancel_tournament",
    "check_in", "clean_result", "compute_rows", "correct_result", "create_tournament",
    "deck_problems", "drop", "next_due", "pair_next_round", "pair_round", "pause",
    "planned_rounds", "publish_lists", "recommended_rounds", "record_result", "register",
    "report_result", "resume", "schedule_wake", "settle_dispute", "sides_needed", "snapshot",
    "start_tournament", "time_limit", "unlock_decks", "update_tournament", "withdraw",
]
