"""``python manage.py simulate_campaign --games N --seed S --french BOT --allied BOT [--json]``."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from battles.bots import BOTS
from battles.campaign.simulate import play_campaign, summarize
from battles.engine import SIMULATION_TURN_CAP, card_table
from cards.catalogue.file import catalogue_records


class Command(BaseCommand):
    help = "Play whole campaigns between computer players; print wins, branches, turns, losses."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--seed", default="0")
        parser.add_argument("--french", default="random", choices=sorted(BOTS))
        parser.add_argument("--allied", default="random", choices=sorted(BOTS))
        parser.add_argument("--turn-cap", type=int, default=SIMULATION_TURN_CAP,
                            help="Battle Turns per battle before adjudication (RULINGS 16-n)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **o):
        if o["games"] < 1:
            raise CommandError("--games must be at least 1", returncode=2)
        table = card_table(catalogue_records())
        games = []
        for i in range(o["games"]):
            games.append(play_campaign(f"{o['seed']}:{i}", o["french"], o["allied"], table,
                                       turn_cap=o["turn_cap"]))
            done = int(30 * (i + 1) / o["games"])
            sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {i + 1}/{o['games']}")
        sys.stderr.write("\n")
        summary = summarize(games)
        if o["json"]:
            self.stdout.write(json.dumps({**summary, "french": o["french"],
                                          "allied": o["allied"], "seed": o["seed"]}, indent=2))
            return
        s = summary
        self.stdout.write(f"{s['games']} campaigns, French {o['french']} vs Allied {o['allied']}\n"
                          f"wins: French {s['wins']['french']}, Allied {s['wins']['allied']}\n"
                          f"branches: first only {s['branches']['first']}, Wavre+Waterloo "
                          f"{s['branches']['second']}, Charleroi {s['branches']['charleroi']}\n"
                          f"mean Battle Turns {s['mean_turns']}; mean losses French "
                          f"{s['mean_losses']['french']}, Allied {s['mean_losses']['allied']}")
