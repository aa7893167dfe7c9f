"""The six types of card (1.0), and the troop types among them.

A card is a General, Infantry, Cavalry, Artillery, Terrain or Special card; Infantry, Cavalry
and Artillery cards are the troops. ``CARD_TYPES`` is in the order the site lists them
(decklists, deck statistics, the deck editor). The catalogue's ``type`` and the engine's
``Card.kind`` use these words.
"""

from __future__ import annotations

CARD_TYPES: tuple[str, ...] = ("general", "infantry", "cavalry", "artillery", "terrain",
                               "special")
TROOP_TYPES: tuple[str, ...] = ("infantry", "cavalry", "artillery")
