"""python manage.py pair_round FILE.json -> the pairing as JSON (tournaments/pairing/README.md).

Exit 2 with a clear message on a malformed file, 1 when no valid pairing exists."""

import json
import sys

from django.core.management.base import BaseCommand

from tournaments.pairing import NoValidPairing, PairingError, pair_round_json


class Command(BaseCommand):
    help = "Pair one round from the documented JSON format and print the pairing as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the round's JSON file ('-' reads standard input)")

    def handle(self, *args, file, **options):
        try:
            if file == "-":
                data = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as fh:
                    data = json.load(fh)
        except OSError as exc:
            self._fail(2, f"cannot read {file}: {exc.strerror}")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self._fail(2, f"{file} is not valid JSON: {exc}")
        try:
            out = pair_round_json(data)
        except NoValidPairing as exc:
            self._fail(1, f"no valid pairing: {exc}")
        except PairingError as exc:
            self._fail(2, f"malformed pairing file {file}: {exc}")
        self.stdout.write(json.dumps(out, indent=2))

    def _fail(self, code: int, message: str):
        self.stderr.write(f"error: {message}")
        sys.exit(code)
