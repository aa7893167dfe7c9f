"""Trades: offer, accept, decline, cancel; partner suggestions; the trades API."""

import pytest
from django.contrib.auth.models import User

from cards.collection import services as svc
from cards.collection import trades
from cards.models import CollectionEntry, Trade, TradeStatus

pytestmark = pytest.mark.django_db


def owned(user) -> dict:
    return {(e.printing.card.number, e.printing.finish): (e.quantity, e.trade_quantity)
            for e in CollectionEntry.objects.filter(user=user).select_related("printing__card")}


@pytest.fixture
def stocked(catalogue, user, other_user):
    svc.add_copies(user, 1, "gold", 2)
    svc.set_trade_quantity(user, 1, "gold", 2)
    svc.add_copies(user, 2, "bronze", 3)
    svc.add_copies(other_user, 3, "silver", 1)
    svc.add_copies(other_user, 2, "bronze", 1)
    return user, other_user


def test_offer_and_accept_moves_cards(stocked):
    alice, bob = stocked
    trade = trades.offer_trade(alice, "bob", [(1, "gold", 1), (2, "bronze", 3)],
                               [(3, "silver", 1)], "Fancy a swap?")
    assert trade.status == TradeStatus.OFFERED and trade.lines.count() == 3
    assert owned(alice)[(1, "gold")] == (2, 2)  # nothing moves on offer
    done = trades.accept_trade(bob, trade.id)
    assert done.status == TradeStatus.ACCEPTED and done.closed_at
    assert owned(alice) == {(1, "gold"): (1, 1), (3, "silver"): (1, 0)}
    assert owned(bob) == {(1, "gold"): (1, 0), (2, "bronze"): (4, 0)}


def test_offer_checks(stocked):
    alice, bob = stocked
    cases = [
        (("alice", [(1, "gold", 1)], []), "cannot trade with yourself"),
        (("nobody", [(1, "gold", 1)], []), "no user called 'nobody'"),
        (("bob", [], []), "at least one card"),
        (("bob", [(1, "gold", 3)], []), "alice would give 3 × #1 .* but has 2"),
        (("bob", [], [(3, "gold", 1)]), "bob would give 1 × #3 .* but has 0"),
        (("bob", [(301, "gold", 1)], []), "give line 1: card #301 does not exist"),
        (("bob", [(1, "tin", 1)], []), "unknown printing 'tin'"),
        (("bob", [(1, "gold", 0)], []), "quantity must be a whole number 1-9999"),
        (("bob", [(1, "gold", 1), (1, "Gold", 1)], []), "listed twice"),
        (("bob", [(2, "bronze", 1)], [(2, "bronze", 1)]), "on both sides"),
        (("bob", [(1, "gold")], []), "expected card number, printing and quantity"),
    ]
    for args, message in cases:
        with pytest.raises(svc.ServiceError, match=message):
            trades.offer_trade(alice, *args)
    with pytest.raises(svc.ServiceError, match="limit is 500"):
        trades.offer_trade(alice, bob, [(1, "gold", 1)], [], "x" * 501)
    assert not Trade.objects.exists()


def test_only_the_right_side_acts_and_only_while_offered(stocked, db):
    alice, bob = stocked
    carol = User.objects.create_user("carol", "", "s3cret-pass-1815")
    trade = trades.offer_trade(alice, bob, [(1, "gold", 1)], [])
    with pytest.raises(svc.NotFound):
        trades.accept_trade(carol, trade.id)
    with pytest.raises(svc.NotFound):
        trades.get_trade(carol, trade.id)
    with pytest.raises(svc.NotAllowed, match="only the recipient"):
        trades.accept_trade(alice, trade.id)
    with pytest.raises(svc.NotAllowed, match="only the recipient"):
        trades.decline_trade(alice, trade.id)
    with pytest.raises(svc.NotAllowed, match="only the proposer"):
        trades.cancel_trade(bob, trade.id)
    assert trades.decline_trade(bob, trade.id).status == TradeStatus.DECLINED
    for act, who in [(trades.accept_trade, bob), (trades.decline_trade, bob),
                     (trades.cancel_trade, alice)]:
        with pytest.raises(svc.Conflict, match="already declined"):
            act(who, trade.id)
    second = trades.offer_trade(alice, bob, [(1, "gold", 1)], [])
    assert trades.cancel_trade(alice, second.id).status == TradeStatus.CANCELLED
    assert owned(alice)[(1, "gold")] == (2, 2)


