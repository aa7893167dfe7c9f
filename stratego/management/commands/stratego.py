"""``python manage.py stratego new|legal|apply|view|simulate``: study and debug Stratego:
Waterloo positions, and play bots against each other (as ``manage.py engine`` does for the
EAGLES battle)."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from game import SIDES
from stratego.loader import load_pieces
from stratego.module import GAME
from stratego.simulate import match

EXIT_USAGE = 2

HELP = """Work with Stratego: Waterloo positions (the module's to_json document).

  stratego new --seed S [--variant basic|standard|expert]   print a new game (before set-up)
  stratego legal POSITION --side S                           the side's legal actions
  stratego apply POSITION --action JSON [--dice 1,4,6]       new position + events
  stratego view POSITION --side S|spectator                  what that viewer may see
  stratego simulate --games N [--first B --second B]         bot against bot

POSITION is a file, or - for standard input. Output is JSON on stdout. Errors (bad JSON, an
illegal action, too few dice, an unreadable file) exit with status 2.
"""


class Command(BaseCommand):
    help = HELP

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> Any:
        from argparse import RawDescriptionHelpFormatter

        kwargs.setdefault("formatter_class", RawDescriptionHelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser: Any) -> None:
        sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        new = sub.add_parser("new", help="print a new game's position")
        new.add_argument("--seed", type=int, default=0)
        new.add_argument("--variant", default="basic", choices=("basic", "standard", "expert"))
        new.add_argument("--turn-cap", type=int)
        legal = sub.add_parser("legal", help="list a side's legal actions")
        legal.add_argument("position", metavar="POSITION")
        legal.add_argument("--side", required=True, choices=SIDES)
        app = sub.add_parser("apply", help="apply one action")
        app.add_argument("position", metavar="POSITION")
        app.add_argument("--action", required=True, help="the action, as JSON")
        app.add_argument("--dice", default="", help="the battle die's faces, e.g. 1,4 "
                                                   "(none: the game's own stream for --seq)")
        app.add_argument("--seed", type=int, default=0)
        app.add_argument("--seq", type=int, default=1)
        see = sub.add_parser("view", help="what a side (or a spectator) may see")
        see.add_argument("position", metavar="POSITION")
        see.add_argument("--side", required=True, choices=(*SIDES, "spectator"))
        sim = sub.add_parser("simulate", help="bot against bot")
        sim.add_argument("--games", type=int, default=20)
        sim.add_argument("--first", default="greedy")
        sim.add_argument("--second", default="random")
        sim.add_argument("--cap", type=int, default=60)
        sim.add_argument("--variant", default="basic", choices=("basic", "standard", "expert"))

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            out = getattr(self, "do_" + options["command"])(options)
        except CommandError:
            raise
        except (ValueError, KeyError, OSError, GAME.IllegalAction, StopIteration) as exc:
            self.stderr.write(f"stratego {options['command']}: {exc}")
            sys.exit(EXIT_USAGE)
        self.stdout.write(json.dumps(out, sort_keys=True))

    @staticmethod
    def _position(path: str) -> Any:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        return GAME.from_json(json.loads(text), load_pieces())

    def do_new(self, o: dict[str, Any]) -> Any:
        opts: dict[str, Any] = {"variant": o["variant"]}
        if o["turn_cap"]:
            opts["turn_cap"] = o["turn_cap"]
        return GAME.to_json(GAME.setup(o["seed"], opts, load_pieces()))

    def do_legal(self, o: dict[str, Any]) -> Any:
        return GAME.legal_actions(self._position(o["position"]), o["side"])

    def do_apply(self, o: dict[str, Any]) -> Any:
        st = self._position(o["position"])
        action = json.loads(o["action"])
        dice = ([int(d) for d in o["dice"].split(",")] if o["dice"]
                else GAME.dice(o["seed"], o["seq"]))
        events = GAME.apply(st, action, iter(dice))
        return {"position": GAME.to_json(st), "events": events}

    def do_view(self, o: dict[str, Any]) -> Any:
        side = None if o["side"] == "spectator" else o["side"]
        return GAME.view(self._position(o["position"]), side)

    def do_simulate(self, o: dict[str, Any]) -> Any:
        return match(o["first"], o["second"], o["games"], cap=o["cap"], variant=o["variant"])
