"""The words of each notification (pure: the standard library and ``game`` only).

They name the battle, the players, whose move, the outcome and the round; never a card (a
face-down card's identity must not leak, and a notification needs none).
"""

from __future__ import annotations

from datetime import datetime

from game import BATTLE_NAMES, CAMPAIGN_BATTLE_NAMES, SIDE_NAMES

REASONS = {
    "occupation": "by holding a Position alone",
    "turn_cap": "on the turn limit",
    "resigned": "by resignation",
    "time": "on time",
    "absent": "as the opponent left",
}


def battle_title(battle: str, battle_id: int) -> str:
    return f"{BATTLE_NAMES.get(battle, battle)} #{battle_id}"


def your_move(battle: str, battle_id: int, opponent: str, turn: int | None) -> str:
    on_turn = f" (turn {turn})" if turn else ""
    return f"Your move in {battle_title(battle, battle_id)} against {opponent}{on_turn}."


def invitation(battle: str, battle_id: int, creator: str, side: str) -> str:
    return (f"{creator} invites you to {battle_title(battle, battle_id)}: you would play the "
            f"{SIDE_NAMES.get(side, side)} side.")


def battle_over(battle: str, battle_id: int, outcome: dict | None, side: str) -> str:
    outcome = outcome or {}
    winner = outcome.get("winner")
    if winner is None:
        result = "a draw"
    elif winner == side:
        result = "you won"
    else:
        result = "you lost"
    how = REASONS.get(str(outcome.get("reason")), "")
    return f"{battle_title(battle, battle_id)} is over: {result}{' ' + how if how else ''}."


def battle_deadline(battle: str, battle_id: int, deadline: datetime) -> str:
    return (f"Your time in {battle_title(battle, battle_id)} runs out at "
            f"{deadline:%H:%M:%S} UTC on {deadline:%d %b}: make your move.")


def round_paired(tournament: str, number: int, table: int, opponent: str, listed: str,
                 ends_at: datetime | None) -> str:
    ends = f" It ends at {ends_at:%H:%M} UTC on {ends_at:%d %b}." if ends_at else ""
    return (f"Round {number} of {tournament} is paired: table {table} against {opponent} "
            f"(you are listed {SIDE_NAMES.get(listed, listed)}).{ends}")


def round_deadline(tournament: str, number: int, ends_at: datetime) -> str:
    return (f"Round {number} of {tournament} ends at {ends_at:%H:%M} UTC: report or finish "
            f"your match.")


# --- Campaigns (16.0) ---------------------------------------------------------------------------

CAMPAIGN_STEPS = {"split": "split your cards between the battles",
                  "reinforce": "decide whether to reinforce the other battle"}


def campaign_title(campaign_id: int) -> str:
    return f"Campaign #{campaign_id}"


def campaign_your_move(campaign_id: int, opponent: str, board: str | None,
                       step: str | None = None) -> str:
    """``board``: the battle to move on (None: a campaign decision, named by ``step``)."""
    if board:
        what = f"at {BATTLE_NAMES.get(board, CAMPAIGN_BATTLE_NAMES.get(board, board))}"
    else:
        what = CAMPAIGN_STEPS.get(step or "", "a campaign decision")
    return f"Your move in {campaign_title(campaign_id)} against {opponent}: {what}."


def campaign_deadline(campaign_id: int, deadline: datetime) -> str:
    return (f"Your time in {campaign_title(campaign_id)} runs out at "
            f"{deadline:%H:%M:%S} UTC on {deadline:%d %b}: make your move.")


def campaign_invitation(campaign_id: int, creator: str, side: str) -> str:
    return (f"{creator} invites you to {campaign_title(campaign_id)}, the Campaign Game: you "
            f"would play the {SIDE_NAMES.get(side, side)} side.")


def campaign_over(campaign_id: int, outcome: dict | None, side: str) -> str:
    outcome = outcome or {}
    winner = outcome.get("winner")
    result = "a draw" if winner is None else ("you won" if winner == side else "you lost")
    how = REASONS.get(str(outcome.get("reason")), "")
    return f"{campaign_title(campaign_id)} is over: {result}{' ' + how if how else ''}."
