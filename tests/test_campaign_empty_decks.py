"""Issue 29, "A card in two places", through the online service: two people play campaigns
from their collections (``pool="collection"``) in which a split or the collection leaves an
army no card at a battle, in every phase; after every action the saved state holds every
card of both collections in exactly one place and no other card (the core's test:
tests/campaign/test_empty_decks.py)."""

from __future__ import annotations

import pytest

from battles.campaign import from_json
from campaigns import selectors, services
from campaigns.kind import KIND
from campaigns.models import Status

from .campaign.helpers import (
    EMPTY_ARMY,
    army_cards_at,
    conserved,
    empty_army_action,
    empty_army_pools,
)
from .tournament_helpers import give_cards

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", sorted(EMPTY_ARMY))
def test_an_empty_deck_is_an_empty_deck_online(name, user, other_user, monkeypatch):
    battle, army, _, _ = EMPTY_ARMY[name]
    pools = empty_army_pools(name)
    give_cards(user, pools["french"])
    give_cards(other_user, pools["allied"])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    c = services.create_campaign(user, "french", opponent="bob", pool="collection",
                                 settings={"turn_cap": 2})
    services.join_campaign(c.pk, other_user, pool="collection")
    c.refresh_from_db()
    assert c.pools == pools  # the collections, one copy each
    cards = set(pools["french"]) | set(pools["allied"])
    users = {"french": user, "allied": other_user}
    seen = None
    for _ in range(3000):
        core = from_json(c.state, KIND.cards(c))
        conserved(core, cards)
        if battle in core.boards and seen is None:
            seen = army_cards_at(core.boards[battle], army)
        if c.status != Status.ACTIVE:
            break
        side = c.to_move
        legal = selectors.campaign_view(c, users[side])["legal_actions"]
        services.act(c.pk, users[side], c.seq, empty_army_action(core, side, legal, name))
        c.refresh_from_db()
    assert c.status == Status.FINISHED
    assert battle in core.results, f"the scenario never reached {battle}"
    if seen is None:
        assert core.results[battle]["reason"] == "walkover"
    else:
        assert seen == [], f"{army} cards dealt at {battle} from outside the pools: {seen}"
    assert services.replay(c).winner == c.outcome["winner"]
