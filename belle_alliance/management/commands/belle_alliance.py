"""``python manage.py belle_alliance new|legal|apply|view|simulate``: study and debug La Belle
Alliance positions, and play bots against each other (as ``manage.py stratego`` does)."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from belle_alliance.bots import BOTS
from belle_alliance.engine import CardData, CardDataError
from belle_alliance.loader import HOUSE, edition, load_cards
from belle_alliance.module import GAME
from belle_alliance.simulate import match
from game import SIDES

EXIT_USAGE = 2

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


class Command(BaseCommand):
    help = HELP

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> Any:
        from argparse import RawDescriptionHelpFormatter

        kwargs.setdefault("formatter_class", RawDescriptionHelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser: Any) -> None:
        sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        new = sub.add_parser("new", help="print a new game's position")
        legal = sub.add_parser("legal", help="list a side's legal actions")
        legal.add_argument("position", metavar="POSITION")
        legal.add_argument("--side", required=True, choices=SIDES)
        app = sub.add_parser("apply", help="apply one action")
        app.add_argument("position", metavar="POSITION")
        app.add_argument("--action", required=True, help="the action, as JSON")
        app.add_argument("--dice", default="", help="the dice in the order rolled, e.g. 4,2 "
                                                    "(none: the game's own stream for --seq)")
        app.add_argument("--seed", type=int, default=0)
        app.add_argument("--seq", type=int, default=1)
        see = sub.add_parser("view", help="what a side (or a spectator) sees")
        see.add_argument("position", metavar="POSITION")
        see.add_argument("--side", required=True, choices=(*SIDES, "spectator"))
        sim = sub.add_parser("simulate", help="bot against bot")
        sim.add_argument("--games", type=int, default=20)
        sim.add_argument("--french", default="greedy", choices=sorted(BOTS))
        sim.add_argument("--allied", default="random", choices=sorted(BOTS))
        sim.add_argument("--start", type=int, default=0, help="the first game's seed")
        for p in (new, legal, app, see, sim):
            p.add_argument("--data", default="", help="a card-data file (default: the "
                                                      f"{HOUSE} house edition)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            out = getattr(self, "do_" + options["command"])(options)
        except CommandError:
            raise
        except (ValueError, KeyError, OSError, CardDataError, GAME.IllegalAction,
                StopIteration) as exc:
            self.stderr.write(f"belle_alliance {options['command']}: {exc}")
            sys.exit(EXIT_USAGE)
        self.stdout.write(json.dumps(out, sort_keys=True))

    @staticmethod
    def _cards(o: dict[str, Any]) -> CardData:
        return load_cards(o["data"]) if o["data"] else edition()

    def _position(self, o: dict[str, Any]) -> Any:
        path = o["position"]
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        return GAME.from_json(json.loads(text), self._cards(o))

    def do_new(self, o: dict[str, Any]) -> Any:
        return GAME.to_json(GAME.setup(0, {}, self._cards(o)))

    def do_legal(self, o: dict[str, Any]) -> Any:
        return GAME.legal_actions(self._position(o), o["side"])

    def do_apply(self, o: dict[str, Any]) -> Any:
        st = self._position(o)
        action = json.loads(o["action"])
        dice = ([int(d) for d in o["dice"].split(",")] if o["dice"]
                else GAME.dice(o["seed"], o["seq"]))
        side = GAME.to_move(st)
        if side is not None and isinstance(action, dict):
            action = GAME.normalise_action(action, side)
        events = GAME.apply(st, action, iter(dice))
        return {"position": GAME.to_json(st), "events": events}

    def do_view(self, o: dict[str, Any]) -> Any:
        side = None if o["side"] == "spectator" else o["side"]
        return GAME.view(self._position(o), side)

    def do_simulate(self, o: dict[str, Any]) -> Any:
        return match(o["french"], o["allied"], o["games"], self._cards(o), start=o["start"])
