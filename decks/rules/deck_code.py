"""Compact deck codes, in the manner of Hearthstone deck strings: varints, then base64url.

Layout (version 1), every field an unsigned LEB128 varint:

    0x00 (reserved)  version=1  battle  army  kind  flags  scale-numerator  scale-denominator
    n1  id*n1                 cards with 1 copy
    n2  id*n2                 cards with 2 copies
    nN  (id count)*nN         cards with 3 or more copies, each with its count

battle, army and kind are indexes into chart.BATTLES, ARMIES and KINDS; flags bit 0 is the
historical-only mode, bit 1 a dealt deck's pool "set" (clear: "collection"). Kind 0 was
"standard" before 2.0 decks were dealt; it is now "dealt", so an old standard code that holds
cards decodes as a custom deck (as saved standard decks became custom drafts).
The scale is an exact fraction in lowest terms. A card id is
``number * 4 + printing`` with printing 0 = any, 1 = Gold, 2 = Silver, 3 = Bronze, so one card
in two printings is two ids. The code is canonical: ids sorted ascending inside each block,
each (number, printing) once, base64url without padding; ``decode`` accepts only that form
(plus surrounding whitespace, standard-alphabet characters and padding), so one deck has one
code and ``encode(decode(code)) == code``.
"""

from __future__ import annotations

import base64
import binascii
from fractions import Fraction

from .chart import ARMIES, BATTLES, KINDS, PRINTINGS, as_scale
from .deck import Deck, DeckEntry, canonical_entries

VERSION = 1
MAX_CODE_LENGTH = 8000  # characters; a deck of every card in every printing is well under
_PRINTING_CODE: dict[str | None, int] = {
    None: 0, **{name: i + 1 for i, name in enumerate(PRINTINGS)}}
_PRINTING_NAME = {code: name for name, code in _PRINTING_CODE.items()}
_HISTORICAL = 1
_POOL_SET = 2
MAX_SCALE_TERM = 1_000_000  # numerator and denominator of the scale
MAX_VALUE = 2**32 - 1  # card numbers and counts


class DeckCodeError(ValueError):
    """A string that is not a deck code, or a deck that cannot be written as one."""


def _varint(value: int, out: bytearray) -> None:
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def encode(deck: Deck) -> str:
    """The canonical code of a deck (entries are merged and sorted first)."""
    for name, value, allowed in (("battle", deck.battle, BATTLES), ("army", deck.army, ARMIES),
                                 ("kind", deck.kind, KINDS)):
        if value not in allowed:
            raise DeckCodeError(f"cannot encode {name} {value!r}: expected one of "
                                f"{', '.join(allowed)}")
    scale = as_scale(deck.scale)
    if scale is None or scale <= 0:
        raise DeckCodeError(f"cannot encode scale {deck.scale!r}: expected a number above 0")
    if max(scale.numerator, scale.denominator) > MAX_SCALE_TERM:
        raise DeckCodeError(f"cannot encode scale {scale}: write it as a simpler fraction")
    for entry in deck.entries:
        if type(entry.number) is not int or not 1 <= entry.number <= MAX_VALUE // 4:
            raise DeckCodeError(f"cannot encode card number {entry.number!r}")
        if type(entry.count) is not int or not 1 <= entry.count <= MAX_VALUE:
            raise DeckCodeError(f"cannot encode #{entry.number} with count {entry.count!r}")
        if entry.printing not in _PRINTING_CODE:
            raise DeckCodeError(f"cannot encode #{entry.number} printing {entry.printing!r}")
    blocks: tuple[list[int], list[int], list[tuple[int, int]]] = ([], [], [])
    for entry in canonical_entries(deck.entries):
        card_id = entry.number * 4 + _PRINTING_CODE[entry.printing]
        if entry.count <= 2:
            (blocks[0] if entry.count == 1 else blocks[1]).append(card_id)
        else:
            blocks[2].append((card_id, entry.count))
    out = bytearray()
    flags = (_HISTORICAL if deck.historical else 0) | (
        _POOL_SET if deck.kind == "dealt" and deck.pool == "set" else 0)
    for term in (0, VERSION, BATTLES.index(deck.battle), ARMIES.index(deck.army),
                 KINDS.index(deck.kind), flags, scale.numerator, scale.denominator):
        _varint(term, out)
    for block in blocks[:2]:
        _varint(len(block), out)
        for card_id in block:
            _varint(card_id, out)
    _varint(len(blocks[2]), out)
    for card_id, count in blocks[2]:
        _varint(card_id, out)
        _varint(count, out)
    return base64.urlsafe_b64encode(bytes(out)).rstrip(b"=").decode("ascii")


