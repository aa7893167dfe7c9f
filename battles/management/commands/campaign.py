"""``python manage.py campaign new|legal|apply|view``: study campaigns (16.0) like ``engine``."""

from __future__ import annotations

import json

from battles.campaign import apply, from_json, legal_actions, new_campaign, to_json, view
from battles.engine import SIDES, IllegalAction
from cards.catalogue.file import catalogue_records

from .engine import Command as EngineCommand

HELP = """Work with campaigns (battles/campaign/campaign.schema.json).

  campaign new --seed S [--turn-cap N]               print a new campaign (whole set)
  campaign legal CAMPAIGN --side S                   the side's legal actions
  campaign apply CAMPAIGN --action JSON [--dice 6,5] new campaign + events
  campaign view CAMPAIGN --side S                    what that side may see

CAMPAIGN is a file, or - for standard input. Output is JSON. Errors exit with status 2.
"""


class Command(EngineCommand):
    help = HELP

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        new = sub.add_parser("new", help="print a new campaign")
        new.add_argument("--seed", default="0")
        new.add_argument("--turn-cap", type=int)
        legal = sub.add_parser("legal", help="list a side's legal actions")
        legal.add_argument("position", metavar="CAMPAIGN")
        legal.add_argument("--side", required=True, choices=SIDES)
        app = sub.add_parser("apply", help="apply one action")
        app.add_argument("position", metavar="CAMPAIGN")
        app.add_argument("--action", required=True, help="the action as JSON")
        app.add_argument("--dice", default="", help="forced dice, e.g. 6,5,4")
        vw = sub.add_parser("view", help="what one side may see")
        vw.add_argument("position", metavar="CAMPAIGN")
        vw.add_argument("--side", required=True, choices=(*SIDES, "spectator"))

    def position(self, path: str):
        raw = self.read_text(path)
        try:
            doc = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            self.fail(f"{path}: not JSON ({exc})")
        try:
            return from_json(doc, catalogue_records())
        except IllegalAction as exc:
            self.fail(f"{path}: {exc}")
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            self.fail(f"{path}: not a valid campaign ({type(exc).__name__}: {exc})")

    def do_new(self, options):
        self.emit(to_json(new_campaign(options["seed"], catalogue_records(),
                                       settings={"turn_cap": options["turn_cap"]})))

    def do_legal(self, options):
        self.emit(legal_actions(self.position(options["position"]), options["side"]))

    def do_view(self, options):
        side = None if options["side"] == "spectator" else options["side"]
        self.emit(view(self.position(options["position"]), side))

    def do_apply(self, options):
        c = self.position(options["position"])
        events, _dice = self.applied(c, options, apply)
        self.emit({"campaign": to_json(c), "events": events})
