"""Saved "standard" decks become custom drafts (2.0, 15.0).

A standard deck was hand-picked without a BP limit; 2.0 deals a standard deck at random, and
choosing cards is what 15.0's Battle Points are for. So every saved standard Deck and DeckVersion
becomes ``custom``: entries, numbers, notes and history unchanged, nothing deleted. Each
version's problems are checked again as a custom deck, so ``bp_exceeded`` shows where it is
over, and ``valid`` follows.
"""

from django.db import migrations

CARD_KEYS = ("number", "name", "army", "type", "bp", "terrain_battle")


def card_records(apps) -> dict[int, dict]:
    """The card records validation needs, from the historical Card model."""
    from cards.models import BATTLE_FIELDS  # a constant: battle slug -> boolean field

    records = {}
    for card in apps.get_model("cards", "Card").objects.all():
        record = {key: getattr(card, key) for key in CARD_KEYS}
        record["battles"] = [slug for slug, field in BATTLE_FIELDS.items()
                             if getattr(card, field, False)]
        records[card.number] = record
    return records


def standard_to_custom(apps, schema_editor) -> None:
    from decks.rules import Deck as RulesDeck
    from decks.rules import DeckEntry, validate

    Deck = apps.get_model("decks", "Deck")
    DeckVersion = apps.get_model("decks", "DeckVersion")
    Deck.objects.filter(kind="standard").update(kind="custom")
    versions = DeckVersion.objects.filter(kind="standard")
    if not versions.exists():
        return
    cards = card_records(apps)
    for version in versions.iterator():
        entries = tuple(DeckEntry(n, c, p) for n, c, p in version.entries)
        result = validate(RulesDeck(version.battle, version.army, "custom", version.scale,
                                    entries, version.historical), cards)
        version.kind = "custom"
        version.valid = result.valid
        version.size = result.size
        version.bp_total = result.bp_total
        version.problems = [p.to_dict() for p in result.problems]
        version.save(update_fields=["kind", "valid", "size", "bp_total", "problems"])


class Migration(migrations.Migration):

    dependencies = [
        ("decks", "0002_dealt_and_custom_kinds"),
        ("cards", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(standard_to_custom, migrations.RunPython.noop, elidable=True),
    ]
