"""A JSON column that stores its value small (issue 31, "keep an action row lean").

``PackedJSONField`` holds what a ``JSONField`` holds and gives back the same Python objects
(what ``json.loads(json.dumps(value))`` gives: ``play.log.plain``), but stores them as bytes:
the value's compact JSON text (keys sorted, no spaces) deflated (raw deflate, zlib) with a
preset dictionary of typical actions and events (``play/data/packed-json-1.txt``). An action
row's ``action`` and ``events`` are a few dozen bytes of JSON each that repeat the same keys
and values ("visibility":"all", "side":"allied", ...): as ``jsonb`` they took ~72 and ~186
bytes on PostgreSQL, packed ~15 and ~40 (figures: ``bench/storage.py``).

Dictionary 1 was drawn from ~1,100 rows of the four games (a Waterloo, a campaign, two
Stratego and two La Belle Alliance games): one example of each shape of action or event (its
type and keys), the most frequent shapes, ~3 KB, the most frequent last (deflate reaches the
nearest bytes the cheapest). A game it has not seen still reads back exactly, only less small.

The first byte says how the rest is stored: ``1``, deflated with dictionary 1; ``0``, the JSON
text as is (when deflating would not make it smaller). A dictionary, once used, never changes
(the bytes of stored rows depend on it; ``tests/test_lean_actions.py`` pins its digest): a
better one is dictionary 2, with its own first byte, and dictionary 1 still read.

Nothing queries inside these columns (no JSON lookups on them): they are read whole. Keys come
back sorted (unless they mix numbers and text), as a dict's order is not part of its value
(``jsonb`` gave them back in its own order on PostgreSQL, SQLite in the writer's).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

from django.db import models

PLAIN = 0
DEFLATED_1 = 1
# The dictionary's lines are joined without their line ends: the file is readable, the bytes
# are exactly these.
DICTIONARY_1 = b"".join(
    (Path(__file__).parent / "data" / "packed-json-1.txt").read_bytes().splitlines())
_WBITS = -15  # raw deflate: no zlib header or checksum (6 bytes a value)


def pack(value: Any, *, level: int = 9, sort_keys: bool = True) -> bytes:
    """``value`` (anything ``json.dumps`` takes) as the bytes stored. ``level``: zlib's
    (any level reads back the same way); ``sort_keys=False`` keeps the dict's own order."""
    try:
        text = json.dumps(value, separators=(",", ":"), sort_keys=sort_keys,
                          ensure_ascii=False).encode()
    except TypeError:  # keys of mixed types (1 and "a") cannot be sorted: kept as they are
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    deflate = zlib.compressobj(level, zlib.DEFLATED, _WBITS, 9, zlib.Z_DEFAULT_STRATEGY,
                               zdict=DICTIONARY_1)
    packed = deflate.compress(text) + deflate.flush()
    if len(packed) < len(text):
        return bytes((DEFLATED_1,)) + packed
    return bytes((PLAIN,)) + text


def unpack(data: bytes | memoryview) -> Any:
    """The value stored as ``data`` (from ``pack``)."""
    data = bytes(data)
    how, body = data[0], data[1:]
    if how == DEFLATED_1:
        inflate = zlib.decompressobj(_WBITS, zdict=DICTIONARY_1)
        body = inflate.decompress(body) + inflate.flush()
    elif how != PLAIN:
        raise ValueError(f"packed JSON stored with unknown method {how}")
    return json.loads(body)


class PackedJSONField(models.Field):
    """JSON stored packed (see the module): a binary column (``bytea``, ``BLOB``) that reads
    and writes Python values; no lookups inside it."""

    description = "JSON stored as deflated compact text"
    empty_strings_allowed = False

    def get_internal_type(self) -> str:
        return "BinaryField"  # the column type of each backend for bytes

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        return pack(value)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if not prepared:
            value = self.get_prep_value(value)
        if value is None:
            return None
        return connection.Database.Binary(value)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None:
            return None
        return unpack(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, (bytes, memoryview)):
            return unpack(value)
        return value

    def value_to_string(self, obj: Any) -> Any:
        """Serialized (``dumpdata``) as the value itself, as ``JSONField`` does."""
        return self.value_from_object(obj)


class PackedStateField(PackedJSONField):
    """A match's position (``Match.state``, issue 31): packed as ``PackedJSONField`` packs,
    but for speed, since it is written on every action. As ``jsonb`` a Waterloo's 6-7 KB
    position cost PostgreSQL ~0.5 ms of CPU per action to parse and compress (TOAST) on the
    UPDATE and ~0.1 ms to print on the locking read (figures: ``bench/profile_action.py``
    with the backends' CPU); packed it is ~1 KB of bytes PostgreSQL only copies. Deflated at
    zlib's level 1 (~50 us for Waterloo; level 9 takes twice that for 20 % fewer bytes) and
    its keys in the engine's own order (sorting them doubled ``json.dumps``'s time)."""

    description = "a position stored as deflated compact JSON"

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        return pack(value, level=1, sort_keys=False)
