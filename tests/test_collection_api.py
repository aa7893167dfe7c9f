"""The collection, wants and starter-deck API: happy paths, every bad input, never a 500."""

import pytest
from rest_framework.test import APIClient

from cards.collection import services as svc
from cards.models import Card, CollectionEntry, StarterDeck, WantEntry

pytestmark = pytest.mark.django_db


def owned(user) -> dict:
    return {(e.printing.card.number, e.printing.finish): (e.quantity, e.trade_quantity)
            for e in CollectionEntry.objects.filter(user=user).select_related("printing__card")}


def test_anonymous_is_refused(catalogue, api):
    for url in ["/api/collection/", "/api/collection/completion/", "/api/collection/missing/",
                "/api/collection/export/", "/api/wants/", "/api/starter-decks/",
                "/api/trades/", "/api/trades/suggestions/"]:
        assert api.get(url).status_code in (401, 403), url
    for url in ["/api/collection/", "/api/collection/add/", "/api/collection/remove/",
                "/api/collection/import/", "/api/wants/", "/api/starter-decks/"]:
        assert api.post(url, {"number": 1, "finish": "gold"}, format="json").status_code \
            in (401, 403), url
    assert not CollectionEntry.objects.exists() and not StarterDeck.objects.exists()


def test_add_remove_list_and_filter(catalogue, user, alice_api):
    r = alice_api.post("/api/collection/add/", {"number": 1, "finish": "Gold", "count": 3},
                       format="json")
    assert r.status_code == 200 and r.json()["quantity"] == 3
    r = alice_api.post("/api/collection/", {"number": "2", "finish": "bronze"})  # form data
    assert r.status_code == 201 and r.json()["quantity"] == 1
    r = alice_api.post("/api/collection/trade-quantity/",
                       {"number": 1, "finish": "gold", "trade_quantity": 2}, format="json")
    assert r.status_code == 200 and r.json()["trade_quantity"] == 2
    r = alice_api.post("/api/collection/remove/", {"number": 1, "finish": "gold", "count": 2},
                       format="json")
    assert r.json() == {"number": 1, "name": Card.objects.get(number=1).name,
                        "finish": "gold", "quantity": 1, "trade_quantity": 1}
    listing = alice_api.get("/api/collection/").json()
    assert listing["count"] == 2 and listing["results"][0]["rarity"] == "rare"
    assert alice_api.get("/api/collection/?finish=bronze").json()["count"] == 1
    army = Card.objects.get(number=1).army
    assert all(e["army"] == army for e in
               alice_api.get(f"/api/collection/?army={army}").json()["results"])
    for bad in ["army=swedish", "type=navy", "finish=tin", "number=x", "number=10000000000000"]:
        r = alice_api.get(f"/api/collection/?{bad}")
        assert r.status_code == 400 and r.json()["detail"], bad


@pytest.mark.parametrize("body, message", [
    ({"number": 301, "finish": "gold"}, "card #301 does not exist"),
    ({"number": 10**12, "finish": "gold"}, "card #1000000000000 does not exist"),
    ({"number": -1, "finish": "gold"}, "card #-1 does not exist"),
    ({"number": "one", "finish": "gold"}, "card number must be a whole number"),
    ({"number": [1], "finish": "gold"}, "card number must be a whole number"),
    ({"number": 1, "finish": "Platinum"}, "unknown printing 'Platinum'"),
    ({"number": 1, "finish": 3}, "unknown printing 3"),
    ({"number": 1, "finish": "gold", "count": -2}, "count must be a whole number 1-9999"),
    ({"number": 1, "finish": "gold", "count": 10**12}, "count must be a whole number 1-9999"),
    ({"number": 1, "finish": "gold", "count": "lots"}, "count must be a whole number"),
    ({"number": 1, "finish": "gold", "count": None}, "count: This field may not be null."),
    ({"finish": "gold"}, "number: This field is required."),
    ({"number": 1}, "finish: This field is required."),
    ([1, 2], "must be a JSON object"),
])
def test_bad_input_is_400_and_changes_nothing(catalogue, user, alice_api, body, message):
    svc.add_copies(user, 1, "gold", 1)
    for url in ("/api/collection/", "/api/collection/add/", "/api/collection/remove/"):
        r = alice_api.post(url, body, format="json")
        assert r.status_code == 400, (url, r.content)
        assert message in r.json()["detail"], (url, r.json())
    assert owned(user) == {(1, "gold"): (1, 0)}


def test_remove_more_than_owned_and_bad_trade_quantity(catalogue, user, alice_api):
    svc.add_copies(user, 4, "silver", 2)
    r = alice_api.post("/api/collection/remove/", {"number": 4, "finish": "silver", "count": 5},
                       format="json")
    assert r.status_code == 400 and "you own 2 of #4" in r.json()["detail"]
    assert r.json()["code"] == "bad_input"
    r = alice_api.post("/api/collection/trade-quantity/",
                       {"number": 4, "finish": "silver", "trade_quantity": 3}, format="json")
    assert r.status_code == 400 and "more than the 2" in r.json()["detail"]
    r = alice_api.post("/api/collection/trade-quantity/", {"number": 4}, format="json")
    assert r.status_code == 400
    assert alice_api.post("/api/collection/remove/", "garbage", content_type="application/json"
                          ).status_code == 400
    assert owned(user) == {(4, "silver"): (2, 0)}


