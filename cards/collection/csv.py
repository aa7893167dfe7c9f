"""Collection CSV import and export, in a format close to Deckbox / Dragon Shield.

    Count,Trade Count,Number,Name,Printing
    3,1,1,Napoléon,Gold

A file is checked completely before anything changes: a bad file is rejected whole, with every
bad row named, and the collection stays as it was. Rows are numbered as a spreadsheet numbers
them: the header is row 1, the first card row is row 2.
"""

import csv
import io
from dataclasses import dataclass, field

from django.db import transaction

from ..catalogue.records import fold
from ..models import Card, CollectionEntry, Printing
from .services import (
    FINISH_LABELS,
    FINISH_ORDER,
    MAX_QUANTITY,
    ServiceError,
    lock_users,
    locked_entries,
    save_entry,
)

COLUMNS = ["Count", "Trade Count", "Number", "Name", "Printing"]
MAX_BYTES = 1024 * 1024
MAX_ROWS = 10_000
MODES = ("add", "replace")


class CsvError(ServiceError):
    """A rejected file: `problems` names every bad row."""

    def __init__(self, problems: list[str]):
        shown = "; ".join(problems[:20]) + (f"; ... ({len(problems)} problems)"
                                            if len(problems) > 20 else "")
        super().__init__(f"file rejected, nothing changed: {shown}", errors=problems)

    @property
    def problems(self) -> list[str]:
        """Every bad row (the API has always answered them as ``errors``)."""
        return self.extra["errors"]


@dataclass
class Row:
    line: int
    count: int
    trade_count: int
    number: int
    finish: str


