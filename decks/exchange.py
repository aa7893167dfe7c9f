"""Import and export: new decks from deck-list text, a deck code or whatever a player pastes
(the form's settings must agree with what the text says); a version out as deck-list text or
a deck code."""

from __future__ import annotations

from cards.models import Army, Battle

from .catalogue import cards_by_number
from .checks import rules_deck
from .inputs import DeckInputError, as_deck_code, parse_text, read_deck_code
from .models import Deck, DeckKind, DeckPool, DeckVersion
from .rules import DeckCodeError, as_scale, encode, format_decklist, parse_decklist, read_header
from .services import create_deck


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
