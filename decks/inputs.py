"""Deck input, read and checked as input (not as rules): settings, entries, text, seeds, deck
lists and deck codes. Input that cannot become a deck raises ``DeckInputError`` (400) and
nothing is saved; the rules themselves (``decks.rules``) never raise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cards.models import Army, Battle
from config.errors import ServiceError

from .catalogue import cards_by_number
from .models import DeckKind, DeckPool
from .rules import (
    PRINTINGS,
    DeckCodeError,
    DeckEntry,
    as_scale,
    canonical_entries,
    decode,
    parse_decklist,
)
from .rules import Deck as RulesDeck
from .rules.chart import format_scale

MAX_ENTRIES = 1200  # 300 cards x (any + 3 printings): more is never a deck
MAX_COUNT = 99  # the deck-list format's limit too
MAX_TEXT = 200_000  # characters of a pasted deck list
MAX_CODE = 4_000  # characters of a deck code
MAX_SEED = 2**63 - 1


# Input that cannot become a deck (400), nothing saved: the house base error under the deck
# code's old name. ``problems`` (in ``extra``) gives the details, e.g. ``{"line": 4, "message":
# ...}`` for deck-list lines or ``{"entry": 2, "message": ...}`` for posted entries.
DeckInputError = ServiceError


# --- Input cleaning -------------------------------------------------------------------------

_VALUES: dict[type, frozenset[str]] = {}  # a choice class's values (Django builds the list anew)


def _choice(value, choices, what: str) -> str:
    values = _VALUES.get(choices)
    if values is None:
        values = _VALUES[choices] = frozenset(choices.values)
    if not isinstance(value, str) or value.strip().casefold() not in values:
        raise DeckInputError(f"unknown {what} {str(value)[:40]!r} "
                             f"(use {', '.join(choices.values)})")
    return value.strip().casefold()


def clean_scale(value) -> str:
    """A scale as stored: the exact fraction in lowest terms ('1', '1/2'); range is a rule
    (``bad_scale``), but text that is not a number at all is bad input."""
    scale = as_scale(value)
    if scale is None:
        raise DeckInputError(f"the scale {str(value)[:40]!r} is not a number "
                             "(write it like 1, 0.5 or 1/3)")
    text = format_scale(scale)
    if len(text) > 12:
        raise DeckInputError(f"the scale {text[:40]!r} is too precise (at most 12 characters)")
    return text


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: cannot be stored or sent back
        return False
    return True


def plain_text(text: str) -> str:
    """``text`` with lone surrogates replaced, so it can be echoed in messages."""
    return text if _encodable(text) else text.encode("utf-8", "replace").decode("utf-8")


def clean_text(value, what: str, max_length: int, *, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise DeckInputError(f"the {what} must be text")
    if "\x00" in value or not _encodable(value):
        raise DeckInputError(f"the {what} holds characters that are not text")
    value = value.strip()
    if required and not value:
        raise DeckInputError(f"the deck needs a {what}")
    if len(value) > max_length:
        raise DeckInputError(f"the {what} is too long (at most {max_length} characters)")
    return value


def _clean_bool(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise DeckInputError(f"{what} must be true or false")
    return value


def clean_settings(*, battle, army, kind="custom", scale="1", historical=False,
                   pool="collection") -> dict:
    """Battle, army, kind, scale, historical and pool checked as input (not as rules)."""
    return {
        "battle": _choice(battle, Battle, "battle"),
        "army": _choice(army, Army, "army"),
        "kind": _choice(kind, DeckKind, "deck kind"),
        "scale": clean_scale(scale),
        "historical": _clean_bool(historical, "historical"),
        "pool": _choice(pool, DeckPool, "pool"),
    }


def no_cards_if_dealt(kind: str, entries: tuple[DeckEntry, ...]) -> None:
    if kind == DeckKind.DEALT and entries:
        raise DeckInputError("a dealt deck holds no chosen cards: the battle deals them from "
                             "its pool (2.0); choose cards in a custom deck (15.0)")


def _entry_parts(raw) -> tuple:
    if type(raw) is list and len(raw) == 3:  # the usual JSON entry, first: it is most of them
        return tuple(raw)
    if isinstance(raw, DeckEntry):
        return tuple(raw)
    if isinstance(raw, Mapping):
        return (raw.get("number"), raw.get("count", 1), raw.get("printing"))
    if isinstance(raw, list | tuple) and 1 <= len(raw) <= 3:
        return (*raw, *(1, None)[len(raw) - 1:])
    raise ValueError("an entry is [number, count, printing] or "
                     '{"number": ..., "count": ..., "printing": ...}')


def clean_entries(raw_entries, cards: Mapping[int, Mapping] | None = None
                  ) -> tuple[DeckEntry, ...]:
    """Posted entries -> canonical ``DeckEntry`` tuple, or ``DeckInputError`` listing every bad
    entry (unknown card numbers, counts outside 1..99, unknown printings, wrong shapes)."""
    if raw_entries is None:
        return ()
    if isinstance(raw_entries, str | bytes | Mapping) or not isinstance(raw_entries, Iterable):
        raise DeckInputError("entries must be a list of [number, count, printing]")
    raw_entries = list(raw_entries)[:MAX_ENTRIES + 1]
    if len(raw_entries) > MAX_ENTRIES:
        raise DeckInputError(f"too many entries (at most {MAX_ENTRIES})")
    cards = cards_by_number() if cards is None else cards
    entries, problems = [], []
    for i, raw in enumerate(raw_entries, start=1):
        try:
            number, count, printing = _entry_parts(raw)
        except (ValueError, TypeError) as exc:
            problems.append({"entry": i, "message": str(exc)})
            continue
        if type(number) is not int:
            problems.append({"entry": i, "message": f"{str(number)[:40]!r} is not a card "
                                                    "number"})
            continue
        if number not in cards:
            problems.append({"entry": i, "message": f"there is no card #{str(number)[:20]}"})
            continue
        if type(count) is not int or not 1 <= count <= MAX_COUNT:
            problems.append({"entry": i, "message": f"#{number}: {str(count)[:20]!r} is not a "
                                                    f"number of copies (1 to {MAX_COUNT})"})
            continue
        if isinstance(printing, str):
            printing = printing.strip().casefold() or None
        if printing is not None and printing not in PRINTINGS:
            problems.append({"entry": i, "message": f"#{number}: {str(printing)[:20]!r} is not "
                                                    "a printing (gold, silver or bronze)"})
            continue
        entries.append(DeckEntry(number, count, printing))
    if problems:
        raise DeckInputError(f"{len(problems)} of the entries cannot be read", problems=problems)
    return canonical_entries(entries)


def clean_seed(seed) -> int | None:
    if seed is None:
        return None
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise DeckInputError(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return seed


# --- Deck lists and deck codes ------------------------------------------------------------

def as_deck_code(text) -> RulesDeck | None:
    """The deck of ``text`` if it is a deck code (one word that decodes), else None."""
    if not isinstance(text, str) or len(text) > MAX_CODE:
        return None
    word = plain_text(text).strip()
    if not word or any(c.isspace() for c in word):
        return None
    try:
        return decode(word)
    except DeckCodeError:
        return None


def parse_text(text) -> tuple[DeckEntry, ...]:
    """Deck-list text -> entries, or ``DeckInputError`` with every line error."""
    if isinstance(text, str | bytes | bytearray) and len(text) > MAX_TEXT:
        raise DeckInputError(f"the deck list is too long (at most {MAX_TEXT} characters)")
    if isinstance(text, str):
        text = plain_text(text)
    entries, errors = parse_decklist(text, cards_by_number())
    if errors:
        raise DeckInputError(
            f"the deck list has {len(errors)} line{'s' if len(errors) > 1 else ''} that cannot "
            "be read", problems=[{"line": e.line, "message": e.message} for e in errors])
    if not entries:
        raise DeckInputError("the deck list holds no cards")
    return entries


def read_deck_code(code) -> RulesDeck:
    """A deck code -> rules deck, or ``DeckInputError`` saying why it cannot be read."""
    if not isinstance(code, str) or not code.strip():
        raise DeckInputError("the deck code must be non-empty text")
    if len(code) > MAX_CODE:
        raise DeckInputError(f"the deck code is too long (at most {MAX_CODE} characters)")
    try:
        return decode(plain_text(code).strip())
    except DeckCodeError as exc:
        raise DeckInputError(f"the deck code cannot be read: {exc}") from None