def test_completion_and_missing(catalogue, user, alice_api):
    svc.add_copies(user, 1, "gold")
    svc.add_copies(user, 1, "silver")
    data = alice_api.get("/api/collection/completion/").json()
    assert data["cards"] == {"owned": 1, "total": 300, "percent": 0.3}
    assert data["printings"]["owned"] == 2 and data["printings"]["total"] == 900
    assert set(data["by_army"]) == {"french", "british", "prussian"}
    assert set(data["by_finish"]) == {"gold", "silver", "bronze"}
    missing = alice_api.get("/api/collection/missing/").json()
    assert missing["count"] == 299 and len(missing["results"]) == 50
    assert missing["results"][0]["number"] == 2
    army = Card.objects.get(number=1).army
    r = alice_api.get(f"/api/collection/missing/?army={army}")
    assert r.json()["count"] == Card.objects.filter(army=army).count() - 1
    assert alice_api.get("/api/collection/missing/?army=austrian").status_code == 400


def test_import_export_api(catalogue, user, alice_api):
    text = f"Count,Trade Count,Number,Name,Printing\n2,1,1,{Card.objects.get(number=1).name},Gold\n"
    r = alice_api.post("/api/collection/import/?mode=add", text.encode(),
                       content_type="text/csv")
    assert r.status_code == 200, r.content
    assert r.json()["rows"] == 1 and owned(user) == {(1, "gold"): (2, 1)}
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("c.csv", text.encode(), content_type="text/csv")
    r = alice_api.post("/api/collection/import/", {"file": upload, "mode": "add"},
                       format="multipart")
    assert r.status_code == 200 and owned(user) == {(1, "gold"): (4, 2)}
    r = alice_api.post("/api/collection/import/", {"csv": text, "mode": "replace"},
                       format="json")
    assert r.status_code == 200 and owned(user) == {(1, "gold"): (2, 1)}
    r = alice_api.get("/api/collection/export/")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    assert "attachment" in r["Content-Disposition"]
    exported = r.content
    assert alice_api.post("/api/collection/import/?mode=replace", exported,
                          content_type="text/csv").status_code == 200
    assert owned(user) == {(1, "gold"): (2, 1)}
    bad = b"Count,Trade Count,Number,Name,Printing\n1,0,1,,Platinum\n1,0,999,,Gold\n"
    r = alice_api.post("/api/collection/import/?mode=replace", bad, content_type="text/csv")
    assert r.status_code == 400
    assert r.json()["errors"] == ["row 2: unknown printing 'Platinum' (use Gold, Silver or"
                                  " Bronze)", "row 3: card #999 does not exist"]
    assert "row 2" in r.json()["detail"] and "row 3" in r.json()["detail"]
    r = alice_api.post("/api/collection/import/?mode=merge", text.encode(),
                       content_type="text/csv")
    assert r.status_code == 400 and "mode" in r.json()["detail"]
    r = alice_api.post("/api/collection/import/", {"mode": "add"}, format="json")
    assert r.status_code == 400 and "file" in r.json()["detail"]
    r = alice_api.post("/api/collection/import/", b"\xff\xfe\x00", content_type="text/csv")
    assert r.status_code == 400 and "UTF-8" in r.json()["detail"]
    big = b"Count,Trade Count,Number,Name,Printing\n" + b"1,0,1,,Gold\n" * 100_000
    r = alice_api.post("/api/collection/import/", {"file": SimpleUploadedFile("big.csv", big)},
                       format="multipart")
    assert r.status_code == 400 and "1 MB" in r.json()["detail"]
    assert owned(user) == {(1, "gold"): (2, 1)}


def test_wants_api(catalogue, user, other_user, alice_api):
    r = alice_api.post("/api/wants/", {"number": 5, "quantity": 2}, format="json")
    assert r.status_code == 201 and r.json()["missing"] == 2 and r.json()["finish"] == ""
    want_id = r.json()["id"]
    svc.add_copies(user, 5, "bronze")
    assert alice_api.get(f"/api/wants/{want_id}/").json()["missing"] == 1
    r = alice_api.patch(f"/api/wants/{want_id}/", {"quantity": 4}, format="json")
    assert r.status_code == 200 and r.json()["missing"] == 3
    assert alice_api.patch(f"/api/wants/{want_id}/", {"quantity": 0},
                           format="json").status_code == 400
    assert alice_api.get("/api/wants/").json()["count"] == 1
    for body, message in [({"number": 5, "finish": "tin"}, "unknown printing"),
                          ({"number": 999}, "card #999"),
                          ({"number": 5, "quantity": -3}, "quantity must be")]:
        r = alice_api.post("/api/wants/", body, format="json")
        assert r.status_code == 400 and message in r.json()["detail"]
    bob = APIClient()
    bob.force_authenticate(other_user)
    assert bob.get(f"/api/wants/{want_id}/").status_code == 404
    assert bob.delete(f"/api/wants/{want_id}/").status_code == 404
    assert alice_api.post("/api/wants/", {"number": 5, "quantity": 0},
                          format="json").status_code == 204
    assert not WantEntry.objects.exists()


def test_starter_decks_api(catalogue, user, alice_api):
    r = alice_api.post("/api/starter-decks/")
    assert r.status_code == 201
    deck = r.json()
    assert len(deck["printings"]) == 60 and sum(deck["summary"]["by_finish"].values()) == 60
    assert svc.deal_starter(deck["seed"], list(range(1, 301))) == [
        tuple(x) for x in deck["printings"]]
    assert sum(q for q, _ in owned(user).values()) == 60
    assert alice_api.get("/api/starter-decks/").json()["count"] == 1
    assert alice_api.get(f"/api/starter-decks/{deck['id']}/").status_code == 200
    assert alice_api.get("/api/starter-decks/99999/").status_code == 404


def test_schema_still_builds(client):
    assert client.get("/api/schema/").status_code == 200
