from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards.catalogue.loader import DATA_FILE, CatalogueError, load_catalogue


class Command(BaseCommand):
    help = "Load (or update) the 300-card catalogue from its data file. Safe to run again."

    def add_arguments(self, parser):
        parser.add_argument("--file", type=Path, default=DATA_FILE)

    def handle(self, *args, file: Path, **options):
        try:
            report = load_catalogue(file)
        except CatalogueError as exc:
            raise CommandError("the catalogue file is invalid; nothing was loaded:\n  "
                               + "\n  ".join(exc.problems)) from exc
        if report.changed:
            self.stdout.write(f"Catalogue {report.version}: {len(report.created)} cards created,"
                              f" {len(report.updated)} updated, {report.unchanged} unchanged,"
                              f" {report.printings_created} printings created.")
        else:
            self.stdout.write(f"Catalogue {report.version} is already loaded; nothing changed.")
