"""Collection, want list, starter deck and trades pages (Django test client)."""

import pytest
from django.contrib.auth.models import User

from cards.collection import services as svc
from cards.collection import trades
from cards.models import Card, CollectionEntry, StarterDeck, Trade, WantEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client(client, user):
    client.force_login(user)
    return client


def owned(user) -> dict:
    return {(e.printing.card.number, e.printing.finish): (e.quantity, e.trade_quantity)
            for e in CollectionEntry.objects.filter(user=user).select_related("printing__card")}


def test_pages_need_login(catalogue, client):
    for url in ["/collection/", "/collection/import/", "/collection/export.csv",
                "/collection/missing/", "/collection/completion/", "/collection/wants/",
                "/collection/starter/", "/trades/"]:
        r = client.get(url)
        assert r.status_code == 302 and "/accounts/login/" in r["Location"], url
    assert client.post("/collection/change/", {"number": 1, "finish": "gold",
                                               "op": "add"}).status_code == 302
    assert not CollectionEntry.objects.exists()


def test_collection_page_shows_completion_and_filters(catalogue, user, alice_client):
    svc.add_copies(user, 1, "gold", 2)
    page = alice_client.get("/collection/").content.decode()
    assert 'data-testid="cards-owned">1<' in page and "of 300 cards" in page
    assert "of 900 card printings" in page
    assert 'data-testid="qty-1-gold">2<' in page
    assert alice_client.get("/collection/?page=2").status_code == 200
    owned_only = alice_client.get("/collection/?owned=owned").content.decode()
    assert 'id="card-1"' in owned_only and 'id="card-2"' not in owned_only
    card = Card.objects.get(number=1)
    found = alice_client.get(f"/collection/?q={card.name[:5]}").content.decode()
    assert 'id="card-1"' in found
    bad = alice_client.get("/collection/?army=swedish")
    assert bad.status_code == 200 and "unknown army" in bad.content.decode()


