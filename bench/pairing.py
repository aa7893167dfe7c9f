"""Time one Swiss round for 256, 1,024, 4,096 and 8,192 players after 7 rounds.

    .venv/bin/python bench/pairing.py [SIZES...] [--rounds 7] [--seed 1]

History is synthetic but realistic: each of the 7 earlier rounds is paired by the same
engine (so histories respect every rule) and results are random, the higher-rated player
winning with the Elo probability.  Prints the time of the 8th round and its quality:
floats (pairs with different points), sum of score differences, sum of squared score
differences, side preferences unmet (and unmet strong ones), rematches, and the proved
lower bound of (sum d^2, unmet, strong) from the type-level relaxation
(tournaments/pairing/plan.py): ``proved`` = yes when the pairing meets it, i.e. is optimal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.model import ALLIED, FRENCH, Player  # noqa: E402
from tournaments.pairing.swiss import pair_swiss, quality  # noqa: E402


def synthetic_field(n: int, rounds: int, seed: int = 1) -> tuple[list[Player], float]:
    rng = random.Random(seed)
    players = [Player(id=f"p{k + 1}", rating=round(rng.gauss(1500, 200))) for k in range(n)]
    by_id = {p.id: p for p in players}
    spent = 0.0
    for _ in range(rounds):
        t = time.process_time()
        res = pair_swiss(players)
        spent += time.process_time() - t
        for f, a in res.pairings:
            pf, pa = by_id[f], by_id[a]
            p_win = 1 / (1 + 10 ** ((pa.rating - pf.rating) / 400))
            winner = pf if rng.random() < p_win else pa
            winner.points += 1
            pf.opponents.append(a)
            pf.sides.append(FRENCH)
            pa.opponents.append(f)
            pa.sides.append(ALLIED)
        if res.bye:
            p = by_id[res.bye]
            p.points += 1
            p.had_bye = True
            p.opponents.append(None)
            p.sides.append(None)
    return players, spent


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=int, default=[256, 1024, 4096, 8192])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(
        f"{'players':>8} {'history s':>9} {'round s':>8} {'floats':>6} {'sum|d|':>7} "
        f"{'sum d^2':>7} {'unmet':>6} {'strong':>6} {'rematch':>7} {'bound':>16} {'proved':>6}"
    )
    for n in args.sizes:
        players, hist = synthetic_field(n, args.rounds, args.seed)
        t = time.process_time()
        res = pair_swiss(players)
        dt = time.process_time() - t
        q = quality(players, res)
        print(
            f"{n:>8} {hist:>9.2f} {dt:>8.3f} {q['floats']:>6} {q['score_diff_sum']:>7.0f} "
            f"{q['score_sq_sum']:>7.0f} {q['unmet']:>6} {q['unmet_strong']:>6} "
            f"{q['rematches']:>7} {'/'.join(str(v) for v in res.lower_bound):>16} "
            f"{'yes' if res.optimal else 'no':>6}",
            flush=True,
        )


if __name__ == "__main__":
    main()
