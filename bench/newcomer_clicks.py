"""Clicks of a scripted newcomer's campaign against the computer, by kind, without a browser
(issue 28, "Done when": at most half of the issue's 186 clicks through the first phase).

    .venv/bin/python bench/newcomer_clicks.py [--seed 1815 [1 2 ...]] [--bot random]
                                              [--before]

Plays what tests/browser/test_campaign_newcomer_browser.py plays in Chromium (the French
against the random computer, seed 1815), through the services and the page's own code
(``tests/newcomer_campaign.py``: what counts as a click), and prints the clicks by kind, the
one-button screens the site could have played, and what the site played for the player, by
reason. ``--before``: the policy as before issue 28's cut (every Pass clicked, every warned
move confirmed). Several seeds: one campaign each (the click count depends a lot on how long
the battles last, so clicks per battle turn are printed too).

Runs on a throwaway SQLite database in memory, its tables made from the models (seconds).

Figures (2026-11-27, ``--seed 1815 1 2 3 4 5``, with and without ``--before``): seed 1815
209 -> 45 clicks (the browser test: 209 -> 45 too); six seeds 1,150 clicks in 96 battle
turns (12.0 a turn) -> 636 in 91 (7.0 a turn); per seed 209/113/233/175/218/202 ->
45/184/112/68/171/56 (the newcomer's battles last 6 to 24 turns: seeds 1 and 4 stay above
93 clicks, fires and moves being most of them).

Then (same day, same command, both runs in one shell line; 27.8 s CPU before, 21.9 s after):
with "Deploy several cards at once" (one submit per deployment, as the page fills it in)
and the setting "end my phase or turn for me when that is all that is left" (switched on
once, from the button beside the first lone end): six seeds 636 -> 568 clicks in 91 battle
turns (6.2 a turn); per seed 45/184/112/68/171/56 -> 39/169/99/57/155/49 (the browser
test on seed 1815: 39 clicks too, 0 page loads, 1 m 50 s; before the cut:
209/113/233/175/218/202). Deploying is 2 clicks instead of 8; lone "End" screens 2-11 -> 1
(the one that switches the setting on). Seeds 1, 2 and 4 stay above 93: what is left is
fires (34-74; most cards have 2-4 targets, only 22 of 142 fires on seeds 1 and 4 had one),
moves (35-53), ends of a phase while moves are still offered, and one "Pass for the rest
of this enemy turn" per enemy turn: the newcomer's own choices.

On catalogue 1.3.0 (#130 and #164 change the British Quatre Bras pool, so every seed's
battles differ; same command, both runs in one shell line, 27.3 s CPU before): six seeds
1,054 clicks in 90 battle turns (11.7 a turn) -> 651 in 97 (6.7 a turn); per seed
1815/1/2/3/4/5: 265/165/165/89/218/152 -> 127/27/163/163/122/49 (seeds 2 and 3 now play
Ligny to turn 18). Per battle turn the clicks fall by 43 %; the total by 38 %.

Then (2026-11-28, same command, both runs in one shell line; 22.1 s CPU before, 19.5 s
after, load average 4.9-5.0 from other helpers): with "Fire with every ready card (each at
its suggested target)" (``play.passing.fire_order``: clicked once in a Combat Phase where
two cards or more can fire; the other fires are played for the newcomer, reason "order")
and "Pass, and do not ask me about <that kind> again" beside Pass
(``play.passing.pass_and_skip_kind``: one click per kind of window, where "Pass for the
rest of this enemy turn" was one per enemy turn): six seeds 1,054 clicks in 90 battle turns
(11.7 a turn) -> 401 in 99 (4.1 a turn; main's newcomer before these: 651 in 97, 6.7 a
turn); per seed 1815/1/2/3/4/5: 265/165/165/89/218/152 -> 105/27/55/95/66/53 (was
127/27/163/163/122/49). Per battle turn the clicks fall by 65 %; the total by 62 %. Fire
clicks 62-79 on seeds 2-4 -> 3-9 order clicks and 0-1 lone fires; the Passes 4-13 a seed
-> 1-4. What is left is moves (37-47 on the long seeds), ends of a phase or turn while
moves are still offered, and morale rolls. The suggested targets change the battles: seed
3's Ligny now lasts 18 turns (4 before the cut), so its total (95) stays above half of its
89. The "When to ask you to answer" panel (open, untick the four kinds, Save: six clicks,
then the open window's Pass) in place of "Pass for the rest of this enemy turn" gave 424
clicks against 419 with the fire order alone: the newcomer does not use it
(policy.SKIP_KINDS; the button beside Pass is what they take).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.pop("DATABASE_URL", None)
os.environ["SQLITE_PATH"] = ":memory:"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class _NoMigrations(dict):
    """``MIGRATION_MODULES`` saying no app has migrations: ``migrate --run-syncdb`` makes
    the tables straight from the models (the history takes a minute on a busy machine)."""

    def __contains__(self, item: object) -> bool:
        return True

    def __getitem__(self, item: str) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, nargs="+", default=[1815],
                        help="one campaign per seed (the browser test's: 1815)")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--before", action="store_true",
                        help="the policy before issue 28's cut")
    args = parser.parse_args()
    import django
    from django.conf import settings
    from django.core.management import call_command

    start, cpu = time.monotonic(), time.process_time()
    django.setup()
    settings.MIGRATION_MODULES = _NoMigrations()
    call_command("migrate", verbosity=0, interactive=False, run_syncdb=True)
    from django.contrib.auth.models import User

    from tests.newcomer_campaign import play_first_phase

    totals = []
    for seed in args.seed:
        user = User.objects.create_user(f"newcomer{seed}")
        out = play_first_phase(user, seed, args.bot, newcomer=not args.before)
        totals.append((out.total, out.battle_turns))
        print(f"seed {seed}, {args.bot} computer, {'before' if args.before else 'newcomer'} "
              f"policy: {out.total} clicks in {out.battle_turns} battle turns "
              f"({out.total / max(out.battle_turns, 1):.1f} a turn); first phase "
              f"{'over' if out.first_phase_over else 'NOT over'}; results "
              + ", ".join(f"{b}: {r.get('winner')} ({r.get('reason')}, turn {r.get('turn')})"
                          for b, r in out.results.items()))
        for kind, n in out.by_kind.most_common():
            print(f"  {n:4}  {kind}")
        print(f"  one-button screens the site could have played: {out.one_button}; lone "
              f"end-of-phase/turn/decision screens: {out.lone_endings}")
        print("  played for the player: " + (", ".join(
            f"{n} {why}" for why, n in out.auto.most_common()) or "none"))
    if len(totals) > 1:
        clicks, turns = sum(t[0] for t in totals), sum(t[1] for t in totals)
        print(f"all {len(totals)} seeds: {clicks} clicks in {turns} battle turns "
              f"({clicks / max(turns, 1):.1f} a turn)")
    print(f"({time.monotonic() - start:.1f} s wall, {time.process_time() - cpu:.1f} s CPU)")


if __name__ == "__main__":
    main()
