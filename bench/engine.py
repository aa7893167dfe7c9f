"""Battle engine throughput: complete battles per second on one core, per battle, for
random vs random and greedy vs greedy, plus a cProfile of Waterloo random vs random.

    .venv/bin/python bench/engine.py [--seconds 2] [--no-profile]

Battles are played by battles.simulate.play_game (the same loop as `manage.py simulate`:
legal_actions, the bot's choice, apply with check=False; the view is built only for bots
that read it). Decks are historical, dealt per game. Targets (issue 4): Quatre Bras >= 200/s
and Waterloo >= 50/s random vs random; greedy at least a quarter of those.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.bots import get_bot  # noqa: E402
from battles.engine import SIMULATION_TURN_CAP, load_cards  # noqa: E402
from battles.simulate import play_game  # noqa: E402
from cards.catalogue.file import catalogue_records  # noqa: E402
from game import BATTLES  # noqa: E402

CARDS = load_cards(catalogue_records())  # the engine reads no file: it is handed the cards
SETTINGS = {"turn_cap": SIMULATION_TURN_CAP}  # RULINGS 5.0-c: simulations keep a cap
TARGETS = {"quatre-bras": 200, "waterloo": 50}


def rate(battle: str, bot: str, seconds: float) -> tuple[float, int, float]:
    """(battles/s, battles played, mean turns) within about ``seconds``."""
    bots = {"french": get_bot(bot, CARDS), "allied": get_bot(bot, CARDS)}
    games = turns = 0
    start = time.perf_counter()
    while True:
        st, _ = play_game(battle, f"bench:{games}", bots, settings=SETTINGS, cards=CARDS)
        games += 1
        turns += st.turn
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and games >= 5:
            return games / elapsed, games, turns / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per cell")
    ap.add_argument("--no-profile", action="store_true")
    args = ap.parse_args()
    print(f"{'battle':<12} {'random/s':>9} {'turns':>6} {'greedy/s':>9} {'turns':>6}  target")
    ok = True
    for battle in BATTLES:
        r, _, rt = rate(battle, "random", args.seconds)
        g, _, gt = rate(battle, "greedy", args.seconds)
        target = TARGETS.get(battle)
        note = ""
        if target:
            met = r >= target and g >= target / 4
            ok &= met
            note = f"random >= {target}, greedy >= {target / 4:g}: {'met' if met else 'MISSED'}"
        print(f"{battle:<12} {r:9.1f} {rt:6.1f} {g:9.1f} {gt:6.1f}  {note}")
    print("targets met" if ok else "targets MISSED")
    if args.no_profile:
        return
    prof = cProfile.Profile()
    bots = {"french": get_bot("random"), "allied": get_bot("random")}
    prof.enable()
    for i in range(20):
        play_game("waterloo", f"profile:{i}", bots, settings=SETTINGS, cards=CARDS)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
    print("\ncProfile, Waterloo random vs random, 20 battles, top 15 by own time:")
    print("\n".join(line for line in out.getvalue().splitlines()
                    if line.strip() and not line.startswith(("   Ordered", "   List"))))


if __name__ == "__main__":
    main()
