"""``python manage.py simulate``: N seeded battles between two bots, with win rates."""

from __future__ import annotations

import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from battles.bots import BOTS
from battles.engine import IllegalAction
from battles.engine.state import BATTLES
from battles.simulate import LIST_KINDS, deck_from_text, decks_from_lists, run, wilson

EXIT_USAGE = 2

HELP = """Play N battles between two computer players and print the win rates.

Game i uses the seed "SEED:i" for its decks, shuffles, dice and the bots' choices, so the
same arguments always give the same results and the same digest (sha256 over the ordered
per-game results). Decks default to historical decks dealt from the catalogue (a new deal
each game); --french-deck / --allied-deck take a deck-list file (decks/rules/README.md
format; the Allied file may mix British and Prussian cards) used for every game. A list is
a custom deck (15.0: Muster 50 %), as validate_deck reads it, unless --deck-kind dealt: then
it is the pool a dealt deck (2.0) is dealt from with the base seed, mustered by the chart.
A progress bar is drawn on stderr when stdout is a terminal.
"""


class Command(BaseCommand):
    help = HELP

    def create_parser(self, prog_name, subcommand, **kwargs):
        from argparse import RawDescriptionHelpFormatter

        kwargs.setdefault("formatter_class", RawDescriptionHelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser):
        parser.add_argument("--battle", required=True, choices=BATTLES)
        parser.add_argument("--games", type=int, default=100, help="number of battles")
        parser.add_argument("--seed", default="0", help="base seed (any text)")
        parser.add_argument("--french", default="greedy", choices=sorted(BOTS))
        parser.add_argument("--allied", default="random", choices=sorted(BOTS))
        parser.add_argument("--french-deck", metavar="FILE", help="French deck-list file")
        parser.add_argument("--allied-deck", metavar="FILE",
                            help="Allied (British and/or Prussian) deck-list file")
        parser.add_argument("--deck-kind", choices=LIST_KINDS, default="custom",
                            help="what a deck-list file is: custom (the default, as "
                                 "validate_deck) or dealt (a pool, dealt D cards)")
        parser.add_argument("--turn-cap", type=int,
                            help="turn cap (default 40, the simulation cap, RULINGS 5.0-c)")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def fail(self, message: str):
        raise CommandError(message, returncode=EXIT_USAGE)

    def deck(self, path: str, side: str) -> dict[str, list[int]]:
        try:
            with open(path, "rb") as handle:
                text = handle.read(1_000_001)
        except OSError as exc:
            self.fail(f"cannot read {path}: {exc.strerror or exc}")
        try:
            return deck_from_text(text, side)
        except ValueError as exc:
            self.fail(f"{path}: {exc}")

    def handle(self, *args, **options):
        games = options["games"]
        if games < 1:
            self.fail("--games must be at least 1")
        decks: dict[str, list[int]] = {}
        if options["french_deck"]:
            decks.update(self.deck(options["french_deck"], "french"))
        if options["allied_deck"]:
            decks.update(self.deck(options["allied_deck"], "allied"))
        kinds = None
        if decks:
            try:
                decks, kinds = decks_from_lists(options["battle"], options["seed"], decks,
                                                options["deck_kind"])
            except ValueError as exc:
                self.fail(str(exc))
        settings = {}
        if options["turn_cap"] is not None:
            if options["turn_cap"] < 1:
                self.fail("--turn-cap must be at least 1")
            settings["turn_cap"] = options["turn_cap"]
        progress = None
        if sys.stdout.isatty() and options.get("stdout") is None:
            progress = ProgressBar(sys.stderr)
        try:
            summary = run(options["battle"], games, options["seed"], options["french"],
                          options["allied"], decks=decks or None, settings=settings or None,
                          progress=progress, deck_kinds=kinds)
        except IllegalAction as exc:
            self.fail(str(exc))
        if progress is not None:
            progress.done()
        doc = summary.as_dict()
        if options["json"]:
            self.stdout.write(json.dumps(doc, indent=2, sort_keys=True))
            return
        n = summary.games
        self.stdout.write(f"{options['battle']}: {n} games, seed {options['seed']!r}, "
                          f"French {doc['bots']['french']} vs Allied {doc['bots']['allied']}")
        for key in ("french", "allied", "draw"):
            k = doc["wins"][key]
            lo, hi = wilson(k, n)
            self.stdout.write(f"  {key:<7} {k:>6}  {100 * k / n:5.1f}%   95% CI "
                              f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]")
        self.stdout.write(f"  average turns {doc['average_turns']:.2f}   endings "
                          + ", ".join(f"{k} {v}" for k, v in doc["reasons"].items()))
        self.stdout.write(f"  digest {doc['digest']}")


class ProgressBar:
    """A one-line progress bar redrawn in place (terminals only)."""

    def __init__(self, stream, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total
        rate = done / max(1e-9, time.monotonic() - self.start)
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} "
                          f"{rate:6.1f} games/s")
        self.stream.flush()

    def done(self) -> None:
        self.stream.write("\n")
        self.stream.flush()
