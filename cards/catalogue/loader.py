"""Load cards/data/catalogue.json into the database: validated, idempotent, never destructive.

A card's number never changes meaning, so a card may be corrected but never removed; a
corrected file must carry a new version, and only the cards whose values changed are written.
"""

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from ..models import Card, CatalogueRelease, Finish, Printing
from .records import model_values
from .validation import validate_catalogue

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "catalogue.json"


class CatalogueError(Exception):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems[:5]) + (" ..." if len(problems) > 5 else ""))


@dataclass
class LoadReport:
    version: str
    created: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    unchanged: int = 0
    printings_created: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.printings_created)


def read_catalogue(path: Path = DATA_FILE) -> tuple[dict, str]:
    """Parse and validate the data file; returns (data, sha256 of its bytes)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise CatalogueError([f"cannot read {path}: {exc.strerror}"]) from exc
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CatalogueError([f"{path} is not UTF-8 (byte {exc.start})"]) from exc
    except json.JSONDecodeError as exc:
        raise CatalogueError([f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}:"
                              f" {exc.msg}"]) from exc
    problems = validate_catalogue(data)
    if problems:
        raise CatalogueError(problems)
    return data, hashlib.sha256(raw).hexdigest()


def load_catalogue(path: Path = DATA_FILE) -> LoadReport:
    data, checksum = read_catalogue(path)
    version = data["version"]
    report = LoadReport(version=version)
    with transaction.atomic():
        known = CatalogueRelease.objects.filter(version=version).first()
        if known and known.checksum != checksum:
            raise CatalogueError([f"the data file changed but its version is still {version}:"
                                  " give a corrected file a new version"])
        existing = {card.number: card for card in Card.objects.select_for_update()}
        in_file = {record["number"] for record in data["cards"]}
        dropped = sorted(set(existing) - in_file)
        if dropped:
            raise CatalogueError([f"card #{n} is loaded but missing from the file: card numbers"
                                  " never change meaning, so cards are corrected, never removed"
                                  for n in dropped])
        for record in data["cards"]:
            values = model_values(record)
            card = existing.get(record["number"])
            if card is None:
                Card.objects.create(data_version=version, **values)
                report.created.append(record["number"])
                continue
            changed = [name for name, value in values.items() if getattr(card, name) != value]
            if changed:
                for name in changed:
                    setattr(card, name, values[name])
                card.data_version = version
                card.save(update_fields=[*changed, "data_version"])
                report.updated.append(card.number)
            else:
                report.unchanged += 1
        report.printings_created = _ensure_printings()
        if known is None:
            CatalogueRelease.objects.create(version=version, checksum=checksum,
                                            created=len(report.created),
                                            updated=len(report.updated))
    return report


def _ensure_printings() -> int:
    """Every card exists in Gold, Silver and Bronze (18.0)."""
    have = set(Printing.objects.values_list("card_id", "finish"))
    missing = [Printing(card_id=card_id, finish=finish)
               for card_id in Card.objects.values_list("id", flat=True)
               for finish in Finish.values if (card_id, finish) not in have]
    Printing.objects.bulk_create(missing)
    return len(missing)


def current_version() -> str | None:
    release = CatalogueRelease.objects.order_by("-loaded_at", "-id").first()
    return release.version if release else None
