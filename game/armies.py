"""The three armies (1.0) and their colours, chosen once.

1.0: card backs are Blue (French), Red (British) and Gray (Prussian). ``ARMY_COLOURS`` is the
strong colour (card backs, borders, pieces on the board); ``ARMY_TINTS`` the pale ground of a
card face or a board piece. Every renderer, template and stylesheet uses these.
"""

from __future__ import annotations

ARMIES: tuple[str, ...] = ("french", "british", "prussian")
ARMY_NAMES: dict[str, str] = {"french": "French", "british": "British", "prussian": "Prussian"}
# The long name for choices and forms (intro: "Anglo-Dutch (herein called British)").
ARMY_FULL_NAMES: dict[str, str] = {**ARMY_NAMES, "british": "British (Anglo-Allied)"}
ARMY_COLOURS: dict[str, str] = {"french": "#1f3f8f", "british": "#a31f24", "prussian": "#4d5560"}
ARMY_TINTS: dict[str, str] = {"french": "#e4e9f5", "british": "#f5e3e3", "prussian": "#e6e8eb"}
