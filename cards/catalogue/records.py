"""The catalogue's record format: one dict per card, the same keys as cards/data/catalogue.json.

Used by the loader (file -> model), the bulk export (model -> JSON) and the API.
"""

from ..models import BATTLE_FIELDS, Card

# Keys of a card record that map one-to-one onto Card model fields.
SCALAR_FIELDS = [
    "number", "name", "army", "nationality", "type", "ob_corps", "ob_division", "ob_brigade",
    "bp", "cv", "firepower", "shock", "fire_long", "fire_short", "artillery_kind", "morale",
    "offense", "defense", "corps", "chief_of_staff", "second_in_command", "terrain_battle",
    "terrain_position", "terrain_class", "move_limit", "special_text", "special_timing",
    "special_restrictions", "effect", "men", "guns", "source",
]
RECORD_KEYS = [*SCALAR_FIELDS[:8], "battles", *SCALAR_FIELDS[8:]]


def fold(text: str) -> str:
    """Lower case without accents: 'Napoléon' -> 'napoleon' (for search and name matching)."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def model_values(record: dict) -> dict:
    """Card model field values for one record of the data file."""
    values = {key: record.get(key) for key in SCALAR_FIELDS}
    values["source"] = values["source"] or ""
    values["search_name"] = fold(record["name"])
    battles = set(record.get("battles") or [])
    for slug, field in BATTLE_FIELDS.items():
        values[field] = slug in battles
    return values


def card_record(card: Card) -> dict:
    """The public record of one card (export and API share it)."""
    record = {key: getattr(card, key) for key in SCALAR_FIELDS}
    record["battles"] = card.battles
    record["ob"] = card.ob or None
    record["data_version"] = card.data_version
    return {key: record[key] for key in [*RECORD_KEYS, "ob", "data_version"]}