def test_quick_add_remove_and_trade_with_and_without_htmx(catalogue, user, alice_client):
    r = alice_client.post("/collection/change/", {"number": 5, "finish": "silver", "op": "add",
                                                  "next": "/collection/?page=1"})
    assert r.status_code == 302 and r["Location"] == "/collection/?page=1"
    r = alice_client.post("/collection/change/", {"number": 5, "finish": "silver", "op": "add"},
                          HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and 'data-testid="qty-5-silver">2<' in html
    assert r["HX-Trigger"] == "collection-changed" and html.lstrip().startswith("<tr")
    assert 'data-testid="cards-owned">1<' in alice_client.get(
        "/collection/completion/").content.decode()
    r = alice_client.post("/collection/change/", {"number": 5, "finish": "silver", "op": "trade",
                                                  "trade_quantity": "3"}, HTTP_HX_REQUEST="true")
    assert "trade quantity 3 is more than the 2" in r.content.decode()
    alice_client.post("/collection/change/", {"number": 5, "finish": "silver", "op": "trade",
                                              "trade_quantity": "1"}, HTTP_HX_REQUEST="true")
    alice_client.post("/collection/change/", {"number": 5, "finish": "silver", "op": "remove"},
                      HTTP_HX_REQUEST="true")
    assert owned(user) == {(5, "silver"): (1, 1)}
    r = alice_client.post("/collection/change/", {"number": 5, "finish": "gold", "op": "remove"},
                          HTTP_HX_REQUEST="true")
    assert "you own 0 of #5" in r.content.decode()
    r = alice_client.post("/collection/change/", {"number": 999, "finish": "gold", "op": "add"},
                          HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and "card #999 does not exist" in r.content.decode()
    r = alice_client.post("/collection/change/", {"number": 5, "finish": "tin", "op": "add"},
                          follow=True)
    assert "unknown printing" in r.content.decode()
    r = alice_client.post("/collection/change/", {"number": 5, "finish": "gold", "op": "add",
                                                  "next": "https://evil.example/"})
    assert r["Location"] == "/collection/"
    assert owned(user) == {(5, "silver"): (1, 1), (5, "gold"): (1, 0)}


def test_import_export_page(catalogue, user, alice_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    assert "Download CSV" in alice_client.get("/collection/import/").content.decode()
    name = Card.objects.get(number=3).name
    text = f"Count,Trade Count,Number,Name,Printing\n2,0,3,{name},Bronze\n"
    r = alice_client.post("/collection/import/", {"mode": "add",
                                                  "file": SimpleUploadedFile("c.csv",
                                                                             text.encode())})
    assert r.status_code == 302 and owned(user) == {(3, "bronze"): (2, 0)}
    r = alice_client.post("/collection/import/", {"mode": "replace", "csv":
                          "Count,Trade Count,Number,Name,Printing\n1,0,3,,Platinum\n"})
    assert "row 2: unknown printing &#x27;Platinum&#x27;" in r.content.decode()
    r = alice_client.post("/collection/import/", {"mode": "add", "csv": ""})
    assert "choose a CSV file" in r.content.decode()
    assert owned(user) == {(3, "bronze"): (2, 0)}
    r = alice_client.get("/collection/export.csv")
    assert r["Content-Type"].startswith("text/csv")
    assert r.content.decode().splitlines()[1] == f"2,0,3,{name},Bronze"


def test_missing_wants_and_starter_pages(catalogue, user, alice_client):
    assert 'data-testid="missing-count">300<' in alice_client.get(
        "/collection/missing/").content.decode()
    alice_client.post("/collection/wants/", {"number": "7", "finish": "", "quantity": "2"})
    assert WantEntry.objects.get(user=user).quantity == 2
    r = alice_client.post("/collection/wants/", {"number": "700", "quantity": "1"}, follow=True)
    assert "card #700 does not exist" in r.content.decode()
    assert 'data-testid="want-7"' in alice_client.get("/collection/wants/").content.decode()
    want = WantEntry.objects.get(user=user)
    alice_client.post("/collection/wants/", {"op": "remove", "want_id": str(want.id)})
    assert not WantEntry.objects.exists()
    r = alice_client.post("/collection/wants/", {"op": "remove", "want_id": "x"}, follow=True)
    assert "no such want" in r.content.decode()
    r = alice_client.post("/collection/starter/", follow=True)
    assert "60 cards were added" in r.content.decode()
    assert StarterDeck.objects.filter(user=user).count() == 1
    assert sum(q for q, _ in owned(user).values()) == 60


def test_trades_page_offer_accept_and_suggestions(catalogue, user, other_user, client):
    svc.add_copies(user, 1, "gold", 1)
    svc.add_copies(other_user, 2, "bronze", 2)
    svc.set_trade_quantity(other_user, 2, "bronze", 2)
    svc.set_want(user, 2, "", 1)
    client.force_login(user)
    page = client.get("/trades/").content.decode()
    assert 'data-testid="suggestion-bob"' in page
    r = client.post("/trades/", {"recipient": "bob", "give": "1 gold", "receive": "#2 Bronze x2",
                                 "message": "deal?"})
    assert r.status_code == 302
    trade = Trade.objects.get()
    r = client.post("/trades/", {"recipient": "bob", "give": "1 gold x5", "receive": ""})
    assert r.status_code == 400 and "alice would give 5" in r.content.decode()
    r = client.post("/trades/", {"recipient": "bob", "give": "gold one"})
    assert "give line 1" in r.content.decode()
    r = client.post(f"/trades/{trade.id}/accept/", follow=True)
    assert "only the recipient" in r.content.decode()
    client.force_login(other_user)
    assert f'data-testid="accept-{trade.id}"' in client.get("/trades/").content.decode()
    r = client.post(f"/trades/{trade.id}/accept/", follow=True)
    assert f"Trade #{trade.id} accepted" in r.content.decode()
    assert owned(user) == {(2, "bronze"): (2, 0)}
    carol = User.objects.create_user("carol", "", "s3cret-pass-1815")
    client.force_login(carol)
    r = client.post(f"/trades/{trade.id}/decline/", follow=True)
    assert "no such trade" in r.content.decode()
    assert client.post(f"/trades/{trade.id}/explode/").status_code == 302
    assert trades.get_trade(user, trade.id).status == "accepted"


def test_collection_shows_which_of_my_decks_use_each_card(catalogue, user, other_user,
                                                          alice_client):
    from decks import services as deck_services

    svc.add_copies(user, 1, "bronze", 1)
    svc.add_copies(user, 2, "gold", 1)
    deck = deck_services.create_deck(user, name="Grande Armée", battle="waterloo",
                                     army="french", entries=[(1, 1, None)])
    deck_services.create_deck(other_user, name="Not mine", battle="waterloo", army="french",
                              entries=[(2, 1, None)])
    page = alice_client.get("/collection/?owned=1").content.decode()
    assert 'data-testid="decks-1"' in page and "Grande Armée" in page
    assert f"/decks/{deck.id}/" in page
    assert 'data-testid="decks-2"' not in page and "Not mine" not in page
    # The htmx row a quick edit returns keeps the deck list.
    row = alice_client.post("/collection/change/", {"number": 1, "finish": "bronze",
                                                    "op": "add"}, HTTP_HX_REQUEST="true")
    assert "Grande Armée" in row.content.decode()
