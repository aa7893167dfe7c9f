"""Collection services: owning, completion, missing cards, wants, starter decks."""

from collections import Counter

import pytest

from cards.collection import services as svc
from cards.models import Card, CollectionEntry, Printing, StarterDeck, WantEntry

pytestmark = pytest.mark.django_db


def snapshot(user) -> dict:
    return {(e.printing.card.number, e.printing.finish): (e.quantity, e.trade_quantity)
            for e in CollectionEntry.objects.filter(user=user).select_related("printing__card")}


def test_add_remove_and_trade_quantity(catalogue, user):
    entry = svc.add_copies(user, 1, "Gold", 3)
    assert (entry.quantity, entry.trade_quantity) == (3, 0)
    svc.add_copies(user, "1", "gold")
    assert snapshot(user) == {(1, "gold"): (4, 0)}
    svc.set_trade_quantity(user, 1, "gold", 4)
    svc.remove_copies(user, 1, "GOLD", 2)
    assert snapshot(user) == {(1, "gold"): (2, 2)}  # trade quantity follows quantity down
    svc.remove_copies(user, 1, "gold", 2)
    assert snapshot(user) == {}  # no row is left with 0 copies


def test_remove_more_than_owned_says_how_many_are_owned(catalogue, user):
    svc.add_copies(user, 5, "silver", 2)
    with pytest.raises(svc.ServiceError, match="you own 2 of #5 .* cannot remove 3"):
        svc.remove_copies(user, 5, "silver", 3)
    with pytest.raises(svc.ServiceError, match="you own 0 of #5 .*Gold"):
        svc.remove_copies(user, 5, "gold", 1)
    assert snapshot(user) == {(5, "silver"): (2, 0)}


@pytest.mark.parametrize("number, finish, count, message", [
    (301, "gold", 1, "card #301 does not exist"),
    (0, "gold", 1, "card #0 does not exist"),
    (-4, "gold", 1, "card #-4 does not exist"),
    (10**12, "gold", 1, "card #1000000000000 does not exist"),
    ("abc", "gold", 1, "card number must be a whole number"),
    (None, "gold", 1, "card number must be a whole number"),
    (True, "gold", 1, "card number must be a whole number"),
    (1.5, "gold", 1, "card number must be a whole number"),
    (1, "Platinum", 1, "unknown printing 'Platinum'"),
    (1, None, 1, "unknown printing None"),
    (1, "gold", 0, "count must be a whole number 1-9999, got 0"),
    (1, "gold", -2, "count must be a whole number 1-9999, got -2"),
    (1, "gold", 10**12, "count must be a whole number 1-9999"),
    (1, "gold", "two", "count must be a whole number 1-9999, got 'two'"),
    (1, "gold", 2.5, "count must be a whole number 1-9999"),
])
def test_bad_input_is_refused_and_nothing_changes(catalogue, user, number, finish, count,
                                                  message):
    svc.add_copies(user, 2, "bronze", 1)
    before = snapshot(user)
    for change in (svc.add_copies, svc.remove_copies):
        with pytest.raises(svc.ServiceError, match=message.replace("(", r"\(")):
            change(user, number, finish, count)
    assert snapshot(user) == before


def test_quantity_limit(catalogue, user):
    svc.add_copies(user, 3, "gold", 9999)
    with pytest.raises(svc.ServiceError, match="exceed the limit of 9999"):
        svc.add_copies(user, 3, "gold", 1)
    assert snapshot(user) == {(3, "gold"): (9999, 0)}


def test_trade_quantity_cannot_exceed_quantity(catalogue, user):
    svc.add_copies(user, 7, "bronze", 3)
    with pytest.raises(svc.ServiceError, match="trade quantity 4 is more than the 3"):
        svc.set_trade_quantity(user, 7, "bronze", 4)
    with pytest.raises(svc.ServiceError, match="more than the 0"):
        svc.set_trade_quantity(user, 8, "bronze", 1)
    with pytest.raises(svc.ServiceError, match="whole number 0-9999"):
        svc.set_trade_quantity(user, 7, "bronze", -1)
    assert snapshot(user) == {(7, "bronze"): (3, 0)}
    svc.set_trade_quantity(user, 7, "bronze", 3)
    assert snapshot(user) == {(7, "bronze"): (3, 3)}


