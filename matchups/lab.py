"""Playing a matchup's games (no database: the plan is recorded when the question is asked).

A plan says everything a game needs, so a chunk can run anywhere (a worker, the CLI)::

    {"battle": "ligny", "scale": "1", "sides": {"a": "french", "b": "allied"},
     "army_a": "french", "choices": {army: deck choice (battles/dealing.py)},
     "bots": {"a": "greedy", "b": "greedy"}}

Game ``i`` of a matchup with seed ``S`` uses the seed ``"S:i"`` for its deal
(``dealing.deal_decks``: the custom deck's cards, a dealt deck from its recorded pool, the
historical deal), its setup, its dice and each bot's choices (``simulate.play_game``), so the
same question always gets the same answer, whichever worker plays which chunk.

A deck version belongs to one army, so deck A always plays its army's side (a French deck
plays the French side); both bots keep to their deck.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from battles import dealing, simulate
from battles.bots import get_bot
from battles.engine import load_cards
from cards.catalogue import file as catalogue_file

CHUNK = 10  # games per chunk (one Celery task)
SLOW_CHUNK = 2  # with a bot that searches: a task stays short and the progress moves
FAST_BOTS = {"random", "greedy"}


def chunk_size(bots) -> int:
    """Games per chunk for these bots: fewer when one of them searches."""
    return CHUNK if set(bots) <= FAST_BOTS else SLOW_CHUNK


def chunk_count(games: int, size: int = CHUNK) -> int:
    return (games + size - 1) // size


def chunk_games(chunk: int, games: int, size: int = CHUNK) -> range:
    """The game numbers of ``chunk`` (0-based) of a matchup of ``games`` games."""
    return range(chunk * size, min(games, (chunk + 1) * size))


def card_table():
    return load_cards(catalogue_file.catalogue_records())


def play(plan: dict[str, Any], seed: int, numbers: range, *, cards=None,
         progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """The records of games ``numbers`` (``matchups/stats.py`` reads them)."""
    cards = cards if cards is not None else card_table()
    sides = plan["sides"]
    bots = {sides[who]: get_bot(plan["bots"][who], cards) for who in ("a", "b")}
    who_of = {side: who for who, side in sides.items()}
    out = []
    for i in numbers:
        game_seed = f"{seed}:{i}"
        choices = {army: dict(choice) for army, choice in plan["choices"].items()}
        decks = dealing.deal_decks(plan["battle"], game_seed, plan["scale"], choices, cards)
        st, _steps = simulate.play_game(plan["battle"], game_seed, bots, decks=decks,
                                        cards=cards,
                                        deck_kinds=dealing.deck_kinds(choices, plan["scale"]))
        result = st.outcome
        winner = result.get("winner")
        out.append({"game": i, "seed": game_seed, "a_side": sides["a"],
                    "winner": who_of.get(winner) if winner else None,
                    "reason": result.get("reason", ""),
                    "turns": int(result.get("turn", st.turn)),
                    "cards_a": sorted(set(decks[plan["army_a"]]))})
        if progress is not None:
            progress(i)
    return out