class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def varint(self, what: str) -> int:
        value = shift = 0
        start = self.pos
        while True:
            if self.pos >= len(self.data):
                raise DeckCodeError(f"not a deck code: it ends in the middle of the {what}")
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                break
            shift += 7
            if shift > 28:
                raise DeckCodeError(f"not a deck code: the {what} at byte {start} is too long")
        if self.pos - start > 1 and byte == 0:
            raise DeckCodeError(f"not a deck code: the {what} at byte {start} is not minimal")
        return value


def _bytes_of(code: object) -> bytes:
    if not isinstance(code, str):
        raise DeckCodeError(f"a deck code is text, not {type(code).__name__}")
    text = code.strip()
    if not text:
        raise DeckCodeError("the deck code is empty")
    if len(text) > MAX_CODE_LENGTH:
        raise DeckCodeError(f"the deck code is too long ({len(text)} characters, "
                            f"max {MAX_CODE_LENGTH})")
    text = text.rstrip("=").replace("+", "-").replace("/", "_")
    bad = next((c for c in text if not (c.isascii() and (c.isalnum() or c in "-_"))), None)
    if bad is not None:
        raise DeckCodeError(f"not a deck code: {bad!r} cannot appear in one (letters, digits, "
                            "'-' and '_' only)")
    if len(text) % 4 == 1:
        raise DeckCodeError("not a deck code: its length is wrong (a character is missing or "
                            "extra)")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise DeckCodeError(f"not a deck code: {exc}") from None
    if base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii") != text:
        raise DeckCodeError("not a deck code: its last character is wrong")
    return data


def _index(reader: _Reader, what: str, names: tuple[str, ...]) -> str:
    value = reader.varint(what)
    if value >= len(names):
        raise DeckCodeError(f"not a deck code: {what} {value} is unknown")
    return names[value]


def decode(code: str) -> Deck:
    """The deck of a code; raises DeckCodeError with a plain message on anything else."""
    reader = _Reader(_bytes_of(code))
    if reader.varint("header") != 0:
        raise DeckCodeError("not a deck code: it does not start with the 0 byte")
    version = reader.varint("version")
    if version != VERSION:
        raise DeckCodeError(f"deck code version {version} is not supported (only {VERSION})")
    battle = _index(reader, "battle", BATTLES)
    army = _index(reader, "army", ARMIES)
    kind = _index(reader, "kind", KINDS)
    flags = reader.varint("flags")
    if flags & ~(_HISTORICAL | _POOL_SET):
        raise DeckCodeError(f"not a deck code: unknown flags {flags}")
    if flags & _POOL_SET and kind != "dealt":
        raise DeckCodeError("not a deck code: only a dealt deck names a pool")
    numerator, denominator = reader.varint("scale"), reader.varint("scale")
    if numerator == 0 or denominator == 0:
        raise DeckCodeError(f"not a deck code: scale {numerator}/{denominator}")
    scale = Fraction(numerator, denominator)
    if scale.numerator != numerator:
        raise DeckCodeError(f"not a deck code: scale {numerator}/{denominator} is not in "
                            "lowest terms")
    entries: list[DeckEntry] = []
    seen: set[int] = set()
    for block in (1, 2, 3):
        length = reader.varint(f"size of block {block}")
        if length > len(reader.data) - reader.pos:
            raise DeckCodeError(f"not a deck code: block {block} claims {length} cards")
        previous = -1
        for _ in range(length):
            card_id = reader.varint(f"card in block {block}")
            count = reader.varint(f"count in block {block}") if block == 3 else block
            if card_id <= previous or card_id in seen:
                raise DeckCodeError(f"not a deck code: block {block} is not sorted or repeats "
                                    "a card")
            if card_id < 4:
                raise DeckCodeError("not a deck code: card number 0")
            if block == 3 and count < 3:
                raise DeckCodeError(f"not a deck code: a count of {count} in the block of "
                                    "three or more")
            previous = card_id
            seen.add(card_id)
            entries.append(DeckEntry(card_id >> 2, count, _PRINTING_NAME[card_id & 3]))
    if reader.pos != len(reader.data):
        raise DeckCodeError(f"not a deck code: {len(reader.data) - reader.pos} bytes left over "
                            "after the cards")
    pool = "set" if flags & _POOL_SET else "collection"
    if kind == "dealt" and entries:  # a pre-2.0-dealt "standard" code: a chosen deck
        kind = "custom"
    return Deck(battle, army, kind, scale, canonical_entries(entries),
                bool(flags & _HISTORICAL), pool)
