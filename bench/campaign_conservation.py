"""Card conservation over many random campaigns from random collections (issue 29): every
card of the collection in exactly one place after every action, no card from outside it.
The suite runs a few seeds (tests/campaign/test_empty_decks.py); this runs many.

    .venv/bin/python bench/campaign_conservation.py [--seeds N] [--turn-cap T]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.campaign.test_empty_decks import random_campaign_conserves_cards  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=2000)
    parser.add_argument("--turn-cap", type=int, default=4)
    args = parser.parse_args()
    start = time.process_time()
    failed: Counter[str] = Counter()
    bad: list[int] = []
    for seed in range(args.seeds):
        try:
            random_campaign_conserves_cards(seed, args.turn_cap)
        except AssertionError as e:
            failed[str(e).split(" and ")[0][:60]] += 1
            bad.append(seed)
    cpu = time.process_time() - start
    print(f"{args.seeds} random campaigns from random collections, turn cap {args.turn_cap}: "
          f"{len(bad)} broke conservation, {cpu:.1f} CPU s")
    if bad:
        print("seeds:", bad[:20], dict(failed.most_common(5)))
        sys.exit(1)


if __name__ == "__main__":
    main()
