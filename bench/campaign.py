"""Complete campaigns per second (whole set, random and greedy, one core, turn cap 40).

    .venv/bin/python bench/campaign.py [--games N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.campaign.simulate import play_campaign  # noqa: E402
from battles.engine import card_table  # noqa: E402
from cards.catalogue.file import catalogue_records  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    table = card_table(catalogue_records())
    for bot in ("random", "greedy"):
        start = time.process_time()
        steps = 0
        for i in range(args.games):
            steps += play_campaign(f"bench:{i}", bot, bot, table)["steps"]
        cpu = time.process_time() - start
        print(f"{bot:7} {args.games} campaigns {cpu:.1f} CPU s: {args.games / cpu:.3f} "
              f"campaigns/s, {steps / cpu:.0f} actions/s")


if __name__ == "__main__":
    main()
