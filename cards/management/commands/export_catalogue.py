import csv
import json
import sys

from django.core.management.base import BaseCommand, CommandError

from cards.catalogue.loader import current_version
from cards.catalogue.records import RECORD_KEYS, card_record
from cards.models import Card


class Command(BaseCommand):
    help = "Print the whole loaded catalogue (bulk data), each card stamped with the version."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=["json", "csv"], default="json")

    def handle(self, *args, format: str, **options):
        version = current_version()
        if version is None:
            raise CommandError("no catalogue is loaded: run `python manage.py load_catalogue`")
        records = []
        for card in Card.objects.order_by("number"):
            record = card_record(card)
            record["catalogue_version"] = version
            records.append(record)
        if format == "json":
            self.stdout.write(json.dumps(records, ensure_ascii=False, indent=1))
            return
        keys = [*RECORD_KEYS, "ob", "data_version", "catalogue_version"]
        writer = csv.DictWriter(sys.stdout, fieldnames=keys, lineterminator="\n")
        writer.writeheader()
        for record in records:
            writer.writerow({k: ("|".join(v) if k == "battles" else
                                 json.dumps(v) if isinstance(v, (dict, list)) else v)
                             for k, v in record.items()})
