"""Is a retreat of the greedy campaign bot made when the battle is lost anyway?

For each retreat rule, greedy-vs-greedy campaigns are played (whole set, turn cap 40); at
the first retreat opportunity where the rule says "retreat" for a side at a battle, the
campaign is copied and that battle is played on from there without any retreat (other dice:
an outcome that does not hang on one roll); the rule was right if the side loses it anyway.
Prints per rule: how many such first retreats, how many the side would have lost anyway
(precision), the mean Battle Turn of the retreat. Campaign wins and branches with the rule in
play: ``manage.py simulate_campaign --french greedy --allied greedy --json``.

    .venv/bin/python bench/campaign_retreat.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.campaign import apply, legal_actions, new_campaign, to_move, view  # noqa: E402
from battles.campaign.bots import CampaignBot, lost_anyway  # noqa: E402
from battles.engine import SIDES, SIMULATION_TURN_CAP, SeededDice, card_table  # noqa: E402
from cards.catalogue.file import catalogue_records  # noqa: E402

RULES = {  # name -> (share, losing)
    "cards under 1/3 of the enemy's (before)": (1 / 3, False),
    "under 1/2": (1 / 2, False),
    "under 1/2 and lost more cards": (1 / 2, True),
    "under 2/3 and lost more cards": (2 / 3, True),
}
FORK_LIMIT = 20_000


def play_on(c, battle: str, bots, seed: str) -> str | None:
    """Play the copy ``c`` until ``battle`` is decided, nobody retreating; its winner."""
    rng, dice = random.Random(f"fork:{seed}"), SeededDice(f"fork:{seed}")
    for _ in range(FORK_LIMIT):
        if battle in c.results:
            return c.results[battle]["winner"]
        turn = to_move(c)
        if turn is None:
            break
        legal = [a for a in legal_actions(c, turn["side"]) if a["type"] != "retreat"]
        bot = bots[turn["side"]]
        apply(c, bot.choose(view(c, turn["side"]), legal, rng), dice)
    return c.results.get(battle, {}).get("winner")


def measure(games: int, seed: str, share: float, losing: bool, table) -> dict:
    fired, right, turns = 0, 0, []
    for i in range(games):
        s = f"{seed}:{i}"
        c = new_campaign(s, table, None, {"turn_cap": SIMULATION_TURN_CAP})
        bots = {side: CampaignBot("greedy", table) for side in SIDES}
        rng, dice = random.Random(f"eagles-campaign-bots:{s}"), SeededDice(s)
        seen: set[tuple[str, str]] = set()
        while (turn := to_move(c)) is not None:
            side = turn["side"]
            legal = legal_actions(c, side)
            seen_view = view(c, side)
            retreat = next((a for a in legal if a["type"] == "retreat"), None)
            if retreat is not None and (turn["board"], side) not in seen and lost_anyway(
                    seen_view["boards"][turn["board"]], side, share, losing):
                seen.add((turn["board"], side))
                fired += 1
                turns.append(c.boards[turn["board"]].turn)
                winner = play_on(c.copy(), turn["board"], bots, f"{s}:{len(turns)}")
                right += winner is not None and winner != side
                apply(c, retreat, dice)
                continue
            moves = [a for a in legal if a["type"] != "retreat"]
            apply(c, bots[side].choose(seen_view, moves, rng), dice)
    return {"fired": fired, "lost_anyway": right,
            "mean_turn": round(sum(turns) / len(turns), 1) if turns else None}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", default="retreat")
    args = parser.parse_args()
    table = card_table(catalogue_records())
    for name, (share, losing) in RULES.items():
        m = measure(args.games, args.seed, share, losing, table)
        precision = m["lost_anyway"] / m["fired"] if m["fired"] else 0
        print(f"{name:42} {m['fired']:3d} retreats, {m['lost_anyway']:3d} lost anyway "
              f"({precision:.0%}), mean Battle Turn {m['mean_turn']}", flush=True)


if __name__ == "__main__":
    main()
