"""Each side's deck in a battle: one scale per battle (2.0 "card ratios must be maintained"),
a dealt deck (2.0 "deal out face-down") from a named pool with the battle's seed, or a custom
deck (15.0) built for the battle's scale; the revealed seed re-deals every deck."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from battles import dealing, services, setup
from battles.engine import from_json
from battles.models import Battle, Status
from battles.services import BattleError
from decks import services as deck_services
from decks.catalogue import cards_by_number

from .tournament_helpers import give_cards, player, pool, valid_entries

pytestmark = pytest.mark.django_db


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def post(c, url, body, expect):
    r = c.post(url, body, format="json")
    assert r.status_code == expect, r.content
    return r.json()


def test_2_0_dealt_deck_against_the_computer_is_dealt_with_the_seed(catalogue, user, sent):
    b = services.create_battle(user, "waterloo", "allied", deal={"pool": "set"})
    assert b.scale == "1" and b.status == Status.ACTIVE
    assert {a: len(d) for a, d in b.decks.items()} == {"french": 36, "british": 36,
                                                        "prussian": 24}
    for army in ("british", "prussian"):  # mine: the whole set, not historical only
        choice = b.deck_choices[army]
        assert choice["pool"] == "set" and not choice["historical"]
        assert set(b.decks[army]) <= set(choice["from"])
        assert b.decks[army] == random.Random(f"{b.seed}:deal:{army}").sample(
            sorted(choice["from"]), len(b.decks[army]))
    # The computer's French: the whole set, historical only (the 2.0 note).
    records = cards_by_number()
    assert b.deck_choices["french"]["historical"]
    assert all("waterloo" in records[n]["battles"] or records[n]["type"] == "terrain"
               for n in b.decks["french"])
    assert dealing.redeal(b, setup.engine_cards(b)) == b.decks


def test_2_0_one_scale_for_every_army(catalogue, user, sent):
    b = services.create_battle(user, "waterloo", "french", scale="1/2",
                               deal={"pool": "set", "historical": True})
    assert b.scale == "1/2"
    assert {a: len(d) for a, d in b.decks.items()} == {"french": 18, "british": 18,
                                                        "prussian": 12}
    # 3.0 IMPORTANT: the Muster scales too (M18 -> 9)
    st = from_json(b.state, cards=setup.engine_cards(b))
    assert len(st.reserve[0]) == 9
    with pytest.raises(BattleError, match="multiple of 1/2") as err:
        services.create_battle(user, "quatre-bras", "french", scale="1/3")
    assert err.value.status == 400
    for bad in ("0", "5", "x", [1]):
        with pytest.raises(BattleError):
            services.create_battle(user, "ligny", "french", scale=bad)
    assert Battle.objects.count() == 1


def test_scale_choices_keep_every_deck_whole():
    choices = dealing.scale_choices("waterloo")
    assert choices[0] == "1/12" and "1/2" in choices and "1" in choices and "2" in choices
    assert dealing.scale_choices("quatre-bras") == ["1/2", "1", "3/2", "2"]


def test_15_0_custom_deck_must_be_built_for_the_battles_scale(catalogue, sent):
    alice, _ = player("alice2")
    half = deck_services.create_deck(alice, name="half", battle="quatre-bras", army="french",
                                     kind="custom", scale="1/2",
                                     entries=valid_entries("french", "quatre-bras")[:5])
    assert half.latest.valid, half.latest.problems
    with pytest.raises(BattleError, match="this deck is built for scale 1/2; the battle is "
                                          "played at scale 1") as err:
        services.create_battle(alice, "quatre-bras", "french", deck_version_id=half.latest.pk)
    assert err.value.status == 400
    b = services.create_battle(alice, "quatre-bras", "french", scale="1/2",
                               deck_version_id=half.latest.pk)
    assert sorted(b.decks["french"]) == sorted(n for n, _, _ in half.latest.entries)
    assert b.french_deck == half.latest and len(b.decks["british"]) == 9  # 18 x 1/2
    assert b.deck_choices["french"] == {"kind": "custom", "version": half.latest.pk,
                                        "cards": sorted(b.decks["french"])}
    assert dealing.redeal(b, setup.engine_cards(b)) == b.decks


def test_2_0_deal_from_my_collection(catalogue, sent):
    alice, _ = player("alice3")  # owns every card that fought at Quatre Bras
    owned = set(pool("british", "quatre-bras"))
    b = services.create_battle(alice, "quatre-bras", "allied", deal={"pool": "collection"})
    assert b.deck_choices["british"]["from"] == sorted(owned)
    assert set(b.decks["british"]) <= owned and len(set(b.decks["british"])) == 18  # D18


def test_2_0_collection_too_small_to_deal_from(catalogue, user, sent):
    give_cards(user, pool("french", "quatre-bras")[:5])
    with pytest.raises(BattleError, match="your collection has 5 French cards for Quatre Bras; "
                                          "a deal at scale 1 needs 14") as err:
        services.create_battle(user, "quatre-bras", "french", deal={"pool": "collection"})
    assert err.value.status == 400
    with pytest.raises(BattleError, match="has 0 historical British cards"):
        services.create_battle(user, "quatre-bras", "allied",
                               deal={"pool": "collection", "historical": True})
    assert not Battle.objects.exists()


@pytest.mark.parametrize("kwargs, message", [
    ({"deal": {"pool": "attic"}}, 'deal pool must be "collection"'),
    ({"deal": {"pool": "set", "historical": "yes"}}, "historical must be true or false"),
    ({"deal": {"pool": "set", "size": 3}}, "unknown deal option 'size'"),
    ({"deal": "set"}, "deal must be an object"),
    ({"deal": {"pool": "set"}, "deck_version_id": 1}, "choose one deck"),
])
def test_bad_deck_choice_is_400(user, kwargs, message):
    with pytest.raises(BattleError, match=message) as err:
        services.create_battle(user, "quatre-bras", "french", **kwargs)
    assert err.value.status == 400


def test_join_deals_both_decks_at_the_battles_scale(catalogue, sent):
    dora, _ = player("dora2")
    erin, _ = player("erin2")
    b = services.create_battle(dora, "quatre-bras", "french", opponent="open", scale="1/2",
                               deal={"pool": "collection"})
    assert b.decks == {} and set(b.deck_choices) == {"french"}  # dealt when both are known
    with pytest.raises(BattleError, match="deal pool must be"):
        services.join_battle(b.pk, erin, deal={"pool": "nowhere"})
    services.join_battle(b.pk, erin, deal={"pool": "set", "historical": True})
    b.refresh_from_db()
    assert [len(b.decks["french"]), len(b.decks["british"])] == [7, 9]
    assert set(b.decks["french"]) <= set(pool("french", "quatre-bras"))  # dora's collection
    assert b.deck_choices["british"]["pool"] == "set"
    services.replay(b)  # the seed re-deals the recorded decks


def test_2_0_replay_from_the_revealed_seed_gives_the_same_decks(catalogue, user, sent):
    b = services.create_battle(user, "ligny", "french", deal={"pool": "set"})
    services.replay(b)  # re-deals with the seed: the same decks
    # At the end the seed is shown, with my pools and the cards dealt from them: I re-deal.
    b.status, b.outcome = Status.FINISHED, {"winner": "french"}
    b.save()
    seen = services.battle_view(b, user)
    seed = int(seen["seed"])
    assert seen["my_deal"].keys() == {"french"}
    mine = seen["my_deal"]["french"]
    assert random.Random(f"{seed}:deal:french").sample(sorted(mine["pool"]), 36) == \
        mine["dealt"] == b.decks["french"]
    # A deck the seed does not deal is caught by the replay.
    b.decks = {**b.decks, "french": sorted(b.decks["french"])}
    with pytest.raises(RuntimeError, match="does not deal the recorded decks"):
        services.replay(b)


def test_battle_view_shows_the_scale_and_each_sides_deck_kind(catalogue, user, sent):
    b = services.create_battle(user, "quatre-bras", "allied", scale="1/2",
                               deal={"pool": "set"})
    seen = services.battle_view(b, user)
    assert seen["scale"] == "1/2"
    assert seen["decks"] == {"french": "dealt from the whole set, historical only",
                             "allied": "dealt from the whole set"}
    assert seen["my_deal"] is None  # not before the end


def test_api_create_and_join_with_deck_choices(catalogue, sent):
    dora, _ = player("dora3")
    erin = User.objects.create_user("erin3", "", "pw")
    data = post(client(dora), "/api/battles/", {"battle": "wavre", "side": "french",
                                                "scale": "1/4", "deal": {"pool": "set"},
                                                "bot": "random"}, 201)
    assert data["scale"] == "1/4" and data["status"] == "active"
    assert post(client(dora), "/api/battles/", {"battle": "wavre", "side": "french",
                                                "scale": "1/3"}, 400)["detail"].startswith(
        "2.0: scale 1/3 would give Wavre decks")
    bid = post(client(dora), "/api/battles/", {"battle": "quatre-bras", "side": "french",
                                               "opponent": "open"}, 201)["id"]
    body = post(client(erin), f"/api/battles/{bid}/join/", {"deal": {"pool": "collection"}},
                400)
    assert body["detail"] == ("2.0: your collection has 0 British cards for Quatre Bras; a "
                              "deal at scale 1 needs 18")
    data = post(client(erin), f"/api/battles/{bid}/join/", {"deal": {"pool": "set"}}, 200)
    assert data["status"] == "active" and data["decks"]["allied"] == "dealt from the whole set"
