"""The builder's working list, stateless: the unsaved cards live in the builder form itself
(hidden ``n``/``c`` inputs and a ``p`` printing select per row, plus the deck settings). Each
edit posts the whole form; these functions read it back (garbage dropped), apply the one edit
and tell whether the result differs from the last saved version.
"""

from __future__ import annotations

from cards.models import Army, Battle
from decks.models import Deck, DeckKind, DeckPool
from decks.rules import PRINTINGS

MAX_ROWS = 300  # a working list longer than any legal deck (custom: 3 x 110 cards at most)
MAX_COUNT = 99


def _whole(value, low: int, high: int) -> int | None:
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        return None
    number = int(text)
    return number if low <= number <= high else None


def _printing(value) -> str | None:
    text = (value or "").strip().lower()
    return text if text in PRINTINGS else None


def posted_entries(data) -> list[list]:
    """The working list from the builder form: rows [number, count, printing|None].

    Garbage rows are dropped (a tampered form is not the user's deck); unknown numbers are kept
    so that the rules report them as unknown_card.
    """
    numbers, counts, printings = data.getlist("n"), data.getlist("c"), data.getlist("p")
    rows = []
    for i, raw in enumerate(numbers[:MAX_ROWS]):
        number = _whole(raw, 1, 99_999)
        count = _whole(counts[i] if i < len(counts) else "1", 1, MAX_COUNT)
        if number is None or count is None:
            continue
        rows.append([number, count, _printing(printings[i] if i < len(printings) else "")])
    return rows


def _form_text(value) -> str:
    """Text from a form field as it is stored: browsers post textarea line breaks as CRLF."""
    return (value or "").replace("\r\n", "\n").replace("\r", "\n").strip()


TEXT_SETTINGS = ("name", "description")


def posted_settings(data, deck: Deck) -> dict:
    """Deck settings from the builder form, falling back to the deck's own.

    Name and description are not cut to length here: saving refuses an over-long one with a
    message (``services.save_version``) instead of silently dropping the end of it. An empty
    name keeps the deck's; an empty description (the field posted, but blank) clears it.
    """
    scale = (data.get("scale") or deck.scale).strip()[:12]
    return {
        "name": _form_text(data.get("name")) or deck.name,
        "description": (_form_text(data["description"]) if "description" in data
                        else deck.description),
        "battle": data.get("battle") if data.get("battle") in Battle.values else deck.battle,
        "army": data.get("army") if data.get("army") in Army.values else deck.army,
        "kind": data.get("kind") if data.get("kind") in DeckKind.values else deck.kind,
        "scale": scale,
        "historical": (data.get("historical") in ("1", "on", "true")
                       if "settings" in data else deck.historical),
        "pool": data.get("pool") if data.get("pool") in DeckPool.values else deck.pool,
    }


def version_entries(version) -> list[list]:
    return [[int(e[0]), int(e[1]), e[2] if len(e) > 2 else None]
            for e in (version.entries if version else [])]


def deck_settings(deck: Deck) -> dict:
    return {"name": deck.name, "description": deck.description, "battle": deck.battle,
            "army": deck.army, "kind": deck.kind, "scale": deck.scale,
            "historical": deck.historical, "pool": deck.pool}


def apply_edit(rows: list[list], op: str) -> list[list]:
    """One builder edit: ``add:N``, ``inc:I``, ``dec:I``, ``del:I`` (I: row index)."""
    action, _, arg = (op or "").partition(":")
    if action == "add":
        number = _whole(arg, 1, 99_999)
        if number is None:
            return rows
        for row in rows:  # a second copy of a card goes on its row (15.0 then checks the
            if row[0] == number:  # copies: 3 at most, Generals and Terrain once)
                row[1] = min(row[1] + 1, MAX_COUNT)
                return rows
        if len(rows) < MAX_ROWS:
            rows.append([number, 1, None])
        return rows
    index = _whole(arg, 0, len(rows) - 1) if rows else None
    if index is None:
        return rows
    if action == "inc":
        rows[index][1] = min(rows[index][1] + 1, MAX_COUNT)
    elif action == "dec":
        rows[index][1] -= 1
        if rows[index][1] <= 0:
            del rows[index]
    elif action == "del":
        del rows[index]
    return rows


def as_entries(rows) -> list[tuple]:
    return [(n, c, p) for n, c, p in rows]


def _same_cards(rows, version) -> bool:
    canon = sorted((n, c, p or "") for n, c, p in rows)
    return canon == sorted((n, c, p or "") for n, c, p in version_entries(version))


def same_as_saved(rows, version, settings: dict, deck: Deck) -> bool:
    """Whether the working list and settings (name and description included) are what the
    latest version saved."""
    if version is None:
        return not rows

    def value(key, v):
        return _form_text(v) if key in TEXT_SETTINGS else v

    return _same_cards(rows, version) and all(value(k, settings[k]) == value(k, getattr(deck, k))
                                              for k in settings)


RULE_SETTINGS = ("battle", "army", "kind", "scale", "historical", "pool")


def shown_version(rows, version, settings: dict):
    """The saved ``version`` while the working list is its cards and rule settings, else None:
    an edited list is a new version once saved. The deck check takes it as ``version``
    (``decks.selectors.free_copies``): the copies a tournament holds for a locked version back
    that version as shown, never an edited list, which save makes a new version."""
    if version is None or not _same_cards(rows, version):
        return None
    return version if all(settings[k] == getattr(version, k) for k in RULE_SETTINGS) else None

