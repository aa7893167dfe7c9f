"""What a battle is set up with: the catalogue version, the card records it plays with and
each army's deck kind, recorded on the ``Battle`` so that a later catalogue correction can
never change a battle or its replay (issue 10).

``catalogue_now()`` reads the database catalogue (the data file only if the database has no
cards yet); ``snapshot`` keeps the records of the cards in the decks, plus each army's
commander (12.3: who commands is decided over the whole catalogue, so his record must travel
with the battle); ``engine_cards`` and ``setup_state`` hand them to the engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from cards.catalogue.file import catalogue_records, catalogue_version
from cards.catalogue.loader import current_version
from cards.catalogue.records import card_record
from cards.models import Card
from play import tables
from play.models import CardSet

from .engine import CardTable, State, load_cards, new_battle
from .models import Battle


def catalogue_now() -> tuple[str, list[dict[str, Any]]]:
    """(version, every card record) of the catalogue as it is now."""
    cards = list(Card.objects.order_by("number"))
    if not cards:
        return catalogue_version(), catalogue_records()
    return current_version() or "", json.loads(json.dumps([card_record(c) for c in cards]))


def snapshot(battle: str, decks: Mapping[str, Iterable[int]], records: list[dict[str, Any]]
             ) -> list[dict[str, Any]]:
    """The records of the cards in ``decks``, of each army's commander, and of every card that
    fought ``battle`` (the pool the default historical deck is dealt from, so the revealed
    seed re-deals it from the battle's own records), by number."""
    wanted = {n for numbers in decks.values() for n in numbers}
    wanted |= set(load_cards(records).commanders.values())
    wanted |= {r["number"] for r in records if battle in r.get("battles", ())}
    return [r for r in records if r["number"] in wanted]


def table(records: Iterable[Mapping[str, Any]]) -> CardTable:
    """The engine's card table of ``records``."""
    return load_cards(records)


def deck_kind(version) -> dict[str, dict[str, str]]:
    """``{army: {"kind", "scale"}}`` for a player's own DeckVersion (none: a dealt deck)."""
    if version is None:
        return {}
    return {version.army: {"kind": version.kind, "scale": str(version.scale)}}


def record_setup(battle: Battle, version: str, records: list[dict[str, Any]]) -> None:
    """Stamp ``battle`` with the catalogue version and the records of its decks' cards (their
    ``CardSet``, stored once for every battle with the same records)."""
    battle.catalogue_version = version
    battle.card_set = CardSet.store(snapshot(battle.battle, battle.decks, records))


def engine_cards(battle: Battle) -> CardTable:
    """The card table the battle plays with: its own records (a battle set up before they were
    recorded plays with the catalogue as it is now)."""
    return load_cards(battle.card_records or catalogue_now()[1])


def cards_of(battle: Battle) -> CardTable:
    """``engine_cards(battle)``, built once per card set in this process (``play.tables``,
    keyed by the records' digest: the records are read only then); a battle without its own
    records is built each time."""
    return tables.kept(tables.cards_key(battle), lambda: engine_cards(battle))


def bot_cards(battle: Battle) -> CardTable:
    """What the computer player may know: the public catalogue as it is now, with the battle's
    own records for its cards (a bot estimates a face-down card over the whole catalogue)."""
    by_number = {r["number"]: r for r in catalogue_now()[1]}
    by_number.update((r["number"], r) for r in battle.card_records)
    return load_cards(by_number.values())


def setup_state(battle: Battle) -> State:
    """The battle's position before its first action, from its recorded setup."""
    return new_battle(battle.battle, battle.seed, battle.decks, battle.settings,
                      cards=engine_cards(battle), deck_kinds=battle.deck_kinds or None)
