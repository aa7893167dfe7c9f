"""The command line of a game module, ``manage.py <game> new|legal|apply|view|simulate``
(``manage.py stratego``, ``manage.py belle_alliance``): a position is the module's
``to_json`` document, read from a file or standard input; the answer is JSON on stdout; a bad
input (bad JSON, an illegal action, too few dice, an unreadable file) exits with status 2
and says why. A game's command names its module and says what is its own: how its card
table is found, its ``new`` and ``simulate`` subcommands and their options."""

from __future__ import annotations

import json
import sys
from argparse import RawDescriptionHelpFormatter
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from game import SIDES

from .protocol import GameModule

EXIT_USAGE = 2


class ModuleCommand(BaseCommand):
    game: GameModule
    name: str  # the command's name, which starts its error lines
    errors: tuple[type[Exception], ...] = ()  # the game's own bad-input errors (exit 2)
    dice_help = "the dice in the order rolled (none: the game's own stream for --seq)"
    view_help = "what a side (or a spectator) sees"
    # apply: an action given for the side to move is first made whole by the module
    # (``normalise_action``), as the service does with a player's
    normalise = False

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> Any:
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
        app.add_argument("--dice", default="", help=self.dice_help)
        app.add_argument("--seed", type=int, default=0)
        app.add_argument("--seq", type=int, default=1)
        see = sub.add_parser("view", help=self.view_help)
        see.add_argument("position", metavar="POSITION")
        see.add_argument("--side", required=True, choices=(*SIDES, "spectator"))
        sim = sub.add_parser("simulate", help="bot against bot")
        sim.add_argument("--games", type=int, default=20)
        self.add_own_arguments({"new": new, "legal": legal, "apply": app, "view": see,
                                "simulate": sim})

    def add_own_arguments(self, parsers: dict[str, Any]) -> None:
        """The game's own options, per subcommand."""

    def cards(self, o: dict[str, Any]) -> Any:
        """The card table (or piece table) a position is read with."""
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        bad_input: tuple[type[Exception], ...] = (
            ValueError, KeyError, OSError, self.game.IllegalAction, StopIteration, *self.errors)
        try:
            out = getattr(self, "do_" + options["command"])(options)
        except CommandError:
            raise
        except bad_input as exc:
            self.stderr.write(f"{self.name} {options['command']}: {exc}")
            sys.exit(EXIT_USAGE)
        self.stdout.write(json.dumps(out, sort_keys=True))

    def position(self, o: dict[str, Any]) -> Any:
        path = o["position"]
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        return self.game.from_json(json.loads(text), self.cards(o))

    def do_legal(self, o: dict[str, Any]) -> Any:
        return self.game.legal_actions(self.position(o), o["side"])

    def do_apply(self, o: dict[str, Any]) -> Any:
        game = self.game
        st = self.position(o)
        action = json.loads(o["action"])
        dice = ([int(d) for d in o["dice"].split(",")] if o["dice"]
                else game.dice(o["seed"], o["seq"]))
        side = game.to_move(st)
        if self.normalise and side is not None and isinstance(action, dict):
            action = game.normalise_action(action, side)
        events = game.apply(st, action, iter(dice))
        return {"position": game.to_json(st), "events": events}

    def do_view(self, o: dict[str, Any]) -> Any:
        side = None if o["side"] == "spectator" else o["side"]
        return self.game.view(self.position(o), side)