def test_model_constraints_hold(catalogue, user):
    from django.db import IntegrityError, transaction

    printing = Printing.objects.get(card__number=1, finish="gold")
    with pytest.raises(IntegrityError), transaction.atomic():
        CollectionEntry.objects.create(user=user, printing=printing, quantity=1,
                                       trade_quantity=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        CollectionEntry.objects.create(user=user, printing=printing, quantity=10000)


def test_completion_both_ways_and_breakdowns(catalogue, user):
    empty = svc.completion(user)
    assert empty["cards"] == {"owned": 0, "total": 300, "percent": 0.0}
    assert empty["printings"] == {"owned": 0, "total": 900, "percent": 0.0}
    card = Card.objects.get(number=1)
    svc.add_copies(user, 1, "gold", 2)
    svc.add_copies(user, 1, "bronze", 5)
    svc.add_copies(user, 2, "bronze", 1)
    other = Card.objects.get(number=2)
    done = svc.completion(user)
    assert done["cards"]["owned"] == 2 and done["printings"]["owned"] == 3
    assert done["copies"] == 8
    assert done["by_finish"]["gold"] == {"owned": 1, "total": 300, "percent": 0.3}
    assert done["by_finish"]["bronze"]["owned"] == 2
    assert done["by_finish"]["silver"]["owned"] == 0
    army = done["by_army"][card.army]
    total_in_army = Card.objects.filter(army=card.army).count()
    assert army["cards"]["total"] == total_in_army
    assert army["printings"]["total"] == 3 * total_in_army
    expected = 1 + (other.army == card.army)
    assert army["cards"]["owned"] == expected
    assert sum(a["cards"]["total"] for a in done["by_army"].values()) == 300
    assert sum(t["cards"]["total"] for t in done["by_type"].values()) == 300
    assert sum(t["printings"]["owned"] for t in done["by_type"].values()) == 3


def test_missing_cards_filterable_by_army(catalogue, user):
    svc.add_copies(user, 1, "silver")
    missing = svc.missing_cards(user)
    assert missing.count() == 299 and not missing.filter(number=1).exists()
    army = Card.objects.get(number=1).army
    assert svc.missing_cards(user, army).count() == Card.objects.filter(army=army).count() - 1
    with pytest.raises(svc.ServiceError, match="unknown army 'swedish'"):
        svc.missing_cards(user, "swedish")


def test_wants_and_want_missing(catalogue, user):
    card = Card.objects.get(number=10)
    svc.set_want(user, 10, "", 3)
    svc.set_want(user, 10, "Gold", 1)
    assert WantEntry.objects.filter(user=user).count() == 2
    assert svc.want_missing(user, card, 3) == 3
    svc.add_copies(user, 10, "bronze", 2)
    assert svc.want_missing(user, card, 3) == 1
    assert svc.want_missing(user, 10, 3, "gold") == 3
    assert svc.want_missing(user, card, 1) == 0
    rows = {(r["want"].finish): (r["owned"], r["missing"]) for r in svc.wants(user)}
    assert rows == {"": (2, 1), "gold": (0, 1)}
    svc.set_want(user, 10, "gold", 4)
    assert WantEntry.objects.get(user=user, finish="gold").quantity == 4
    svc.set_want(user, 10, "gold", 0)
    assert not WantEntry.objects.filter(user=user, finish="gold").exists()
    for bad, message in [((301, "", 1), "card #301"), ((10, "tin", 1), "unknown printing"),
                         ((10, "", -1), "quantity must be"), ((10, "", 10**12), "quantity")]:
        with pytest.raises(svc.ServiceError, match=message):
            svc.set_want(user, *bad)
    want = WantEntry.objects.get(user=user)
    svc.remove_want(user, want.id)
    with pytest.raises(svc.NotFound):
        svc.remove_want(user, want.id)


def test_deal_starter_is_pure_and_follows_rarity():
    numbers = list(range(1, 301))
    first = svc.deal_starter(1815, numbers)
    assert len(first) == 60
    assert first == svc.deal_starter(1815, list(reversed(numbers)))
    assert first != svc.deal_starter(1816, numbers)
    assert all(1 <= n <= 300 and f in ("gold", "silver", "bronze") for n, f in first)
    finishes = Counter(f for seed in range(300) for _, f in svc.deal_starter(seed, numbers))
    total = sum(finishes.values())
    assert abs(finishes["gold"] / total - 0.10) < 0.02
    assert abs(finishes["silver"] / total - 0.30) < 0.02
    assert abs(finishes["bronze"] / total - 0.60) < 0.02


def test_open_starter_deck_records_and_adds_cards(catalogue, user):
    svc.add_copies(user, 1, "bronze", 1)
    deck = svc.open_starter_deck(user, seed=42)
    assert StarterDeck.objects.filter(user=user).count() == 1
    dealt = svc.deal_starter(42, list(range(1, 301)))
    assert [tuple(x) for x in deck.printings] == dealt
    expected = Counter(dealt)
    expected[(1, "bronze")] += 1
    assert {k: q for k, (q, _) in snapshot(user).items()} == dict(expected)
    assert deck.seed == 42
    assert sum(svc.starter_summary(deck)["by_finish"].values()) == 60


def test_open_starter_deck_is_all_or_nothing(catalogue, user):
    dealt = svc.deal_starter(7, list(range(1, 301)))
    number, finish = dealt[-1]
    svc.add_copies(user, number, finish, 9999)
    before = snapshot(user)
    with pytest.raises(svc.ServiceError, match="exceed the limit"):
        svc.open_starter_deck(user, seed=7)
    assert snapshot(user) == before and not StarterDeck.objects.exists()
