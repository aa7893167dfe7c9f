"""JSON from outside (API bodies, websocket frames, action forms), decoded with a bounded depth.

Python's decoder recurses once per level of nesting: a body of a few thousand ``[`` ran it (or
the clean-input walk after it) out of stack, a 500 with a huge traceback (issue 30). No
message here needs more than a handful of levels (an action, a deck, a tournament), so text
nested deeper than ``MAX_DEPTH`` is refused before it is decoded, by counting brackets outside
strings without recursion; the decoder's own ``RecursionError`` is caught as well.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 64  # levels of objects and lists; the deepest message we take needs under 10

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class TooDeep(ValueError):
    """The text nests objects or lists deeper than ``MAX_DEPTH``."""

    def __init__(self, limit: int = MAX_DEPTH):
        super().__init__(f"JSON nested deeper than {limit} levels is not accepted.")


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text``, brackets inside strings aside
    (iterative: any depth is measured without recursion)."""
    if text.count("[") + text.count("{") == 0:
        return 0
    brackets = _BRACKET.findall(_STRING.sub("", text))
    return max(accumulate(_STEP[b] for b in brackets), default=0)


def loads(text: str | bytes, limit: int = MAX_DEPTH, **options: Any) -> Any:
    """``json.loads`` that raises ``ValueError`` for every bad text: ``TooDeep`` past
    ``limit`` levels, ``json.JSONDecodeError`` (or ``UnicodeDecodeError``) otherwise."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if text.count("[") + text.count("{") > limit and nesting_depth(text) > limit:
        raise TooDeep(limit)
    try:
        return json.loads(text, **options)
    except RecursionError:  # cannot happen below the limit; kept as a net
        raise TooDeep(limit) from None
