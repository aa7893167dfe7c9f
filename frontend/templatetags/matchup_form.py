"""``{% matchup_form deck %}``: the deck page's "How does it fare?" form (issue 14).

Deck A is the deck's latest valid version; the opponents offered are the latest valid versions
of the user's other decks for the same battle and scale on the other side, and the historical
deal. Below it, the deck's last five matchups.
"""

from django import template

from battles.bots import BOTS
from battles.engine.board import ARMY_SIDE
from decks.selectors import latest_versions, playable_version
from matchups import services
from matchups.models import Matchup

register = template.Library()


@register.inclusion_tag("frontend/matchups/_fare_form.html", takes_context=True)
def matchup_form(context, deck) -> dict:
    user = context["request"].user
    version = playable_version(deck)
    side = ARMY_SIDE.get(deck.army)
    opponents = [v for v in latest_versions(user)
                 if v.valid and v.battle == deck.battle and v.scale == deck.scale
                 and ARMY_SIDE.get(v.army) is not None and ARMY_SIDE.get(v.army) != side
                 and v.kind in ("dealt", "custom")] if version else []
    earlier = list(Matchup.objects.filter(created_by=user, deck_a__deck=deck)
                   .select_related("deck_a", "deck_b__deck")[:5])
    return {"deck": deck, "version": version, "opponents": opponents, "bots": sorted(BOTS),
            "earlier": earlier,
            "default_bots": services.DEFAULT_BOTS, "seed": services.DEFAULT_SEED,
            "max_games": services.max_games(), "csrf_token": context.get("csrf_token")}