@dataclass
class ImportReport:
    mode: str
    rows: int = 0
    copies: int = 0
    entries_before: int = 0
    entries_after: int = 0
    changed: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"mode": self.mode, "rows": self.rows, "copies": self.copies,
                "entries_before": self.entries_before, "entries_after": self.entries_after}


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    if len(data) > MAX_BYTES:
        raise CsvError([f"the file is {len(data):,} bytes; the limit is 1 MB ({MAX_BYTES:,}"
                        " bytes)"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CsvError([f"the file is not UTF-8 text (bad byte at offset {exc.start}); save it"
                        " as CSV UTF-8"]) from exc
    return text.removeprefix("\ufeff")  # Excel's byte order mark


def _whole(text: str, what: str, line: int, problems: list[str], *, blank_is_zero=False):
    text = text.strip()
    if text == "" and blank_is_zero:
        return 0
    if text.isdigit() and text.isascii() and int(text) <= MAX_QUANTITY:
        return int(text)
    problems.append(f"row {line}: {what} must be a whole number 0-{MAX_QUANTITY}, got {text!r}")
    return None


def parse(data: bytes | str) -> list[Row]:
    """Parse and check a whole file against the catalogue; raises CsvError listing every
    problem."""
    text = _decode(data)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        while header is not None and not any(cell.strip() for cell in header):
            header = next(reader, None)
        if header is None:
            raise CsvError([f"the file is empty: the first row must be the header"
                            f" {','.join(COLUMNS)}"])
        names = [cell.strip().casefold() for cell in header]
        missing = [c for c in COLUMNS if c.casefold() not in names]
        if missing:
            raise CsvError([f"row {reader.line_num}: the header lacks the column"
                            f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
                            f" (expected {','.join(COLUMNS)})"])
        index = {c: names.index(c.casefold()) for c in COLUMNS}
        raw_rows = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue
            raw_rows.append((reader.line_num, cells))
            if len(raw_rows) > MAX_ROWS:
                raise CsvError([f"the file has more than {MAX_ROWS:,} rows"])
    except csv.Error as exc:
        raise CsvError([f"row {reader.line_num}: not valid CSV ({exc})"]) from exc

    cards = {c.number: c for c in Card.objects.only("number", "name")}
    problems: list[str] = []
    rows: list[Row] = []
    seen: dict[tuple[int, str], int] = {}
    for line, cells in raw_rows:
        if len(cells) < len(names):
            cells = cells + [""] * (len(names) - len(cells))
        value = {c: cells[i] for c, i in index.items()}
        before = len(problems)
        count = _whole(value["Count"], "Count", line, problems)
        trade = _whole(value["Trade Count"], "Trade Count", line, problems, blank_is_zero=True)
        number_text = value["Number"].strip().lstrip("#")
        number = int(number_text) if number_text.isdigit() and number_text.isascii() else None
        card = cards.get(number) if number is not None else None
        if number is None:
            problems.append(f"row {line}: Number must be a card number 1-300, got"
                            f" {value['Number'].strip()!r}")
        elif card is None:
            problems.append(f"row {line}: card #{number} does not exist")
        finish = value["Printing"].strip().casefold()
        if finish not in FINISH_LABELS:
            problems.append(f"row {line}: unknown printing {value['Printing'].strip()!r}"
                            " (use Gold, Silver or Bronze)")
        name = value["Name"].strip()
        if card is not None and name and fold(name) != fold(card.name):
            problems.append(f"row {line}: Name {name!r} does not match card #{card.number},"
                            f" which is {card.name!r}")
        if count is not None and trade is not None and trade > count:
            problems.append(f"row {line}: Trade Count {trade} is more than Count {count}")
        if len(problems) > before:
            continue
        key = (number, finish)
        if key in seen:
            problems.append(f"row {line}: duplicate of row {seen[key]} (card #{number}"
                            f" {FINISH_LABELS[finish]}); give each card and printing one row")
            continue
        seen[key] = line
        rows.append(Row(line, count, trade, number, finish))
    if problems:
        raise CsvError(problems)
    return rows


def import_csv(user, data: bytes | str, mode: str = "add") -> ImportReport:
    """Import a file: `add` adds its copies to the collection, `replace` makes the collection
    exactly the file. All or nothing."""
    if mode not in MODES:
        raise ServiceError(f"unknown import mode {mode!r} (use add or replace)")
    rows = parse(data)
    printings = {(p.card.number, p.finish): p.id for p in Printing.objects.select_related("card")
                 .filter(card__number__in={r.number for r in rows})}
    report = ImportReport(mode=mode, rows=len(rows), copies=sum(r.count for r in rows))
    with transaction.atomic():
        lock_users([user.id])
        existing = list(CollectionEntry.objects.select_for_update().filter(user=user)
                        .order_by("printing_id"))
        report.entries_before = sum(1 for e in existing if e.quantity > 0)
        in_file = {printings[(r.number, r.finish)] for r in rows}
        wanted = [(user.id, printings[(r.number, r.finish)]) for r in rows]
        locked = locked_entries(wanted + [(user.id, e.printing_id) for e in existing])
        problems = []
        for r in rows:
            entry = locked[(user.id, printings[(r.number, r.finish)])]
            if mode == "add":
                if entry.quantity + r.count > MAX_QUANTITY:
                    problems.append(f"row {r.line}: you own {entry.quantity} of card #{r.number}"
                                    f" {FINISH_LABELS[r.finish]}; adding {r.count} would exceed"
                                    f" {MAX_QUANTITY}")
                    continue
                entry.quantity += r.count
                entry.trade_quantity += r.trade_count
            else:
                entry.quantity, entry.trade_quantity = r.count, r.trade_count
        if problems:
            raise CsvError(problems)
        for (_, printing_id), entry in locked.items():
            if mode == "replace" and printing_id not in in_file:
                entry.quantity = 0
            save_entry(entry)
        report.entries_after = CollectionEntry.objects.filter(user=user, quantity__gt=0).count()
    return report


def export_csv(user) -> str:
    """The whole collection as CSV; importing it in replace mode changes nothing."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    order = {f.value: i for i, f in enumerate(FINISH_ORDER)}
    rows = (CollectionEntry.objects.filter(user=user, quantity__gt=0)
            .values_list("quantity", "trade_quantity", "printing__card__number",
                         "printing__card__name", "printing__finish"))
    for qty, trade, number, name, finish in sorted(rows, key=lambda r: (r[2], order[r[4]])):
        writer.writerow([qty, trade, number, name, FINISH_LABELS[finish]])
    return out.getvalue()
