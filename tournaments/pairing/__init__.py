"""Pure pairing core for Eagles tournaments (no Django imports; see README.md)."""

from .double_bracket import (
    Game,
    double_elimination_max_rounds,
    double_elimination_round,
    double_elimination_state,
)
from .elimination import double_elimination, elimination_round, first_round, top_cut
from .io import pair_round_json
from .model import ALLIED, FRENCH, NoValidPairing, PairingError, Player
from .round_robin import berger_rounds, round_robin_round
from .swiss import SwissResult, pair_swiss

__all__ = [
    "ALLIED",
    "FRENCH",
    "Game",
    "NoValidPairing",
    "PairingError",
    "Player",
    "SwissResult",
    "berger_rounds",
    "double_elimination",
    "double_elimination_max_rounds",
    "double_elimination_round",
    "double_elimination_state",
    "elimination_round",
    "first_round",
    "pair_round_json",
    "pair_swiss",
    "round_robin_round",
    "top_cut",
]
