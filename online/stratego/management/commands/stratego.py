"""``python manage.py stratego new|legal|apply|view|simulate``: study and debug Stratego:
Waterloo positions, and play bots against each other (as ``manage.py engine`` does for the
EAGLES battle)."""

from __future__ import annotations

from typing import Any

from play.module_command import ModuleCommand
from stratego.loader import load_pieces
from stratego.module import GAME
from stratego.simulate import match

HELP = """Work with Stratego: Waterloo positions (the module's to_json document).

  stratego new --seed S [--variant basic|standard|expert]   print a new game (before set-up)
  stratego legal POSITION --side S                           the side's legal actions
  stratego apply POSITION --action JSON [--dice 1,4,6]       new position + events
  stratego view POSITION --side S|spectator                  what that viewer may see
  stratego simulate --games N [--first B --second B]         bot against bot

POSITION is a file, or - for standard input. Output is JSON on stdout. Errors (bad JSON, an
illegal action, too few dice, an unreadable file) exit with status 2.
"""


class Command(ModuleCommand):
    help = HELP
    game = GAME
    name = "stratego"
    dice_help = "the battle die's faces, e.g. 1,4 (none: the game's own stream for --seq)"
    view_help = "what a side (or a spectator) may see"

    def add_own_arguments(self, parsers: dict[str, Any]) -> None:
        new, sim = parsers["new"], parsers["simulate"]
        new.add_argument("--seed", type=int, default=0)
        new.add_argument("--variant", default="basic", choices=("basic", "standard", "expert"))
        new.add_argument("--turn-cap", type=int)
        sim.add_argument("--first", default="greedy")
        sim.add_argument("--second", default="random")
        sim.add_argument("--cap", type=int, default=60)
        sim.add_argument("--variant", default="basic", choices=("basic", "standard", "expert"))

    def cards(self, o: dict[str, Any]) -> Any:
        return load_pieces()

    def do_new(self, o: dict[str, Any]) -> Any:
        opts: dict[str, Any] = {"variant": o["variant"]}
        if o["turn_cap"]:
            opts["turn_cap"] = o["turn_cap"]
        return GAME.to_json(GAME.setup(o["seed"], opts, load_pieces()))

    def do_simulate(self, o: dict[str, Any]) -> Any:
        return match(o["first"], o["second"], o["games"], cap=o["cap"], variant=o["variant"])
