"""The "Corrections in version X" tables of cards/data/README.md, read back as data.

``undo(data, version)`` applies a table in reverse (new -> old), so a test can rebuild the
previous catalogue file from the current one and the README: if it matches the old file byte
for byte, the table lists every change. Pure Python, no Django.
"""

import copy
import json
import re
from pathlib import Path

README = Path(__file__).resolve().parent / "README.md"
APPEND = "+ "


def rows(version: str, readme: Path = README) -> list[dict]:
    """The rows of the "Corrections in version <version>" table: card, field, old, new, source.
    ``old``/``new`` are JSON values; a ``new`` of ``+ "text"`` appends text to ``source``."""
    text = Path(readme).read_text(encoding="utf-8")
    start = text.index(f"## Corrections in version {version}")
    end = text.find("\n## ", start + 1)
    out = []
    for line in text[start:end if end >= 0 else None].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[0].isdigit():
            continue
        number, _name, fld, old, new, source = cells
        row = {"card": int(number), "field": fld, "source": source}
        if new.startswith(APPEND):
            row["append"] = _json(new[len(APPEND):])
        else:
            row["old"], row["new"] = _json(old), _json(new)
        out.append(row)
    return out


def _json(cell: str):
    match = re.fullmatch(r"`(.*)`", cell)
    if not match:
        raise ValueError(f"expected a `json` cell, got {cell!r}")
    return json.loads(match.group(1))


def undo(data: dict, version: str, previous: str, readme: Path = README) -> dict:
    """The catalogue before ``version``'s corrections, with version ``previous``. Raises
    ValueError if a row's ``new`` value is not what the card holds."""
    old = copy.deepcopy(data)
    old["version"] = previous
    cards = {c["number"]: c for c in old["cards"]}
    for row in rows(version, readme):
        card = cards[row["card"]]
        if "append" in row:
            if not card[row["field"]].endswith(row["append"]):
                raise ValueError(f"card #{row['card']} {row['field']} lacks {row['append']!r}")
            card[row["field"]] = card[row["field"]][: -len(row["append"])]
            continue
        if card[row["field"]] != row["new"]:
            raise ValueError(f"card #{row['card']} {row['field']} is {card[row['field']]!r},"
                             f" the table says {row['new']!r}")
        card[row["field"]] = row["old"]
    return old


def dumps(data: dict) -> str:
    """The file's own formatting (2-space indent, UTF-8, final newline)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# Every published catalogue version, oldest first; each after the first has a "Corrections in
# version X" table in the README.
VERSIONS = ("1.0.0+2026-11-22", "1.1.0+2026-11-24", "1.2.0+2026-11-27",
            "1.3.0+2026-11-27")


def rebuild(data: dict, version: str, readme: Path = README) -> dict:
    """The catalogue as it was at ``version`` (a full version string of ``VERSIONS``), undoing
    the tables of every later version, newest first: the records that battles set up under
    that version played with (``play.CardSet`` keeps them; this rebuilds them from the file)."""
    current = VERSIONS.index(data["version"])
    target = VERSIONS.index(version)
    if target > current:
        raise ValueError(f"{version} is newer than the file's {data['version']}")
    out = data
    for i in range(current, target, -1):
        out = undo(out, VERSIONS[i].split("+")[0], VERSIONS[i - 1], readme)
    return out
