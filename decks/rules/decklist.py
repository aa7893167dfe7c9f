"""The deck-list text format: parse a pasted list, print one that parses back to the same deck.

One entry per line::

    // Waterloo, French, standard deck          <- comment (anything after // on any line)
    Generals (2)                                <- section header: ignored
    1 #1 Napoléon                               <- COUNT #NUMBER; a name after it is a label
    2x Old Guard Grenadiers (gold)              <- COUNT NAME, optional 'x', optional printing
    1 #7 *S*                                    <- printing as *G* / *S* / *B* also accepted

- COUNT is a whole number from 1 to 99, optionally followed by ``x`` (``3x``, ``3 x``).
- ``#NUMBER`` wins over any name written after it (numbers never change meaning; names may be
  corrected). A NAME is matched ignoring case, accents, repeated spaces and curly quotes.
- Printing: ``(gold)``, ``(silver)``, ``(bronze)`` (the form printed) or ``*G*``, ``*S*``,
  ``*B*``, at the end of the line; without one the entry is "any printing".
- Ignored: blank lines, ``//`` comments, section headers (a line without a count that ends with
  ``:``, looks like ``Infantry (12)`` or ``Total: 36``, or is a card type word).
- Limits: 500 lines, 300 characters a line; more lines give the single error
  "too many lines (max 500)".

``parse`` never raises: bytes are decoded as UTF-8 with bad bytes replaced, and every bad line
gives a ``LineError`` with its line number. Repeated lines for one card add up.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from game import CARD_TYPES

from .chart import ARMY_NAMES, BATTLE_NAMES
from .deck import Deck, DeckEntry, canonical_entries
from .validate import ERROR, Problem

MAX_LINES = 500
MAX_LINE_LENGTH = 300
MAX_CHARS = 1_000_000
MAX_COUNT = 99

TYPE_HEADERS = {"general": "Generals", "infantry": "Infantry", "cavalry": "Cavalry",
                "artillery": "Artillery", "terrain": "Terrain", "special": "Specials"}
_HEADER_WORDS = {w for t in CARD_TYPES for w in (t, t + "s")} | {"unknown", "deck", "main"}

_ENTRY = re.compile(r"^(?P<count>[+-]?\d+)(?:\s*[x×](?=[\s#])|(?=[\s#]))\s*(?P<rest>.*)$", re.I)
_PRINTING = re.compile(r"\s*(?:\(\s*(?P<word>gold|silver|bronze)\s*\)"
                       r"|\*(?P<star>[gsb]|gold|silver|bronze)\*)$", re.I)
_NUMBER = re.compile(r"^#\s*(?P<number>\S*)(?:\s+.*)?$")
_HEADER = re.compile(r"^(?:.*:|[^\d#]*\(\s*\d+\s*\)|[^\d#:]+:\s*\d+)$")
_STAR = {"g": "gold", "s": "silver", "b": "bronze"}
_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "“": '"', "”": '"',
                         "–": "-", "—": "-"})


@dataclass(frozen=True, slots=True)
class LineError:
    line: int | None  # 1-based; None for an error about the whole text
    message: str
    code: str | None = None  # "unknown_card": the line names a card that does not exist
    card: int | None = None  # the unknown card number, when the line gave one

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


def fold(text: str) -> str:
    """Lower case, no accents, plain quotes, single spaces: 'Napoléon ' -> 'napoleon'."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_QUOTES))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def _name_index(cards_by_number: Mapping[int, Mapping]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    for number, card in cards_by_number.items():
        name = card.get("name")
        if isinstance(name, str) and name.strip():
            index.setdefault(fold(name), []).append(number)
    return index


