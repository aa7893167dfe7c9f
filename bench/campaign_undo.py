"""What an undo costs in a campaign: the campaign is rebuilt from its setup with the actions
still counting (play/undo.py), so its cost grows with the log. Plays whole greedy
campaigns (no turn cap) and times the rebuild of each from its setup, one core.

    .venv/bin/python bench/campaign_undo.py [--games N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.campaign import apply, new_campaign  # noqa: E402
from battles.campaign.simulate import play_campaign  # noqa: E402
from battles.engine import SeededDice, card_table  # noqa: E402
from cards.catalogue.file import catalogue_records  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    table = card_table(catalogue_records())
    for i in range(args.games):
        seed = f"undo:{i}"
        actions: list[dict] = []
        play_campaign(seed, "greedy", "greedy", table, turn_cap=None,
                      on_step=lambda c, a, e, out=actions: out.append(a))
        start = time.process_time()
        c = new_campaign(seed, table, None, {"turn_cap": None})
        dice = SeededDice(seed)  # the simulation's one stream (the site: one per seq)
        for a in actions:
            apply(c, a, dice)
        cpu = time.process_time() - start
        print(f"campaign {seed}: {len(actions)} actions rebuilt from the setup in "
              f"{cpu * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
