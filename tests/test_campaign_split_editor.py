"""The split editor on the campaign page (issue 13): one choice per free card, counts and
Battle Points per deck, the core's precise message on a bad split, the proposals kept as
one-click buttons; nothing of the other side's pool on the page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.campaign import legal_actions, split_plan
from campaigns import services
from campaigns.kind import core_of
from campaigns.models import Campaign
from frontend.campaigns.editing import split_action

from .campaign.helpers import TABLE, small_pools
from .kinds import campaign_tasks as tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    return pools


@pytest.fixture
def alice(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def started(user) -> tuple[Campaign, list[int], dict[str, list[int]]]:
    c = services.create_campaign(user, "french", bot="greedy")
    free, forced = split_plan(core_of(c), "french")
    return c, free, forced


def test_the_editor_lists_each_free_card_with_totals_per_deck(alice, user, small):
    c, free, forced = started(user)
    html = alice.get(f"/campaigns/{c.pk}/").content.decode()
    assert 'data-testid="split-editor"' in html
    assert 'data-type="split"' in html  # the core's proposals stay as buttons
    rows = re.findall(r'data-testid="split-card" data-card="(\d+)"', html)
    assert sorted(map(int, rows)) == sorted(free) and len(free) > 4
    for n in free:  # one choice per battle for each card
        assert f'name="card-{n}" value="quatre-bras"' in html
        assert f'name="card-{n}" value="ligny"' in html
    # the totals are those of the first proposal (checked by default), forced cards included
    proposal = legal_actions(core_of(c), "french")[0]["decks"]
    for b in ("quatre-bras", "ligny"):
        mine = proposal[b] + forced[b]
        assert f'data-testid="split-count-{b}">{len(mine)}<' in html
        assert f'data-testid="split-bp-{b}">{sum(TABLE[n].bp for n in mine)}<' in html
    # nothing of the Allied pool is named on the page
    allied = small["allied"]
    assert not {n for n in map(int, re.findall(r'data-card="(\d+)"', html))} & set(allied)
    assert not any(TABLE[n].name in html for n in allied if TABLE[n].kind != "terrain")


def test_moving_cards_posts_one_split_of_that_partition(alice, user, small):
    c, free, forced = started(user)
    to_ligny = set(free[:3])
    form = {"seq": "0", **{f"card-{n}": "ligny" if n in to_ligny else "quatre-bras"
                           for n in free}}
    r = alice.post(f"/campaigns/{c.pk}/split/", form)
    assert r.status_code == 302, r.content.decode()[:2000]
    c.refresh_from_db()
    row = c.actions.get(seq=1)
    assert row.action["type"] == "split"
    assert row.action["decks"] == {"quatre-bras": sorted(set(free) - to_ligny),
                                   "ligny": sorted(to_ligny)}
    assert c.state["splits"]["french"]["ligny"] == sorted(to_ligny)


def test_a_bad_split_is_refused_with_the_cores_message_and_the_choice_kept(alice, user, small):
    c, free, forced = started(user)
    form = {"seq": "0", **{f"card-{n}": "ligny" for n in free[1:]}}  # one card left out
    r = alice.post(f"/campaigns/{c.pk}/split/", form)
    html = r.content.decode()
    assert r.status_code == 400 and 'data-testid="campaign-error"' in html
    assert (f"A split places each free card exactly once (not free: [], missing: [{free[0]}], "
            "twice: [])") in html
    # what the player chose is shown again: a card the proposal sends to Quatre Bras stays
    # at Ligny, where it was posted
    proposal = legal_actions(core_of(c), "french")[0]["decks"]
    moved = next(n for n in free[1:] if n in proposal["quatre-bras"])
    assert re.search(rf'name="card-{moved}" value="ligny"[^>]*checked', html)
    # a card that is not free (an Allied one) is named by the core too
    allied = small["allied"][0]
    form = {"seq": "0", **{f"card-{n}": "ligny" for n in free}, f"card-{allied}": "ligny"}
    r = alice.post(f"/campaigns/{c.pk}/split/", form)
    assert r.status_code == 400 and f"not free: [{allied}]" in r.content.decode()
    # an unknown battle for a card: named with the card
    r = alice.post(f"/campaigns/{c.pk}/split/", {"seq": "0", f"card-{free[0]}": "wavre"})
    assert r.status_code == 400
    assert f"Card {free[0]}: choose one of Quatre Bras, Ligny for it, not &#x27;wavre&#x27;" \
        in r.content.decode()
    r = alice.post(f"/campaigns/{c.pk}/split/", {"seq": "7", **{f"card-{n}": "ligny"
                                                                for n in free}})
    assert r.status_code == 409 and "has moved on" in r.content.decode()
    c.refresh_from_db()
    assert c.seq == 0 and not c.actions.exists()


def test_no_split_to_make(alice, user, other_user, small):
    c, free, _ = started(user)
    alice.post(f"/campaigns/{c.pk}/split/", {"seq": "0", **{f"card-{n}": "ligny" for n in free}})
    r = alice.post(f"/campaigns/{c.pk}/split/", {"seq": "1"})
    assert r.status_code == 409 and "There is no split for you to make now" in r.content.decode()
    bob = Client()
    bob.force_login(other_user)
    assert bob.post(f"/campaigns/{c.pk}/split/", {"seq": "1"}).status_code == 409  # watching
    assert Client().post(f"/campaigns/{c.pk}/split/", {"seq": "1"}).status_code == 302  # log in


def test_split_action_is_pure_and_names_a_bad_battle():
    action = split_action("french", ["quatre-bras", "ligny"], [1, 2, 3],
                          {"card-1": "ligny", "card-2": "quatre-bras", "card-9": "ligny"})
    assert action == {"type": "split", "side": "french",
                      "decks": {"quatre-bras": [2], "ligny": [1, 9]}}
    odd = split_action("french", ["ligny"], [], {"card-²": "ligny", "card-" + "9" * 30: "ligny",
                                                 "card-": "ligny", "card-5": "ligny"})
    assert odd["decks"] == {"ligny": [5]}  # not numbers: ignored; 5 is named by the core
    with pytest.raises(Exception, match="card 3: choose one of Quatre Bras, Ligny"):
        split_action("french", ["quatre-bras", "ligny"], [3], {"card-3": ""})


def test_the_allies_split_with_the_editor_in_the_second_phase(alice, user, other_user, small):
    """Bob (Allied) concedes Quatre Bras and Ligny; in the second phase the Prussians may
    fight at Wavre or Waterloo, so after the French the Allies split, with the same editor."""
    from campaigns import selectors

    c = services.create_campaign(user, "french", opponent="bob")
    services.join_campaign(c.pk, other_user)
    users = {"french": user, "allied": other_user}
    prefer = ("retreat", "deployment_done", "end_phase", "end_turn", "pass", "roll_morale",
              "keep", "split")
    for _ in range(200):
        c.refresh_from_db()
        if c.phase == "second" and c.to_move == "allied":
            break
        legal = selectors.campaign_view(c, users[c.to_move])["legal_actions"]
        kinds = [a["type"] for a in legal]
        kind = next((k for k in prefer if k in kinds and (k != "retreat" or
                                                          c.to_move == "allied")), kinds[0])
        services.act(c.pk, users[c.to_move], c.seq, legal[kinds.index(kind)])
    assert c.phase == "second" and c.state["step"] == "split"
    bob = Client()
    bob.force_login(other_user)
    html = bob.get(f"/campaigns/{c.pk}/").content.decode()
    free, forced = split_plan(core_of(c), "allied")
    assert free and 'data-testid="split-editor"' in html
    assert f'name="card-{free[0]}" value="waterloo"' in html
    assert f'name="card-{free[0]}" value="wavre"' in html
    assert not any(f'data-card="{n}"' in html for n in small["french"])
    form = {"seq": str(c.seq), **{f"card-{n}": "waterloo" for n in free}}
    assert bob.post(f"/campaigns/{c.pk}/split/", form).status_code == 302
    c.refresh_from_db()
    assert c.state["splits"]["allied"] == {"waterloo": sorted(free), "wavre": []}
