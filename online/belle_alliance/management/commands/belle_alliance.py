"""``python manage.py belle_alliance new|legal|apply|view|simulate``: study and debug La Belle
Alliance positions, and play bots against each other (as ``manage.py stratego`` does)."""

from __future__ import annotations

from typing import Any

from belle_alliance.bots import BOTS
from belle_alliance.engine import CardData, CardDataError
from belle_alliance.loader import HOUSE, edition, load_cards
from belle_alliance.module import GAME
from belle_alliance.simulate import match
from play.module_command import ModuleCommand

HELP = """Work with La Belle Alliance positions (the module's to_json document).

  belle_alliance new [--data FILE]                             print a new game's position
  belle_alliance legal POSITION --side S                       the side's legal actions
  belle_alliance apply POSITION --action JSON [--dice 4,2]     new position + events
  belle_alliance view POSITION --side S|spectator              what that viewer sees
  belle_alliance simulate --games N [--french B --allied B]    bot against bot

POSITION is a file, or - for standard input. --data: a card-data file (default: the house
edition, ours, not the publisher's). Output is JSON on stdout. Errors (bad JSON, an illegal
action, too few dice, an unreadable file) exit with status 2.
"""


class Command(ModuleCommand):
    help = HELP
    game = GAME
    name = "belle_alliance"
    errors = (CardDataError,)
    dice_help = "the dice in the order rolled, e.g. 4,2 (none: the game's own stream for --seq)"
    normalise = True  # a French activation without "napoleon" is one without him

    def add_own_arguments(self, parsers: dict[str, Any]) -> None:
        sim = parsers["simulate"]
        sim.add_argument("--french", default="greedy", choices=sorted(BOTS))
        sim.add_argument("--allied", default="random", choices=sorted(BOTS))
        sim.add_argument("--start", type=int, default=0, help="the first game's seed")
        for p in parsers.values():
            p.add_argument("--data", default="", help="a card-data file (default: the "
                                                      f"{HOUSE} house edition)")

    def cards(self, o: dict[str, Any]) -> CardData:
        return load_cards(o["data"]) if o["data"] else edition()

    def do_new(self, o: dict[str, Any]) -> Any:
        return GAME.to_json(GAME.setup(0, {}, self.cards(o)))

    def do_simulate(self, o: dict[str, Any]) -> Any:
        return match(o["french"], o["allied"], o["games"], self.cards(o), start=o["start"])
