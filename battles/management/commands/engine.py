"""``python manage.py engine new|legal|apply|view``: study and debug battle positions."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from battles.engine import (
    SIDES,
    DiceExhausted,
    IllegalAction,
    apply,
    from_json,
    legal_actions,
    new_battle,
    to_json,
    view,
)
from battles.engine.state import BATTLES
from battles.simulate import LIST_KINDS, deck_from_text, decks_from_lists
from cards.catalogue.file import catalogue_records

EXIT_USAGE = 2

HELP = """Work with battle positions (the JSON format of battles/engine/position.schema.json).

  engine new --battle B --seed S [--french-deck F --allied-deck F [--deck-kind K]]
                                                         print a new position
  engine legal POSITION --side S                                      the side's legal actions
  engine apply POSITION --action JSON [--dice 6,5,4]                  new position + events
  engine view POSITION --side S                                       what that side may see

POSITION is a file, or - for standard input. Output is JSON on stdout. Errors (bad JSON, an
illegal action, too few dice, unreadable file) exit with status 2.
"""


class Command(BaseCommand):
    help = HELP

    def create_parser(self, prog_name, subcommand, **kwargs):
        from argparse import RawDescriptionHelpFormatter

        kwargs.setdefault("formatter_class", RawDescriptionHelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        new = sub.add_parser("new", help="print a new battle's position")
        new.add_argument("--battle", required=True, choices=BATTLES)
        new.add_argument("--seed", default="0")
        new.add_argument("--french-deck", metavar="FILE")
        new.add_argument("--allied-deck", metavar="FILE")
        new.add_argument("--deck-kind", choices=LIST_KINDS, default="custom",
                         help="what a deck-list file is: custom (the default, as "
                              "validate_deck: Muster 50 %%) or dealt (a pool, dealt D cards "
                              "from the seed, mustered by the chart)")
        new.add_argument("--turn-cap", type=int)
        new.add_argument("--decoys", action="store_true", help="the 14.0 decoy option")
        legal = sub.add_parser("legal", help="list a side's legal actions")
        legal.add_argument("position", metavar="POSITION")
        legal.add_argument("--side", required=True, choices=SIDES)
        app = sub.add_parser("apply", help="apply one action")
        app.add_argument("position", metavar="POSITION")
        app.add_argument("--action", required=True, help="the action as JSON")
        app.add_argument("--dice", default="", help="forced dice, e.g. 6,5,4")
        vw = sub.add_parser("view", help="what one side may see")
        vw.add_argument("position", metavar="POSITION")
        vw.add_argument("--side", required=True, choices=(*SIDES, "spectator"))

    def fail(self, message: str):
        raise CommandError(message, returncode=EXIT_USAGE)

    def emit(self, doc) -> None:
        self.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False))

    def read_text(self, path: str) -> bytes:
        try:
            if path == "-":
                return sys.stdin.buffer.read()
            with open(path, "rb") as handle:
                return handle.read()
        except OSError as exc:
            self.fail(f"cannot read {path}: {exc.strerror or exc}")

    def position(self, path: str):
        raw = self.read_text(path)
        try:
            doc = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            self.fail(f"{path}: not JSON ({exc})")
        if not isinstance(doc, dict):
            self.fail(f"{path}: a position is a JSON object")
        try:
            return from_json(doc, catalogue_records())
        except IllegalAction as exc:
            self.fail(f"{path}: {exc}")
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            self.fail(f"{path}: not a valid position ({type(exc).__name__}: {exc})")

    def handle(self, *args, **options):
        getattr(self, "do_" + options["command"])(options)

    def do_new(self, options):
        decks: dict[str, list[int]] = {}
        for side in SIDES:
            path = options[f"{side}_deck"]
            if path:
                try:
                    decks.update(deck_from_text(self.read_text(path), side))
                except ValueError as exc:
                    self.fail(f"{path}: {exc}")
        kinds = None
        if decks:
            try:
                decks, kinds = decks_from_lists(options["battle"], options["seed"], decks,
                                                options["deck_kind"])
            except ValueError as exc:
                self.fail(str(exc))
        settings = {}
        if options["turn_cap"] is not None:
            settings["turn_cap"] = options["turn_cap"]
        if options["decoys"]:
            settings["decoys"] = True
        try:
            st = new_battle(options["battle"], options["seed"], decks or None, settings or None,
                            cards=catalogue_records(), deck_kinds=kinds)
        except IllegalAction as exc:
            self.fail(str(exc))
        self.emit(to_json(st))

    def do_legal(self, options):
        st = self.position(options["position"])
        self.emit(legal_actions(st, options["side"]))

    def do_view(self, options):
        st = self.position(options["position"])
        side = None if options["side"] == "spectator" else options["side"]
        self.emit(view(st, side))

    def do_apply(self, options):
        st = self.position(options["position"])
        events, dice = self.applied(st, options, apply)
        self.emit({"position": to_json(st), "events": events, "dice_used": len(dice)})

    def applied(self, position, options, apply_fn) -> tuple[list, list[int]]:
        """``apply_fn(position, --action, --dice)``: (events, dice); any refusal (not JSON, a
        bad die, too few dice, illegal, malformed) fails the command with a precise message.
        Shared with the ``campaign`` command."""
        try:
            action = json.loads(options["action"])
        except ValueError as exc:
            self.fail(f"--action: not JSON ({exc})")
        dice = []
        for part in options["dice"].replace(" ", "").split(","):
            if not part:
                continue
            if not part.isdigit() or not 1 <= int(part) <= 6:
                self.fail(f"--dice: {part!r} is not a die (1-6)")
            dice.append(int(part))
        try:
            return apply_fn(position, action, dice), dice
        except DiceExhausted as exc:
            self.fail(f"not enough dice: {exc}; pass them with --dice, e.g. --dice 6,5,4")
        except IllegalAction as exc:
            self.fail(str(exc))
        except (KeyError, TypeError, ValueError) as exc:
            self.fail(f"--action: malformed action ({type(exc).__name__}: {exc})")
