"""Checking decks against the rules without saving: a posted deck (entries, deck-list text or
a deck code: the validate answer), and a saved version now, against a collection.

Every rule lives in ``decks.rules`` (pure); this module turns input and saved versions into
rule inputs (``decks.inputs`` reads the input) and counts what a collection owns.
"""

from __future__ import annotations

from collections.abc import Mapping

from .catalogue import cards_by_number
from .inputs import (
    MAX_TEXT,
    DeckInputError,
    clean_entries,
    clean_settings,
    plain_text,
    read_deck_code,
)
from .models import DeckKind, DeckPool, DeckVersion
from .rules import Deck as RulesDeck
from .rules import (
    DeckCodeError,
    DeckEntry,
    Validation,
    encode,
    line_problems,
    parse_decklist,
    validate,
    validate_pool,
)
from .selectors import free_copies

# --- Rules decks from models ----------------------------------------------------------------

def entries_of(version: DeckVersion) -> tuple[DeckEntry, ...]:
    """The stored [[number, count, printing], ...] as rule entries."""
    return tuple(DeckEntry(n, c, p) for n, c, p in version.entries)


def rules_deck(version: DeckVersion) -> RulesDeck:
    return RulesDeck(version.battle, version.army, version.kind, version.scale,
                     entries_of(version), version.historical, version.pool)


def validate_deck(deck: RulesDeck, owner=None, owned: Mapping[int, int] | None = None,
                  *, version: DeckVersion | None = None) -> Validation:
    """The rules' answer for a deck of any kind. A dealt deck (2.0) is checked by its pool:
    the whole set, or ``owner``'s collection (``owned`` if already counted, else the copies
    free for ``version``: ``selectors.free_copies``); chosen decks by their cards, against
    ``owned`` when given."""
    cards = cards_by_number()
    if deck.kind == DeckKind.DEALT:
        pool = None
        if deck.pool == DeckPool.COLLECTION:
            if owned is None and owner is not None:
                owned = free_copies(owner, version)
            pool = owned or {}
        return validate_pool(deck, cards, pool)
    return validate(deck, cards, owned)


# --- Checking -------------------------------------------------------------------------------

def check(*, battle, army, kind="custom", scale="1", historical=False, entries,
          user=None, pool="collection", version: DeckVersion | None = None) -> Validation:
    """Validate a deck without saving it. With ``user``: checked against the copies of their
    collection free for ``version`` (``selectors.free_copies``: the saved version this list
    is, whose own locked copies back it; None, a new list: every locked version's copies are
    held). Raises ``DeckInputError`` for input that is not a deck at all (unknown battle,
    unreadable entries, scale not a number)."""
    settings = clean_settings(battle=battle, army=army, kind=kind, scale=scale,
                              historical=historical, pool=pool)
    cards = cards_by_number()
    clean = clean_entries(entries, cards)
    if settings["kind"] == DeckKind.DEALT:  # 2.0: a listed pool, else the named pool
        if not clean:
            return validate_deck(RulesDeck(**settings), user, version=version)
        return validate_pool(RulesDeck(**settings), cards, RulesDeck("", "", entries=clean)
                             .counts(), listed=True)
    deck = RulesDeck(entries=clean, **settings)
    owned = free_copies(user, version) if user is not None else None
    return validate(deck, cards, owned)


def check_posted(*, battle=None, army=None, kind="custom", scale="1", historical=False,
                 entries=None, decklist=None, code=None, pool=None, user=None) -> dict:
    """The stateless validate answer for one posted list: ``entries`` (JSON), ``decklist``
    (text) or ``code`` (a deck code, which also gives battle, army, kind, scale, historical).
    With kind ``dealt`` the list is a pool (2.0): can it deal D x scale distinct cards? ``pool``
    (a list of entries) is the same as entries with kind ``dealt``; a dealt deck with no list
    at all is checked against the whole set (``pool`` "set") or the user's collection.

    Answer: ``Validation.to_dict()`` plus ``parse_errors`` (deck-list lines that cannot be
    read; a list with any is not valid), ``entries`` (canonical) and the deck ``code`` when
    the settings allow one. Raises ``DeckInputError`` when nothing can be read (bad entries,
    an unreadable code, a list over the limits or without a single readable line).
    """
    source = "collection"
    if isinstance(pool, list | tuple):  # a listed pool: the entries of a dealt deck (2.0)
        if entries is not None:
            raise DeckInputError("send one of entries or pool, not both")
        entries, kind = pool, DeckKind.DEALT
    elif pool is not None:
        source = pool
    given = [name for name, value in (("entries", entries), ("decklist", decklist),
                                      ("code", code)) if value is not None]
    if len(given) > 1:
        raise DeckInputError(f"send one of entries, decklist, pool or code, not "
                             f"{' and '.join(given)}")
    cards = cards_by_number()
    parse_errors: list[dict] = []
    unknown: list = []
    if code is not None:
        deck = read_deck_code(code)
        battle, army, kind = deck.battle, deck.army, deck.kind
        scale, historical, entries = deck.scale, deck.historical, deck.entries
        source = deck.pool
    elif decklist is not None:
        if isinstance(decklist, str | bytes | bytearray) and len(decklist) > MAX_TEXT:
            raise DeckInputError(f"the deck list is too long (at most {MAX_TEXT} characters)")
        text = plain_text(decklist) if isinstance(decklist, str) else decklist
        entries, errors = parse_decklist(text, cards)
        unknown, errors = line_problems(errors)  # unknown cards are problems, with the line
        parse_errors = [{"line": e.line, "message": e.message} for e in errors]
        if (errors or unknown) and (not entries or any(e.line is None for e in errors)):
            first = errors[0] if errors else unknown[0].message.removeprefix("1.0: ")
            raise DeckInputError(f"the deck list cannot be read: {first}",
                                 problems=parse_errors + [p.to_dict() for p in unknown])
    settings = clean_settings(battle=battle, army=army, kind=kind, scale=scale,
                              historical=historical, pool=source)
    clean = clean_entries(entries, cards)
    deck = RulesDeck(entries=clean, **settings)
    owned = free_copies(user) if user is not None else None
    if settings["kind"] == DeckKind.DEALT and (clean or entries is not None):
        result = validate_pool(deck, cards, deck.counts(), listed=True)
    elif settings["kind"] == DeckKind.DEALT:
        result = validate_deck(deck, user, owned)
    else:
        result = validate(deck, cards, owned)
    answer = result.to_dict()
    if unknown:
        answer["problems"] = [p.to_dict() for p in unknown] + answer["problems"]
        answer["valid"] = False
    answer["valid"] = answer["valid"] and not parse_errors
    answer["parse_errors"] = parse_errors
    answer["entries"] = [{"number": e.number, "count": e.count, "printing": e.printing}
                         for e in deck.entries]
    try:
        answer["code"] = encode(deck)
    except DeckCodeError:  # e.g. a scale of 0: reported as bad_scale, no code for it
        answer["code"] = None
    return answer


def check_version(version: DeckVersion, user=None) -> Validation:
    """Re-validate a saved version now; with ``user`` also against the copies of their
    collection free for it (``selectors.free_copies``: less the copies committed to every
    locked version but this one)."""
    owned = free_copies(user, version) if user is not None else None
    if version.kind == DeckKind.DEALT and owned is None and version.pool == DeckPool.COLLECTION:
        owned = free_copies(version.deck.owner, version)
    return validate_deck(rules_deck(version), owned=owned)
