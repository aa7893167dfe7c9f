"""Greedy's weights against greedy's defaults (``battles.bots.greedy.Weights``): a tuning screen.

    .venv/bin/python bench/greedy_tuning.py --games 200 --seed tune --set engage_at=1.1 ...
    .venv/bin/python bench/greedy_tuning.py --games 200 --seed tune --screen [--base K=V ...]

``--games`` is per battle, half on each side. The weights (``--base`` then ``--set``, keys of
``battles.bots.greedy.Weights``) play against the default greedy; game ``i`` of a battle uses
the seed ``"<seed>:<i>"`` for both, so a run is reproducible. Prints the win rate with its 95 %
Wilson interval and, paired on the same seeds, greedy against greedy (``base``): how many
battles the weights won that greedy lost and the reverse. ``--screen`` plays every weight
at x0.5 and x1.5 of the base, one at a time, and prints them best first: a coarse look, to be
confirmed on more games and another seed (a screen of 40 sets picks noise too).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.bots.greedy import DEFAULT, GreedyBot, Weights  # noqa: E402
from battles.engine import load_cards  # noqa: E402
from battles.simulate import play_game, wilson  # noqa: E402
from cards.catalogue.file import catalogue_records  # noqa: E402
from game import BATTLES, other_side  # noqa: E402

CARDS = load_cards(catalogue_records())


def one_game(job: tuple) -> bool:
    """Did the weights win this seeded battle (against the default greedy)?"""
    battle, i, seed, side, weights = job
    foe = other_side(side)
    bots = {side: GreedyBot(CARDS, weights), foe: GreedyBot(CARDS)}
    st, _ = play_game(battle, f"{seed}:{i}", bots, cards=CARDS)
    return st.outcome.get("winner") == side


class Evaluator:
    """Plays weight sets on the same seeded battles; greedy's own results in the same seats
    (the reference of the paired count) are played once."""

    def __init__(self, games: int, seed: str, pool: ProcessPoolExecutor) -> None:
        self.pool = pool
        self.jobs = [(b, i, seed, "french" if i % 2 == 0 else "allied")
                     for b in BATTLES for i in range(games)]
        self.reference = self.results(DEFAULT)

    def results(self, weights: Weights) -> list[bool]:
        return list(self.pool.map(one_game, [(*j, weights) for j in self.jobs], chunksize=8))

    def __call__(self, weights: Weights) -> tuple[int, int, int, int]:
        """(games, won, won where greedy lost, lost where greedy won)."""
        out = self.results(weights)
        pairs = list(zip(out, self.reference, strict=True))
        better = sum(1 for a, b in pairs if a and not b)
        worse = sum(1 for a, b in pairs if b and not a)
        return len(out), sum(out), better, worse


def parse(items: list[str]) -> dict[str, float]:
    out = {}
    fields = {f.name for f in dataclasses.fields(Weights)}
    for item in items:
        key, _, raw = item.partition("=")
        if key not in fields:
            raise SystemExit(f"unknown weight {key!r}; choose from {', '.join(sorted(fields))}")
        out[key] = float(raw)
    return out


def line(label: str, n: int, won: int, better: int, worse: int) -> str:
    lo, hi = wilson(won, n)
    return (f"{label:<34} {won:>5}/{n:<5} {100 * won / n:5.1f}%  ({100 * lo:.1f}-{100 * hi:.1f}%)"
            f"  paired +{better} -{worse} = {better - worse:+d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="per battle, half on each side")
    ap.add_argument("--seed", default="tune")
    ap.add_argument("--base", nargs="*", default=[], metavar="KEY=VALUE")
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE")
    ap.add_argument("--screen", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    base = dataclasses.replace(DEFAULT, **parse(args.base))
    with ProcessPoolExecutor(args.jobs) as pool:
        evaluate = Evaluator(args.games, args.seed, pool)
        if not args.screen:
            w = dataclasses.replace(base, **parse(args.set))
            changed = {k: v for k, v in dataclasses.asdict(w).items()
                       if v != getattr(DEFAULT, k)}
            print(line(" ".join(f"{k}={v:g}" for k, v in changed.items()) or "defaults",
                       *evaluate(w)))
            return
        rows = []
        for f in dataclasses.fields(Weights):
            for factor in (0.5, 1.5):
                value = getattr(base, f.name) * factor
                w = dataclasses.replace(base, **{f.name: value})
                n, won, better, worse = evaluate(w)
                rows.append((better - worse, line(f"{f.name}={value:g}", n, won, better, worse)))
                print(rows[-1][1], flush=True)
        print("\nbest first:")
        for _, text in sorted(rows, key=lambda r: -r[0]):
            print(text)


if __name__ == "__main__":
    main()
