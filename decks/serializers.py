"""Deck API shapes: input checked for type here, for meaning in ``decks.inputs``."""

from rest_framework import serializers

from cards.models import Army, Battle
from config.lean_fields import LeanFieldsMixin

from .inputs import MAX_COUNT, MAX_ENTRIES, MAX_SEED, MAX_TEXT
from .models import Deck, DeckKind, DeckPool, DeckVersion


class EntryField(serializers.JSONField):
    """One entry: ``[number, count, printing]`` or ``{"number", "count", "printing"}``."""


class EntriesField(serializers.ListField):
    """A list of entries, checked here as a list (its type and length) and passed on whole:
    ``decks.inputs.clean_entries`` reads every entry and names each bad one, so a second pass
    per entry here (a JSON field re-encoding each item to prove it is JSON, which a parsed
    body always is) is only cost (bench/request_cpu.py)."""

    lean_copy = True  # the child describes an entry in the API schema; it is never run

    def run_child_validation(self, data):
        return list(data)


class DeckSourceMixin(serializers.Serializer):
    """Where the cards come from: ``entries`` (JSON), ``decklist`` (text) or ``code``."""

    entries = EntriesField(
        child=EntryField(), required=False, max_length=MAX_ENTRIES,
        help_text=f"[[number, count (1-{MAX_COUNT}), printing or null], ...]")
    decklist = serializers.CharField(required=False, max_length=MAX_TEXT, trim_whitespace=False,
                                     help_text="Deck-list text: one 'COUNT #NUMBER' or "
                                               "'COUNT NAME' a line.")
    code = serializers.CharField(required=False, max_length=4000,
                                 help_text="A deck code (gives battle, army, kind and scale).")

    def validate(self, attrs):
        given = [k for k in ("entries", "decklist", "code") if k in attrs]
        if len(given) > 1:
            raise serializers.ValidationError(
                f"send one of entries, decklist or code, not {' and '.join(given)}")
        return attrs


class SettingsMixin(serializers.Serializer):
    battle = serializers.ChoiceField(Battle.choices, required=False)
    army = serializers.ChoiceField(Army.choices, required=False)
    kind = serializers.ChoiceField(DeckKind.choices, required=False)
    scale = serializers.CharField(required=False, max_length=40,
                                  help_text="An exact fraction: 1, 0.5, 1/2.")
    historical = serializers.BooleanField(required=False)
    pool = serializers.ChoiceField(DeckPool.choices, required=False,
                                   help_text="Dealt decks (2.0): collection (the copies I own) "
                                             "or set (the whole set).")


class ValidateInput(LeanFieldsMixin, DeckSourceMixin, SettingsMixin):
    """A list to check without saving; battle and army are needed unless a code is sent.

    Kind ``custom`` (the default) checks the list as chosen cards (15.0); kind ``dealt``
    checks it as a pool (2.0: can it deal D x scale distinct cards?). ``pool`` is
    ``collection`` / ``set`` (a dealt deck with no list), or a list of entries: a pool to
    check, the same as entries with kind ``dealt``."""

    pool = serializers.JSONField(
        required=False, help_text='"collection", "set", or a pool as [[number, count, '
                                  'printing], ...] (checked as a dealt deck\'s pool, 2.0)')

    def validate_pool(self, value):
        if value in DeckPool.values:
            return value
        if isinstance(value, list) and len(value) <= MAX_ENTRIES:
            return value
        raise serializers.ValidationError(
            f'a pool is "collection", "set" or a list of at most {MAX_ENTRIES} entries')

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if isinstance(attrs.get("pool"), list) and ("entries" in attrs or "code" in attrs):
            raise serializers.ValidationError("send a pool list or entries/code, not both")
        if "code" not in attrs:
            missing = [k for k in ("battle", "army") if k not in attrs]
            if missing:
                raise serializers.ValidationError(f"{' and '.join(missing)} required")
        return attrs


class DeckCreateInput(DeckSourceMixin, SettingsMixin):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    note = serializers.CharField(required=False, allow_blank=True, max_length=200)

    def validate(self, attrs):
        # A deck code, or a deck list whose first line is the export's header, gives its own
        # settings; settings sent with it must agree (checked in exchange.import_pasted).
        attrs = super().validate(attrs)
        if "code" not in attrs and "decklist" not in attrs:
            missing = [k for k in ("battle", "army") if k not in attrs]
            if missing:
                raise serializers.ValidationError(f"{' and '.join(missing)} required")
        return attrs


class DeckUpdateInput(SettingsMixin):
    """A new version: fields not sent keep their value (PATCH); PUT sends the whole deck."""

    name = serializers.CharField(required=False, max_length=100)
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    note = serializers.CharField(required=False, allow_blank=True, max_length=200)
    entries = EntriesField(
        child=EntryField(), required=False, max_length=MAX_ENTRIES,
        help_text="[[number, count, printing or null], ...]")
    decklist = serializers.CharField(required=False, max_length=MAX_TEXT, trim_whitespace=False)

    def validate(self, attrs):
        if "entries" in attrs and "decklist" in attrs:
            raise serializers.ValidationError("send entries or decklist, not both")
        if self.context.get("full"):
            missing = [k for k in ("name", "battle", "army") if k not in attrs]
            if "entries" not in attrs and "decklist" not in attrs:
                missing.append("entries (or decklist)")
            if missing:
                raise serializers.ValidationError(
                    f"PUT sends the whole deck: {', '.join(missing)} required (PATCH changes "
                    "only what it sends)")
        return attrs


class SeedInput(serializers.Serializer):
    seed = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED,
                                    allow_null=True)
    version = serializers.IntegerField(required=False, min_value=1)


def entry_dicts(entries, cards: dict) -> list[dict]:
    return [{"number": n, "count": c, "printing": p,
             "name": (cards.get(n) or {}).get("name")} for n, c, p in entries]


class VersionSerializer(serializers.ModelSerializer):
    """A deck version; its ``id`` is what new battles, tournaments and matchups ask for
    (``deck_version``), its ``number`` counts the deck's versions from 1."""

    entries = serializers.SerializerMethodField()
    locked = serializers.SerializerMethodField()

    class Meta:
        model = DeckVersion
        fields = ["id", "number", "created_at", "note", "battle", "army", "kind", "pool", "scale",
                  "historical", "valid", "size", "bp_total", "problems", "locked", "entries"]

    def get_entries(self, version) -> list[dict]:
        return entry_dicts(version.entries, self.context.get("cards", {}))

    def get_locked(self, version) -> bool:
        return version.locked_at is not None


class DeckListSerializer(serializers.ModelSerializer):
    latest_number = serializers.IntegerField(read_only=True, allow_null=True)
    latest_valid = serializers.BooleanField(read_only=True, allow_null=True)
    latest_size = serializers.IntegerField(read_only=True, allow_null=True)
    latest_bp_total = serializers.IntegerField(read_only=True, allow_null=True)
    shared = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = ["id", "name", "description", "battle", "army", "kind", "pool", "scale",
                  "historical", "shared", "created_at", "updated_at", "latest_number",
                  "latest_valid", "latest_size", "latest_bp_total"]

    def get_shared(self, deck) -> bool:
        return bool(deck.share_token)


class SharedDeckSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)

    class Meta:
        model = Deck
        fields = ["name", "description", "owner", "battle", "army", "kind", "pool", "scale",
                  "historical", "updated_at"]
