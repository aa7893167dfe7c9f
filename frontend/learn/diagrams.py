"""The how-to-play page's diagrams: the tutorial's battle (``battles.tutorial``) at chosen
moments, drawn by the battle board's own renderer (``frontend.battle.board_svg``), so a
diagram is exactly what a player sees on the board. Built once per process."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from battles import tutorial
from battles.engine import load_cards, view
from cards.catalogue.file import catalogue_records
from frontend.battle.board_svg import board_svg

# (key, the tutorial step drawn before it is played, caption)
MOMENTS = (
    ("positions", 8, "The six Positions after deployment: yours at the bottom (Left, Centre, "
                     "Right), the enemy's on top facing them, the Middle Ground between. "
                     "Enemy cards are face-down backs."),
    ("engaging", 10, "Engaging: Charlet (French Left) has moved into the Allied Right, which "
                    "holds an enemy card. Both are turned face-up."),
    ("morale", 20, "The Morale Phase of the next French turn: Charlet carries a hit from the "
                   "Allied fire and must roll for it."),
    ("victory", None, "Victory: Vincke's brigade has routed; Charlet alone holds the Allied "
                      "Right, and the French win at that instant."),
)


@cache
def cards() -> Any:
    """The card table the tutorial and the diagrams play with (the catalogue data file)."""
    return load_cards(catalogue_records())


@cache
def diagrams() -> tuple[dict[str, Any], ...]:
    table = cards()
    doc = tutorial.start(table)
    out: dict[str, SafeString] = {}
    wanted = {at: key for key, at, _ in MOMENTS}
    while True:
        if doc["at"] in wanted or tutorial.current(doc) is None:
            key = wanted.get(doc["at"], "victory") if tutorial.current(doc) else "victory"
            shown = view(tutorial.state_of(doc, table), tutorial.PLAYER)
            out.setdefault(key, mark_safe(board_svg(  # noqa: S308 (escaped by the renderer)
                shown, tutorial.PLAYER, table, id_prefix=f"diagram-{key}")))
        if tutorial.current(doc) is None:
            break
        doc, _ = tutorial.play(doc, doc["at"], table)
    return tuple({"key": key, "svg": out[key], "caption": caption}
                 for key, _, caption in MOMENTS)
