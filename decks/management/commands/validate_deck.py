"""``python manage.py validate_deck FILE --battle B --army A``: check a deck-list file.

A list is checked as chosen cards, a custom deck (15.0), unless ``--pool`` says it is the pool
a dealt deck (2.0) is dealt from, or ``--campaign`` (16.0)."""

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from decks import checks, inputs
from decks.catalogue import cards_by_number
from decks.rules import ARMIES, BATTLES, line_problems, parse_decklist, read_header
from decks.rules.decklist import MAX_CHARS

EXIT_VALID, EXIT_INVALID, EXIT_USAGE = 0, 1, 2

HELP = """Check a deck-list file against the deck rules (2.0, 3.0, 15.0, 16.0).

The file holds one entry a line ('COUNT #NUMBER' or 'COUNT NAME', an optional printing,
// comments, section headers ignored; see decks/rules/README.md). '-' reads standard input.
The export's first line ('// Quatre Bras, French, custom deck, scale 1') gives the battle and
army when --battle and --army are not given.

A hand-picked list is a custom deck (15.0): the BP limit x scale, at most 3 copies of a card
across printings, no General or Terrain twice. A standard deck is not picked but dealt (2.0):
--pool checks the list as the pool it is dealt from (cards of the army only, counts ignored:
can it deal D x scale distinct cards? another battle's Terrain is a warning, never dealt).
A line naming a card that does not exist is an unknown_card problem with its line number.

Exit status: 0 the deck is valid; 1 the deck is not valid, or lines of the list cannot be
read (each reported with its line number); 2 usage or file error (bad option, unreadable
file, scale that is not a number, unknown --user). With --user the deck is also checked
against that user's collection: missing cards are warnings (a valid draft), not errors.
"""


class Command(BaseCommand):
    help = HELP

    def create_parser(self, prog_name, subcommand, **kwargs):
        from argparse import RawDescriptionHelpFormatter

        kwargs.setdefault("formatter_class", RawDescriptionHelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="deck-list text file, or - for stdin")
        parser.add_argument("--battle", choices=BATTLES,
                            help="the battle (default: the list's first line)")
        parser.add_argument("--army", choices=ARMIES,
                            help="the army (default: the list's first line)")
        kind = parser.add_mutually_exclusive_group()
        kind.add_argument("--custom", action="store_true",
                          help="a 15.0 custom deck (Battle Points, up to 3 copies): the default")
        kind.add_argument("--pool", action="store_true",
                          help="the list is the pool a 2.0 dealt deck is dealt from")
        kind.add_argument("--campaign", action="store_true", help="a 16.0 campaign deck")
        parser.add_argument("--scale", default="1", help="deck scale: 1, 0.5, 1/2 (default 1)")
        parser.add_argument("--historical", action="store_true",
                            help="every card must have fought in the battle (2.0 option)")
        parser.add_argument("--user", metavar="NAME",
                            help="also check against this user's collection")
        parser.add_argument("--json", action="store_true", help="print the answer as JSON")

    def fail(self, message: str, code: int = EXIT_USAGE):
        raise CommandError(message, returncode=code)

    def read(self, path: str) -> bytes:
        try:
            if path == "-":
                return sys.stdin.buffer.read(MAX_CHARS + 1)
            with open(path, "rb") as handle:
                return handle.read(MAX_CHARS + 1)
        except OSError as exc:
            self.fail(f"cannot read {path}: {exc.strerror or exc}")

    def handle(self, *args, **options):
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                self.fail(f"no user named {options['user']!r}")
        try:
            scale = inputs.clean_scale(options["scale"])
        except inputs.DeckInputError as exc:
            self.fail(exc.message)
        kind = "dealt" if options["pool"] else "campaign" if options["campaign"] else "custom"
        text = self.read(options["file"])
        header = read_header(text)
        for key in ("battle", "army"):
            options[key] = options[key] or header.get(key)
            if not options[key]:
                self.fail(f"--{key} is required (the list's first line does not name it)")
        entries, errors = parse_decklist(text, cards_by_number())
        unknown, errors = line_problems(errors)  # unknown cards: problems with their line
        try:
            result = checks.check(battle=options["battle"], army=options["army"], kind=kind,
                                    scale=scale, historical=options["historical"],
                                    entries=entries, user=user)
        except inputs.DeckInputError as exc:
            self.fail(exc.message)
        answer = result.to_dict()
        answer["problems"] = [p.to_dict() for p in unknown] + answer["problems"]
        answer["valid"] = result.valid and not errors and not unknown
        answer["parse_errors"] = [{"line": e.line, "message": e.message} for e in errors]
        if options["json"]:
            self.stdout.write(json.dumps(answer, ensure_ascii=False, indent=2))
        else:
            self.stdout.write(self.report(answer, options, kind))
        if not answer["valid"]:
            self.fail("the deck is not valid", EXIT_INVALID)

    def report(self, answer: dict, options: dict, kind: str) -> str:
        limit = answer["bp_limit"]
        muster = "no muster" if answer["muster"] is None else f"muster {answer['muster']}"
        if kind == "dealt":
            what = (f"{options['battle']} {options['army']} pool for a dealt deck, scale "
                    f"{answer['scale']}: {answer['pool_size']} distinct cards can be dealt "
                    f"(the deal takes {answer['required_size']})")
        else:
            what = (f"{options['battle']} {options['army']} {kind} deck, scale "
                    f"{answer['scale']}: {answer['size']} cards")
        lines = [
            what
            + (f" (needs {answer['required_size']})"
               if answer["required_size"] and kind != "dealt" else "")
            + f", BP {answer['bp_total']}" + (f" (limit {limit})" if limit is not None else "")
            + f", {muster}, reinforcements {answer['reinforcement_rate']}",
        ]
        for error in answer["parse_errors"]:
            where = f"line {error['line']}: " if error["line"] else ""
            lines.append(f"  parse error: {where}{error['message']}")
        for problem in answer["problems"]:
            lines.append(f"  {problem['severity']} {problem['code']}: {problem['message']}")
        count = len(answer["problems"]) + len(answer["parse_errors"])
        lines.append("VALID" + (f" ({count} warning{'s' * (count != 1)})" if count else "")
                     if answer["valid"] else f"NOT VALID ({count} problem{'s' * (count != 1)})")
        return "\n".join(lines)
