"""Inline card faces and backs: {% card_face card "gold" %}, {% card_back "french" %}."""

from itertools import count

from django import template
from django.utils.safestring import mark_safe

from frontend.catalogue.card_face import render_card_back, render_card_svg

register = template.Library()
_ids = count(1)


@register.simple_tag
def card_face(card, finish: str = "bronze"):
    """The SVG face of a Card (or a card record dict) in one printing, inlined."""
    if not isinstance(card, dict):
        from cards.catalogue.records import card_record

        card = card_record(card)
    return mark_safe(render_card_svg(card, finish, id_prefix=f"cf{next(_ids)}"))


@register.simple_tag
def card_back(army: str):
    """A face-down card of an army, inlined."""
    return mark_safe(render_card_back(army, id_prefix=f"cb{next(_ids)}"))
