"""Many threads accepting the same and overlapping trades at once (PostgreSQL only: SQLite
serialises every writer, so it cannot show a race or a deadlock)."""

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections
from django.db.models import Sum

from cards.collection import services as svc
from cards.collection import trades
from cards.models import CollectionEntry, Trade, TradeStatus

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers, so"
                    " concurrent row locking cannot be exercised")


def totals() -> dict:
    return {row["printing_id"]: row["n"] for row in
            CollectionEntry.objects.values("printing_id").annotate(n=Sum("quantity"))}


def run_all(jobs) -> list:
    """Run (function, args) jobs in threads released together; returns results/exceptions."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def work(i, func, args):
        try:
            barrier.wait(timeout=30)
            results[i] = func(*args)
        except Exception as exc:  # noqa: BLE001 - the test inspects what came back
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(i, f, a)) for i, (f, a) in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung (deadlock?)"
    return results


def test_concurrent_accepts_conserve_cards(catalogue):
    alice = User.objects.create_user("alice", "", "pw")
    others = [User.objects.create_user(f"u{i}", "", "pw") for i in range(8)]
    svc.add_copies(alice, 1, "gold", 3)
    svc.set_trade_quantity(alice, 1, "gold", 3)
    svc.add_copies(alice, 2, "silver", 5)
    for i, u in enumerate(others):
        svc.add_copies(u, 2, "silver", 2)
        svc.add_copies(u, 3 + i % 2, "bronze", 3)
    # Eight offers of alice's only three gold #1 (each for a silver #2 back): at most 3 can win.
    scarce = [trades.offer_trade(alice, u, [(1, "gold", 1)], [(2, "silver", 1)]) for u in others]
    # Overlapping swaps in opposite directions between pairs (a lock-order deadlock trap):
    # u0 gives #3 and gets #4 from u1, while u1 gives #4 and gets #3 from u0, and so on.
    swaps = []
    for a, b in [(others[0], others[1]), (others[2], others[3]), (others[4], others[5])]:
        swaps.append(trades.offer_trade(a, b, [(3, "bronze", 2)], [(4, "bronze", 2)]))
        swaps.append(trades.offer_trade(b, a, [(4, "bronze", 1)], [(3, "bronze", 1)]))
    before = totals()

    jobs = [(trades.accept_trade, (t.recipient, t.id)) for t in scarce]
    jobs += [(trades.accept_trade, (scarce[0].recipient, scarce[0].id))] * 4  # same trade x5
    jobs += [(trades.accept_trade, (t.recipient, t.id)) for t in swaps]
    results = run_all(jobs)

    unexpected = [r for r in results if isinstance(r, Exception)
                  and not isinstance(r, svc.Conflict)]
    assert not unexpected, unexpected
    scarce_ok = [t for t in scarce if Trade.objects.get(id=t.id).status == TradeStatus.ACCEPTED]
    assert len(scarce_ok) == 3
    for t in scarce:
        if t not in scarce_ok:
            assert Trade.objects.get(id=t.id).status == TradeStatus.OFFERED
    # each accepted trade was accepted by exactly one thread (trade 0 was tried by five)
    accepted = Trade.objects.filter(status=TradeStatus.ACCEPTED).count()
    assert sum(1 for r in results if not isinstance(r, Exception)) == accepted
    # the swaps have enough cards both ways, so every one of them completes
    assert all(Trade.objects.get(id=t.id).status == TradeStatus.ACCEPTED for t in swaps)
    assert totals() == before  # no card created or lost
    alice_gold = CollectionEntry.objects.filter(user=alice, printing__card__number=1).first()
    assert alice_gold is None  # all three went
    assert not CollectionEntry.objects.filter(quantity=0).exists()
    for entry in CollectionEntry.objects.all():
        assert 0 <= entry.trade_quantity <= entry.quantity


def test_concurrent_accept_and_remove_never_goes_negative(catalogue):
    alice = User.objects.create_user("alice", "", "pw")
    bobs = [User.objects.create_user(f"b{i}", "", "pw") for i in range(6)]
    svc.add_copies(alice, 9, "bronze", 4)
    offers = [trades.offer_trade(alice, b, [(9, "bronze", 1)], []) for b in bobs]
    before = totals()
    jobs = [(trades.accept_trade, (t.recipient, t.id)) for t in offers]
    jobs += [(svc.remove_copies, (alice, 9, "bronze", 1))] * 3
    results = run_all(jobs)
    unexpected = [r for r in results if isinstance(r, Exception)
                  and not isinstance(r, svc.ServiceError)]
    assert not unexpected, unexpected
    accepted = sum(1 for t in offers if Trade.objects.get(id=t.id).status == "accepted")
    removed = sum(1 for r in results[len(offers):] if not isinstance(r, Exception))
    assert accepted + removed == 4
    after = totals()
    printing_id = next(iter(before))
    assert after.get(printing_id, 0) == before[printing_id] - removed
