"""The deck pages' settings forms: a new deck, and an import (settings "as the pasted deck
says" unless chosen)."""

from __future__ import annotations

from django import forms

from cards.models import Army, Battle
from decks.models import DeckKind, DeckPool


class DeckSettingsForm(forms.Form):
    """A new deck. The first choice is the kind: dealt (2.0: the battle deals the cards from a
    pool, nothing to pick) or custom (15.0: pick cards within the BP limit)."""

    kind = forms.ChoiceField(choices=DeckKind.choices, initial=DeckKind.DEALT)
    pool = forms.ChoiceField(choices=DeckPool.choices, initial=DeckPool.COLLECTION,
                             required=False, label="Dealt from",
                             help_text="Dealt decks: my collection, or the whole set.")
    name = forms.CharField(max_length=100)
    battle = forms.ChoiceField(choices=Battle.choices, initial=Battle.WATERLOO)
    army = forms.ChoiceField(choices=Army.choices, initial=Army.FRENCH)
    scale = forms.CharField(max_length=12, initial="1",
                            help_text="A fraction: 1, 1/2 (Waterloo 18/18/12), 3/2…")
    historical = forms.BooleanField(required=False,
                                    label="Historical only (every card fought there)")


AS_PASTED = ("", "As the pasted deck says")


class ImportForm(DeckSettingsForm):
    """Every setting defaults to "as the pasted deck says": the export's first line or the
    deck code sets it; a setting chosen here must agree with it (else the import is refused)."""

    FORMATS = [("text", "Deck list (text)"), ("code", "Deck code")]
    source = forms.ChoiceField(choices=FORMATS, initial="text", widget=forms.RadioSelect,
                               label="I am pasting")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
                           max_length=100_000, label="Deck list or deck code")
    battle = forms.ChoiceField(choices=[AS_PASTED, *Battle.choices], required=False, initial="")
    army = forms.ChoiceField(choices=[AS_PASTED, *Army.choices], required=False, initial="")
    kind = forms.ChoiceField(choices=[AS_PASTED, *DeckKind.choices], required=False,
                             initial="")
    scale = forms.CharField(max_length=12, required=False, initial="",
                            help_text="Blank: as the pasted deck says (else 1).")

    pool = forms.ChoiceField(choices=[AS_PASTED, *DeckPool.choices], required=False,
                             initial="", label="Dealt from")
    field_order = ["source", "text", "name", "battle", "army", "kind", "pool", "scale",
                   "historical"]

