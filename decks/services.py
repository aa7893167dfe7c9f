"""Deck use cases: build, save versions, check, import and export, share, wants, sample muster.

Every rule lives in ``decks.rules`` (pure); this module turns user input into rule inputs, runs
each change in one transaction and locks the deck row it changes, so two saves of one deck can
never produce the same version number. The API, the pages and the CLI only call these
functions (and ``decks.selectors`` for reads).

Bad input (wrong types, unknown cards, counts out of range, an unreadable deck list or deck
code) raises ``DeckInputError`` and saves nothing. Broken *rules* do not raise: a deck with
problems is saved as a draft (``valid=False``) and the problems are returned.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping

from django.db import IntegrityError, transaction
from django.db.models import Max, ProtectedError

from cards.collection.services import lock_users
from cards.models import Army, Battle, Card, WantEntry
from config.errors import Conflict, ServiceError

from .catalogue import cards_by_number
from .models import Deck, DeckKind, DeckPool, DeckVersion
from .rules import (
    PRINTINGS,
    DeckCodeError,
    DeckEntry,
    Validation,
    as_scale,
    canonical_entries,
    dealable,
    decode,
    encode,
    format_decklist,
    line_problems,
    parse_decklist,
    read_header,
    validate,
    validate_pool,
)
from .rules import Deck as RulesDeck
from .rules.chart import format_scale
from .selectors import owned_counts, playable_version  # noqa: F401 (part of the API)
from .stats import deck_statistics

MAX_ENTRIES = 1200  # 300 cards x (any + 3 printings): more is never a deck
MAX_COUNT = 99  # the deck-list format's limit too
MAX_TEXT = 200_000  # characters of a pasted deck list
MAX_CODE = 4_000  # characters of a deck code
MAX_SEED = 2**63 - 1


# Input that cannot become a deck (400), nothing saved: the house base error under the deck
# code's old name. ``problems`` (in ``extra``) gives the details, e.g. ``{"line": 4, "message":
# ...}`` for deck-list lines or ``{"entry": 2, "message": ...}`` for posted entries.
DeckInputError = ServiceError


class DeckLocked(Conflict):
    """The deck has a version locked by a tournament."""

    code = "deck_locked"


# --- Input cleaning -------------------------------------------------------------------------

def _choice(value, choices, what: str) -> str:
    if not isinstance(value, str) or value.strip().casefold() not in choices.values:
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


def _clean_text(value, what: str, max_length: int, *, required: bool = False) -> str:
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


def _no_cards_if_dealt(kind: str, entries: tuple[DeckEntry, ...]) -> None:
    if kind == DeckKind.DEALT and entries:
        raise DeckInputError("a dealt deck holds no chosen cards: the battle deals them from "
                             "its pool (2.0); choose cards in a custom deck (15.0)")


def _entry_parts(raw) -> tuple:
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


# --- Rules decks from models ----------------------------------------------------------------

def entries_of(version: DeckVersion) -> tuple[DeckEntry, ...]:
    """The stored [[number, count, printing], ...] as rule entries."""
    return tuple(DeckEntry(n, c, p) for n, c, p in version.entries)


def rules_deck(version: DeckVersion) -> RulesDeck:
    return RulesDeck(version.battle, version.army, version.kind, version.scale,
                     entries_of(version), version.historical, version.pool)


def validate_deck(deck: RulesDeck, owner=None, owned: Mapping[int, int] | None = None,
                  *, exclude_deck=None) -> Validation:
    """The rules' answer for a deck of any kind. A dealt deck (2.0) is checked by its pool:
    the whole set, or ``owner``'s collection (``owned`` if already counted); chosen decks by
    their cards, against ``owned`` when given."""
    cards = cards_by_number()
    if deck.kind == DeckKind.DEALT:
        pool = None
        if deck.pool == DeckPool.COLLECTION:
            if owned is None and owner is not None:
                owned = owned_counts(owner, exclude_deck=exclude_deck)
            pool = owned or {}
        return validate_pool(deck, cards, pool)
    return validate(deck, cards, owned)


def _stored_entries(entries: Iterable[DeckEntry]) -> list[list]:
    return [[e.number, e.count, e.printing] for e in entries]


# --- Checking -------------------------------------------------------------------------------

def check(*, battle, army, kind="custom", scale="1", historical=False, entries,
          user=None, pool="collection") -> Validation:
    """Validate a deck without saving it. With ``user``: checked against their collection
    (copies in their locked tournament decks are not free). Raises ``DeckInputError`` for
    input that is not a deck at all (unknown battle, unreadable entries, scale not a number)."""
    settings = clean_settings(battle=battle, army=army, kind=kind, scale=scale,
                              historical=historical, pool=pool)
    cards = cards_by_number()
    clean = clean_entries(entries, cards)
    if settings["kind"] == DeckKind.DEALT:  # 2.0: a listed pool, else the named pool
        if not clean:
            return validate_deck(RulesDeck(**settings), user)
        return validate_pool(RulesDeck(**settings), cards, RulesDeck("", "", entries=clean)
                             .counts(), listed=True)
    deck = RulesDeck(entries=clean, **settings)
    owned = owned_counts(user) if user is not None else None
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
    owned = owned_counts(user) if user is not None else None
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
    """Re-validate a saved version now; with ``user`` also against their collection (less the
    copies committed to locked versions of their *other* decks)."""
    owned = owned_counts(user, exclude_deck=version.deck) if user is not None else None
    if version.kind == DeckKind.DEALT and owned is None and version.pool == DeckPool.COLLECTION:
        owned = owned_counts(version.deck.owner, exclude_deck=version.deck)
    return validate_deck(rules_deck(version), owned=owned)


# --- Saving ---------------------------------------------------------------------------------

def _new_version(deck: Deck, number: int, entries: tuple[DeckEntry, ...], note: str
                 ) -> DeckVersion:
    _no_cards_if_dealt(deck.kind, entries)
    rules = RulesDeck(deck.battle, deck.army, deck.kind, deck.scale, entries, deck.historical,
                      deck.pool)
    result = validate_deck(rules, deck.owner, exclude_deck=deck)
    return DeckVersion.objects.create(
        deck=deck, number=number, note=note, battle=deck.battle, army=deck.army,
        kind=deck.kind, scale=deck.scale, historical=deck.historical, pool=deck.pool,
        entries=_stored_entries(entries), valid=result.valid, size=result.size,
        bp_total=result.bp_total, problems=[p.to_dict() for p in result.problems])


def create_deck(owner, *, name: str, battle: str, army: str, kind: str = "custom",
                scale: str = "1", historical: bool = False, pool: str = "collection",
                entries: Iterable = (), description: str = "", note: str = "") -> Deck:
    """A new deck with its version 1 (saved even with rule problems: a draft). A dealt deck
    (2.0) names its pool and holds no cards."""
    settings = clean_settings(battle=battle, army=army, kind=kind, scale=scale,
                              historical=historical, pool=pool)
    name = _clean_text(name, "name", 100, required=True)
    description = _clean_text(description, "description", 2000)
    note = _clean_text(note, "note", 200)
    clean = clean_entries(entries)
    with transaction.atomic():
        deck = Deck.objects.create(owner=owner, name=name, description=description,
                                   **settings)
        _new_version(deck, 1, clean, note)
    return deck


def save_version(deck: Deck, *, entries=None, name=None, battle=None, army=None, kind=None,
                 scale=None, historical=None, pool=None, description=None, note: str = ""
                 ) -> DeckVersion:
    """Save a new version of ``deck``. Fields left None keep their value (entries: the latest
    version's). A version with problems is saved (``valid=False``)."""
    note = _clean_text(note, "note", 200)
    new_name = None if name is None else _clean_text(name, "name", 100, required=True)
    new_description = (None if description is None
                       else _clean_text(description, "description", 2000))
    clean = None if entries is None else clean_entries(entries)
    with transaction.atomic():
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        settings = clean_settings(
            battle=locked.battle if battle is None else battle,
            army=locked.army if army is None else army,
            kind=locked.kind if kind is None else kind,
            scale=locked.scale if scale is None else scale,
            historical=locked.historical if historical is None else historical,
            pool=locked.pool if pool is None else pool)
        for field, value in settings.items():
            setattr(locked, field, value)
        if new_name is not None:
            locked.name = new_name
        if new_description is not None:
            locked.description = new_description
        last = locked.versions.aggregate(n=Max("number"))["n"] or 0
        if clean is None:
            previous = locked.versions.filter(number=last).first()
            clean = entries_of(previous) if previous else ()
            if locked.kind == DeckKind.DEALT:  # a chosen deck turned dealt: no cards to keep
                clean = ()
        locked.save()
        version = _new_version(locked, last + 1, clean, note)
    for field in ("name", "description", "updated_at", *settings):
        setattr(deck, field, getattr(locked, field))
    return version


def import_decklist(owner, *, text, name: str, battle: str, army: str, kind="custom",
                    scale="1", historical=False) -> Deck:
    """A new deck from deck-list text. Every unreadable line is reported (``problems`` with
    line numbers) and nothing is saved."""
    entries = parse_text(text)
    return create_deck(owner, name=name, battle=battle, army=army, kind=kind, scale=scale,
                       historical=historical, entries=entries, note="Imported from a list")


SETTING_DEFAULTS = {"kind": "custom", "scale": "1", "historical": False, "pool": "collection"}
_SETTING_WORDS = {"battle": "battle", "army": "army", "kind": "kind", "scale": "scale",
                  "historical": "historical only", "pool": "pool"}


def _shown_setting(key: str, value) -> str:
    names = {"battle": Battle, "army": Army, "kind": DeckKind, "pool": DeckPool}
    if key in names and value in names[key].values:
        return str(names[key](value).label)
    if key == "historical":
        return "yes" if value else "no"
    return str(value)


def _same_setting(key: str, a, b) -> bool:
    if key == "scale":
        return as_scale(a) == as_scale(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    return a == b


def _agree(found: dict, chosen: dict, where: str) -> None:
    """Refuse an import whose form settings disagree with what the text itself says."""
    clashes = [f"{where} says {_SETTING_WORDS[k]} {_shown_setting(k, found[k])}, the form says "
               f"{_shown_setting(k, chosen[k])}"
               for k in ("battle", "army", "kind", "scale", "historical", "pool")
               if k in found and k in chosen and not _same_setting(k, found[k], chosen[k])]
    if clashes:
        raise DeckInputError("the form disagrees with the deck: " + "; ".join(clashes)
                             + ". Change the form, or leave it at its defaults to take the "
                             "deck's own settings.", problems=[{"message": c} for c in clashes])


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


def import_pasted(owner, *, text, name: str, as_code: bool = False, **chosen) -> Deck:
    """A new deck from what a player pastes: a deck code or deck-list text, whatever the
    format selector said (``as_code``).

    ``chosen``: the settings the player set in the form (battle, army, kind, scale,
    historical, pool); None or absent means "left at the default". The deck code, or the
    export's first line (``// Quatre Bras, French, custom deck, scale 1``), sets the rest; a
    chosen setting that disagrees with it refuses the import, naming both (never guessed).
    """
    chosen = {k: v for k, v in chosen.items() if v is not None}
    code_deck = as_deck_code(text)
    if code_deck is None and as_code and (not isinstance(text, str) or len(text.split()) <= 1):
        read_deck_code(text)  # one word that is not a code: say why it cannot be read
    if code_deck is not None:
        found = {"battle": code_deck.battle, "army": code_deck.army, "kind": code_deck.kind,
                 "scale": str(code_deck.scale), "historical": code_deck.historical}
        if code_deck.kind == DeckKind.DEALT:
            found["pool"] = code_deck.pool
        _agree(found, chosen, "the deck code")
        return create_deck(owner, name=name, entries=code_deck.entries,
                           note="Imported from a deck code",
                           **{**SETTING_DEFAULTS, **chosen, **found})
    found = read_header(text)
    _agree(found, chosen, "the list's first line")
    settings = {**SETTING_DEFAULTS, **chosen, **found}
    entries = () if settings["kind"] == DeckKind.DEALT and not parse_decklist(
        text, cards_by_number())[0] else parse_text(text)  # unreadable lines first
    for key in ("battle", "army"):
        if key not in settings:
            raise DeckInputError(f"choose the {key}: the list does not say it (its first line "
                                 "would, as the export writes it: '// Waterloo, French, custom "
                                 "deck')")
    return create_deck(owner, name=name, entries=entries, note="Imported from a list",
                       **settings)


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


def import_deck_code(owner, *, code: str, name: str) -> Deck:
    """A new deck from a deck code (battle, army, kind, scale and cards all come from it)."""
    deck = read_deck_code(code)
    return create_deck(owner, name=name, battle=deck.battle, army=deck.army, kind=deck.kind,
                       scale=deck.scale, historical=deck.historical, entries=deck.entries,
                       note="Imported from a deck code")


# --- Export ---------------------------------------------------------------------------------

def export_decklist(version: DeckVersion) -> str:
    """The version as deck-list text (parses back to the same entries)."""
    return format_decklist(rules_deck(version), cards_by_number())


def deck_code(version: DeckVersion) -> str:
    """The version's compact deck code (round-trips exactly); ``DeckInputError`` when the
    version's settings cannot be coded (a draft saved with a scale of 0, say)."""
    try:
        return encode(rules_deck(version))
    except DeckCodeError as exc:
        raise DeckInputError(f"this version has no deck code: {exc}") from None


# --- Delete and share -----------------------------------------------------------------------

def delete_deck(deck: Deck) -> None:
    """Delete a deck and its versions; refused (``DeckLocked``) while a tournament holds one."""
    with transaction.atomic():
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        if locked.versions.filter(locked_at__isnull=False).exists():
            raise DeckLocked("a version of this deck is locked by a tournament; it cannot be "
                             "deleted")
        try:
            with transaction.atomic():
                locked.delete()
        except ProtectedError:  # a tournament (or another app) still refers to a version
            raise DeckLocked("a version of this deck is used by a tournament; it cannot be "
                             "deleted") from None


def share(deck: Deck) -> str:
    """Share the deck read-only; returns its token (the same one if already shared)."""
    with transaction.atomic():
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        if not locked.share_token:
            for _ in range(5):
                try:
                    with transaction.atomic():
                        locked.share_token = Deck.new_share_token()
                        locked.save(update_fields=["share_token"])
                    break
                except IntegrityError:  # astronomically unlikely token clash: draw again
                    locked.share_token = None
        deck.share_token = locked.share_token
    return deck.share_token


def unshare(deck: Deck) -> None:
    """Stop sharing: the old link answers 404 from now on."""
    with transaction.atomic():
        Deck.objects.select_for_update().filter(pk=deck.pk).update(share_token=None)
    deck.share_token = None


# --- Wants ----------------------------------------------------------------------------------

def add_missing_to_wants(user, deck: Deck) -> list[tuple[int, int]]:
    """Put the cards the deck's latest version needs and ``user`` lacks on their want list.

    Missing = max(0, needed - owned), owned in any printing and net of copies committed to
    locked versions of the user's other decks. The want (any finish) is raised to at least the
    missing count, never added twice: clicking again adds nothing. Returns (number, copies
    added) for each want that grew.
    """
    version = deck.latest
    if version is None:
        return []
    needed = RulesDeck(version.battle, version.army, entries=entries_of(version)).counts()
    added: list[tuple[int, int]] = []
    with transaction.atomic():
        lock_users([user.id])
        owned = owned_counts(user, exclude_deck=deck)
        missing = {n: max(0, c - owned.get(n, 0)) for n, c in needed.items()}
        missing = {n: m for n, m in missing.items() if m > 0}
        if not missing:
            return []
        wants = {w.card.number: w for w in WantEntry.objects.select_for_update()
                 .select_related("card").filter(user=user, finish="",
                                                card__number__in=missing)}
        card_ids = dict(Card.objects.filter(number__in=missing).values_list("number", "id"))
        for number in sorted(missing):
            want = wants.get(number)
            have = want.quantity if want else 0
            if missing[number] <= have:
                continue
            if want:
                want.quantity = missing[number]
                want.save(update_fields=["quantity"])
            else:
                WantEntry.objects.create(user=user, card_id=card_ids[number], finish="",
                                         quantity=missing[number])
            added.append((number, missing[number] - have))
    return added


def version_statistics(version: DeckVersion) -> dict:
    """``stats.deck_statistics`` of a saved version."""
    return deck_statistics(version.entries, cards_by_number())


# --- Sample muster --------------------------------------------------------------------------

def sample_muster(version: DeckVersion, seed: int | None = None) -> dict:
    """Deal a random muster from the version, as players draw a sample hand (3.0).

    The same seed always deals the same muster. Waterloo Prussians have no muster: the whole
    deck is reinforcements, so ``muster`` is empty. A dealt deck (2.0) has no cards of its own:
    a sample deck of D x scale distinct cards is dealt from its pool first (a sample only; the
    battle deals the real one with its own secret seed).
    """
    seed = clean_seed(seed)
    if seed is None:
        seed = secrets.randbelow(2**31)
    rules = rules_deck(version)
    if version.kind == DeckKind.DEALT:
        return _sample_deal(version, rules, seed)
    result = validate(rules, cards_by_number())
    cards = [e.number for e in sorted(entries_of(version)) for _ in range(e.count)]
    random.Random(seed).shuffle(cards)
    size = min(result.muster or 0, len(cards))
    return {"seed": seed, "muster": cards[:size], "reinforcements_left": len(cards) - size}


def _sample_deal(version: DeckVersion, rules: RulesDeck, seed: int) -> dict:
    cards = cards_by_number()
    owned = (owned_counts(version.deck.owner, exclude_deck=version.deck)
             if version.pool == DeckPool.COLLECTION else None)
    pool = sorted(n for n, card in cards.items()
                  if (owned is None or owned.get(n, 0) > 0)
                  and dealable(card, rules.battle, rules.army, rules.historical))
    result = validate_pool(rules, cards, None if owned is None else owned)
    deck = random.Random(seed).sample(pool, min(result.required_size or 0, len(pool)))
    size = min(result.muster if result.muster is not None else 0, len(deck))
    return {"seed": seed, "muster": deck[:size], "reinforcements_left": len(deck) - size}
