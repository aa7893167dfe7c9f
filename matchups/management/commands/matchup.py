"""``python manage.py matchup DECK_A DECK_B --games N --seed S [--bots search,greedy] [--json]``

Deck A against deck B (deck version ids of one owner; DECK_B may be ``historical``), played in
this process with a progress bar on stderr. The answer is stored like the lab's
(``matchups.services.ask``): the same question asked again prints the stored results.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from config.errors import ServiceError
from decks.models import DeckVersion
from matchups import services
from matchups.words import summary_lines


class Command(BaseCommand):
    help = "Play N battles of deck A against deck B (or the historical deal) with two bots."

    def add_arguments(self, parser):
        parser.add_argument("deck_a", help="deck version id")
        parser.add_argument("deck_b", help='deck version id, or "historical"')
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=services.DEFAULT_SEED)
        parser.add_argument("--bots", default=",".join(services.DEFAULT_BOTS),
                            help="deck A's bot,deck B's bot (one name: both)")
        parser.add_argument("--json", action="store_true", help="print the results as JSON")

    def handle(self, *args, **opts):
        version = (DeckVersion.objects.select_related("deck__owner")
                   .filter(pk=int(opts["deck_a"]) if opts["deck_a"].isdigit() else None).first())
        if version is None:
            raise CommandError(f"no such deck version {opts['deck_a']}")
        try:
            m, _created = services.ask(version.deck.owner, opts["deck_a"], opts["deck_b"],
                                       opts["bots"], opts["games"], opts["seed"],
                                       enqueue=False, limit=False)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        err = self.stderr._out if hasattr(self.stderr, "_out") else sys.stderr
        total, done = m.games, [m.progress]

        def bar(_game: int) -> None:
            done[0] += 1
            filled = int(30 * done[0] / total)
            err.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done[0]}/{total}")
            err.flush()

        if m.status != "done":
            m = services.run_inline(m, progress=bar)
            err.write("\n")
        else:
            err.write(f"stored answer: {total}/{total}\n")
        if m.status != "done":
            raise CommandError(f"the matchup {m.status}: {m.error}")
        if opts["json"]:
            self.stdout.write(json.dumps(services.as_dict(m), indent=2, sort_keys=True))
        else:
            self.stdout.write("\n".join(summary_lines(services.as_dict(m))))