def test_accept_fails_cleanly_when_cards_are_gone(stocked):
    alice, bob = stocked
    trade = trades.offer_trade(alice, bob, [(1, "gold", 2)], [(3, "silver", 1)])
    svc.remove_copies(alice, 1, "gold", 1)
    svc.remove_copies(bob, 3, "silver", 1)
    before = (owned(alice), owned(bob))
    with pytest.raises(svc.Conflict) as caught:
        trades.accept_trade(bob, trade.id)
    assert "alice no longer has 2 × #1" in caught.value.message
    assert "(has 1)" in caught.value.message
    assert "bob no longer has 1 × #3" in caught.value.message
    assert (owned(alice), owned(bob)) == before
    assert Trade.objects.get(id=trade.id).status == TradeStatus.OFFERED


def test_accept_respects_quantity_limit(stocked):
    alice, bob = stocked
    svc.add_copies(bob, 2, "bronze", 9998)
    trade = trades.offer_trade(alice, bob, [(2, "bronze", 2)], [])
    before = (owned(alice), owned(bob))
    with pytest.raises(svc.Conflict, match="more than 9999"):
        trades.accept_trade(bob, trade.id)
    assert (owned(alice), owned(bob)) == before


def test_parse_lines_text():
    assert trades.parse_lines_text("12 gold\n#7 Silver x2\n\n 3 bronze 4 ", "give") == [
        (12, "gold", 1), (7, "Silver", 2), (3, "bronze", 4)]
    with pytest.raises(svc.ServiceError, match="give line 1"):
        trades.parse_lines_text("gold twelve", "give")


def test_suggestions_rank_two_way_matches_first(catalogue, user, other_user):
    carol = User.objects.create_user("carol", "", "s3cret-pass-1815")
    dave = User.objects.create_user("dave", "", "s3cret-pass-1815")
    svc.set_want(user, 10, "", 1)       # alice wants #10 in any finish
    svc.set_want(user, 11, "gold", 1)   # and a gold #11
    svc.add_copies(user, 20, "bronze", 2)
    svc.set_trade_quantity(user, 20, "bronze", 1)  # alice trades #20 bronze
    # bob trades #10 (one-way match); carol trades #10 and #11 gold and wants #20: two-way
    svc.add_copies(other_user, 10, "silver", 1)
    svc.set_trade_quantity(other_user, 10, "silver", 1)
    for number, finish in [(10, "bronze"), (11, "gold")]:
        svc.add_copies(carol, number, finish, 1)
        svc.set_trade_quantity(carol, number, finish, 1)
    svc.set_want(carol, 20, "bronze", 1)
    # dave trades #11 in silver only (alice wants gold) and #10 without marking it for trade
    svc.add_copies(dave, 11, "silver", 1)
    svc.set_trade_quantity(dave, 11, "silver", 1)
    svc.add_copies(dave, 10, "gold", 1)
    result = trades.suggest_partners(user)
    assert [s.user.username for s in result] == ["carol", "bob"]
    carol_match = result[0].as_dict()
    assert carol_match["two_way"] is True
    assert [(c["number"], c["finish"]) for c in carol_match["they_have"]] == [
        (10, "bronze"), (11, "gold")]
    assert [(c["number"], c["finish"]) for c in carol_match["they_want"]] == [(20, "bronze")]
    assert result[1].as_dict()["two_way"] is False
    # a want already satisfied no longer matches
    svc.add_copies(user, 10, "gold", 1)
    assert [s.user.username for s in trades.suggest_partners(user)] == ["carol"]
    assert trades.suggest_partners(other_user) == []