def _shown(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def parse(text: str | bytes, cards_by_number: Mapping[int, Mapping]
          ) -> tuple[tuple[DeckEntry, ...], list[LineError]]:
    """Entries (merged and sorted) and the errors of a deck list. Never raises."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_CHARS:
            return (), [LineError(None, f"the list is too long (max {MAX_CHARS} bytes)")]
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        return (), [LineError(None, "the list is not text")]
    if len(text) > MAX_CHARS:
        return (), [LineError(None, f"the list is too long (max {MAX_CHARS} characters)")]
    lines = text.removeprefix("\ufeff").splitlines()
    if len(lines) > MAX_LINES:
        return (), [LineError(None, f"too many lines (max {MAX_LINES}); this list has "
                                    f"{len(lines)}")]
    index: dict[str, list[int]] | None = None
    entries: list[DeckEntry] = []
    errors: list[LineError] = []
    for line_no, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_LENGTH:
            errors.append(LineError(line_no, f"the line is too long (max {MAX_LINE_LENGTH} "
                                             "characters)"))
            continue
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        match = None if line.endswith(":") else _ENTRY.match(line)
        if match is None:
            if _HEADER.match(line) or fold(line) in _HEADER_WORDS:
                continue
            errors.append(LineError(line_no, f"expected 'COUNT #NUMBER' or 'COUNT NAME' (for "
                                             f"example '1 #12' or '2x Napoléon'), not "
                                             f"{_shown(line)}"))
            continue
        count = int(match["count"])
        if count < 1 or count > MAX_COUNT:
            errors.append(LineError(line_no, f"the count {match['count']} is not a number of "
                                             f"copies (1 to {MAX_COUNT})"))
            continue
        rest = match["rest"]
        printing = None
        marker = _PRINTING.search(rest)
        if marker:
            word = (marker["word"] or marker["star"]).lower()
            printing = _STAR.get(word, word)
            rest = rest[:marker.start()]
        rest = rest.strip()
        if not rest:
            errors.append(LineError(line_no, f"{count} of what? Write a card number ('#12') or "
                                             "a card name after the count"))
            continue
        numbered = _NUMBER.match(rest)
        if numbered:
            digits = numbered["number"]
            if not digits.isascii() or not digits.isdigit() or len(digits) > 6:
                errors.append(LineError(line_no, f"{_shown('#' + digits)} is not a card number"))
                continue
            number = int(digits)
            if number not in cards_by_number:
                errors.append(LineError(line_no, f"there is no card #{number}",
                                        "unknown_card", number))
                continue
            entries.append(DeckEntry(number, count, printing))
            continue
        if index is None:
            index = _name_index(cards_by_number)
        key = fold(rest)
        numbers = index.get(key)
        if not numbers:
            guess = difflib.get_close_matches(key, index, n=1, cutoff=0.6)
            hint = ""
            if guess:
                name = cards_by_number[index[guess[0]][0]]["name"]
                hint = f" (did you mean {name!r}?)"
            errors.append(LineError(line_no, f"no card named {_shown(rest)}{hint}",
                                    "unknown_card"))
            continue
        if len(numbers) > 1:
            which = ", ".join(f"#{n}" for n in sorted(numbers))
            errors.append(LineError(line_no, f"{_shown(rest)} is the name of several cards "
                                             f"({which}); write the number instead"))
            continue
        entries.append(DeckEntry(numbers[0], count, printing))
    return canonical_entries(entries), errors


_HEADER_KINDS = {"dealt": "dealt", "custom": "custom", "campaign": "campaign",
                 "standard": "custom"}  # exports before 2.0 decks were dealt: chosen cards


def read_header(text: str | bytes) -> dict:
    """The settings ``format`` writes on its first line, as far as they are there:
    ``// Quatre Bras, French, custom deck, scale 1/2, historical only (14 cards)`` gives
    battle, army, kind, scale and historical (and ``pool`` for a dealt deck). Only the first
    non-blank line counts, and only if it is a comment naming a battle and an army; anything
    else gives ``{}`` (a list without a header). An old "standard deck" header reads as custom
    (saved standard decks became custom drafts). Never raises."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text[:MAX_LINE_LENGTH * 4]).decode("utf-8", errors="replace")
    if not isinstance(text, str):
        return {}
    first = next((line.strip() for line in text.removeprefix("\ufeff").splitlines()[:50]
                  if line.strip()), "")
    if not first.startswith("//") or len(first) > MAX_LINE_LENGTH:
        return {}
    body = re.sub(r"\(\s*\d+\s*cards?\s*\)\s*$", "", first[2:]).strip()
    parts = [fold(part) for part in body.split(",")]
    battles = {fold(name): slug for slug, name in BATTLE_NAMES.items()}
    armies = {fold(name): slug for slug, name in ARMY_NAMES.items()}
    if len(parts) < 2 or parts[0] not in battles or parts[1] not in armies:
        return {}
    header: dict = {"battle": battles[parts[0]], "army": armies[parts[1]]}
    for part in parts[2:]:
        words = part.split()
        if len(words) == 2 and words[1] == "deck" and words[0] in _HEADER_KINDS:
            header["kind"] = _HEADER_KINDS[words[0]]
        elif len(words) == 2 and words[0] == "scale":
            header["scale"] = words[1]
        elif part == "historical only":
            header["historical"] = True
        elif len(words) == 2 and words[0] == "pool" and words[1] in ("collection", "set"):
            header["pool"] = words[1]
    if "kind" in header:
        header.setdefault("historical", False)
    return header


def line_problems(errors: list[LineError]) -> tuple[list[Problem], list[LineError]]:
    """Split parse errors: lines naming a card that does not exist become ``unknown_card``
    problems (with the card number and the line), the rest stay unreadable lines."""
    problems = [Problem("unknown_card", f"1.0: line {e.line}: {e.message}",
                        () if e.card is None else (e.card,), ERROR, e.line)
                for e in errors if e.code == "unknown_card"]
    return problems, [e for e in errors if e.code != "unknown_card"]


def format(deck: Deck, cards_by_number: Mapping[int, Mapping]) -> str:  # noqa: A001
    """The deck as a list grouped by card type with section headers; ``parse`` reads it back
    to the same (canonical) entries. Cards missing from ``cards_by_number`` go under
    'Unknown' (``parse`` reports those lines)."""
    sections: dict[str, list[DeckEntry]] = {}
    for entry in canonical_entries(deck.entries):
        card = cards_by_number.get(entry.number)
        card_type = card.get("type") if card else None
        key = card_type if card_type in TYPE_HEADERS else ("other" if card else "unknown")
        sections.setdefault(key, []).append(entry)
    battle = BATTLE_NAMES.get(deck.battle, str(deck.battle))
    army = ARMY_NAMES.get(deck.army, str(deck.army))
    total = sum(e.count for entries in sections.values() for e in entries)
    pool = f", pool {deck.pool}" if deck.kind == "dealt" else ""
    lines = [f"// {battle}, {army}, {deck.kind} deck, scale {deck.scale}"
             f"{', historical only' if deck.historical else ''}{pool} ({total} cards)"]
    for key in (*CARD_TYPES, "other", "unknown"):
        entries = sections.get(key)
        if not entries:
            continue
        title = TYPE_HEADERS.get(key, key.capitalize())
        lines += ["", f"{title} ({sum(e.count for e in entries)})"]
        for entry in entries:
            card = cards_by_number.get(entry.number)
            name = " ".join(str(card.get("name") or "").split()) if card else ""
            name = name.split("//", 1)[0].strip()
            suffix = f" ({entry.printing})" if entry.printing else ""
            left = entry.count
            while left > 0:  # over MAX_COUNT: several lines, which add up when parsed
                count, left = min(left, MAX_COUNT), left - MAX_COUNT
                lines.append(f"{count} #{entry.number}{' ' + name if name else ''}{suffix}")
    return "\n".join(lines) + "\n"
