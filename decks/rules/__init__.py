"""The pure rules core of decks: deck scales, deck validation, deck codes, deck lists.

Imports nothing from Django. The Django layer builds a ``Deck`` from its models and a
``cards_by_number`` mapping of card records (the keys of cards/data/catalogue.json), then:

    validate(deck, cards_by_number, owned=None) -> Validation
    validate_pool(deck, cards_by_number, pool=None, listed=False) -> Validation   (dealt decks)
    encode(deck) -> str / decode(code) -> Deck            (raises DeckCodeError)
    parse_decklist(text, cards_by_number) -> (entries, errors)
    format_decklist(deck, cards_by_number) -> str
    free_for(owned, committed, version) -> copies free for a version (the ownership rule)

The Battles Chart and a deck's figures are ``game.chart`` and ``game.figures``.
"""

from .chart import (
    ARMIES,
    BATTLES,
    BATTLES_CHART,
    KINDS,
    PRINTINGS,
    ChartEntry,
    as_scale,
    chart_entry,
)
from .deck import Deck, DeckEntry, canonical_entries
from .deck_code import DeckCodeError, decode, encode
from .decklist import LineError, line_problems, read_header
from .decklist import format as format_decklist
from .decklist import parse as parse_decklist
from .ownership import free_for
from .pool import POOLS, dealable, validate_pool
from .validate import CODES, ERROR, WARNING, WARNING_CODES, Problem, Validation, validate

__all__ = [
    "ARMIES", "BATTLES", "BATTLES_CHART", "CODES", "ERROR", "KINDS", "PRINTINGS", "WARNING",
    "WARNING_CODES", "ChartEntry", "Deck", "DeckCodeError", "DeckEntry", "LineError",
    "Problem", "Validation", "as_scale", "canonical_entries", "chart_entry", "decode", "encode",
    "format_decklist", "free_for", "parse_decklist", "validate", "POOLS", "dealable",
    "validate_pool", "line_problems", "read_header",
]