# --- API ------------------------------------------------------------------------------------

def test_trade_api_flow(stocked, alice_api):
    alice, bob = stocked
    r = alice_api.post("/api/trades/", {"recipient": "bob", "message": "hi",
                                        "give": [{"number": 1, "finish": "Gold", "quantity": 1}],
                                        "receive": [{"number": 3, "finish": "silver"}]},
                       format="json")
    assert r.status_code == 201, r.content
    trade_id = r.json()["id"]
    assert r.json()["give"][0]["name"] and r.json()["receive"][0]["quantity"] == 1
    assert alice_api.get("/api/trades/").json()["count"] == 1
    r = alice_api.post(f"/api/trades/{trade_id}/accept/")
    assert r.status_code == 403 and "recipient" in r.json()["detail"]
    from rest_framework.test import APIClient

    bob_api = APIClient()
    bob_api.force_authenticate(bob)
    assert bob_api.get("/api/trades/?status=offered").json()["count"] == 1
    r = bob_api.post(f"/api/trades/{trade_id}/accept/")
    assert r.status_code == 200 and r.json()["status"] == "accepted"
    r = bob_api.post(f"/api/trades/{trade_id}/decline/")
    assert r.status_code == 409 and "already accepted" in r.json()["detail"]
    assert owned(bob)[(1, "gold")] == (1, 0)


def test_trade_api_errors(stocked, alice_api, api):
    alice, bob = stocked
    trade = trades.offer_trade(bob, alice, [(3, "silver", 1)], [])
    carol = User.objects.create_user("carol", "", "s3cret-pass-1815")
    from rest_framework.test import APIClient

    carol_api = APIClient()
    carol_api.force_authenticate(carol)
    for action in ("", "accept/", "decline/", "cancel/"):
        method = carol_api.get if not action else carol_api.post
        r = method(f"/api/trades/{trade.id}/{action}")
        assert r.status_code == 404 and r.json() == {"detail": "no such trade", "code": "not_found"}
        assert carol_api.post(f"/api/trades/999999/{action or 'accept/'}").status_code == 404
    assert api.get("/api/trades/").status_code in (401, 403)
    assert api.post(f"/api/trades/{trade.id}/accept/").status_code in (401, 403)
    bad = [
        ({}, "recipient: This field is required."),
        ({"recipient": "bob"}, "at least one card"),
        ({"recipient": "bob", "give": [{"finish": "gold"}]}, "give[0].number: This field is"),
        ({"recipient": "bob", "give": "1 gold"}, "give"),
        ({"recipient": "bob", "give": [{"number": 10**12, "finish": "gold"}]},
         "card #1000000000000 does not exist"),
        ({"recipient": "bob", "give": [{"number": "x", "finish": "gold"}]},
         "card number must be a whole number"),
        ({"recipient": "bob", "give": [{"number": 1, "finish": "gold", "quantity": -1}]},
         "quantity must be a whole number 1-9999, got -1"),
        ({"recipient": "bob", "give": [{"number": 1, "finish": "gold", "quantity": 5}]},
         "alice would give 5"),
        ({"recipient": "alice", "give": [{"number": 1, "finish": "gold"}]}, "yourself"),
        ({"recipient": "bob", "give": [{"number": 1, "finish": "gold"}], "message": "x" * 501},
         "message"),
    ]
    for body, message in bad:
        r = alice_api.post("/api/trades/", body, format="json")
        assert r.status_code == 400, (body, r.content)
        assert message in r.json()["detail"], (body, r.json())
    assert alice_api.get("/api/trades/?status=bogus").status_code == 400
    assert Trade.objects.count() == 1


def test_suggestions_api(stocked, alice_api):
    alice, bob = stocked
    svc.set_want(alice, 3, "", 1)
    svc.set_trade_quantity(bob, 3, "silver", 1)
    r = alice_api.get("/api/trades/suggestions/")
    assert r.status_code == 200
    assert r.json()["results"][0]["username"] == "bob"
    assert r.json()["results"][0]["they_have"][0]["number"] == 3
