"""Complete Stratego: Waterloo games per second on one core (issue 26, "a bench").

    .venv/bin/python bench/stratego_games.py [--games 40] [--variant basic] [--bots random]

Plays ``--games`` complete games (seed = the game's number, sides alternating, the bots' turn
cap) of ``--bots`` against itself through the pure module, as ``stratego.simulate`` does, and
prints the CPU seconds (``time.process_time``), games and actions per CPU second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stratego.loader import load_pieces  # noqa: E402
from stratego.simulate import match  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--variant", default="basic", choices=("basic", "standard", "expert"))
    parser.add_argument("--bots", default="random")
    parser.add_argument("--cap", type=int, default=60)
    args = parser.parse_args(argv)
    table = load_pieces()
    started = time.process_time()
    out = match(args.bots, args.bots, args.games, table, cap=args.cap, variant=args.variant)
    cpu = time.process_time() - started
    print(f"{args.games} {args.variant} games, {args.bots} vs {args.bots}: {cpu:.2f} s CPU, "
          f"{args.games / cpu:.2f} games/s, {out['actions'] / cpu:.0f} actions/s; "
          f"endings {out['reasons']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
