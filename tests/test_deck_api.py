"""Deck API: owner-only CRUD with versions, export, stats, muster, wants, share, validate."""

import json

import pytest
from rest_framework.test import APIClient

from cards.collection.services import add_copies
from cards.models import WantEntry
from decks.catalogue import cards_by_number
from decks.models import Deck, DeckVersion

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def bob_api(other_user):
    client = APIClient()
    client.force_authenticate(other_user)
    return client


def numbers(army="french", battle="waterloo"):
    """BP 8 or less first: the first D are a custom deck (15.0) within the BP limit."""
    return [n for n, c in sorted(cards_by_number().items(), key=lambda i: (i[1]["bp"] > 8, i[0]))
            if c["army"] == army
            and battle in c["battles"]
            and (c["type"] != "terrain" or c["terrain_battle"] == battle)]


def entries(size=36):
    return [[n, 1, None] for n in numbers()[:size]]


def create(client, **fields):
    body = {"name": "Grande Armée", "battle": "waterloo", "army": "french",
            "entries": entries(), **fields}
    return client.post("/api/decks/", {k: v for k, v in body.items() if v is not None},
                       format="json")


def post_json(client, url, body):
    """Post ``body`` as ASCII JSON (lone surrogates escaped, inf as Infinity) like any client."""
    return client.post(url, json.dumps(body), content_type="application/json")


def nothing_saved():
    return not Deck.objects.exists() and not DeckVersion.objects.exists()


# --- CRUD and versions ----------------------------------------------------------------------

def test_create_list_and_read_a_deck(catalogue, alice_api):
    response = create(alice_api)
    assert response.status_code == 201
    deck = response.json()
    assert deck["latest"]["number"] == 1 and deck["latest"]["valid"] is True
    assert deck["latest"]["entries"][0] == {"number": 1, "count": 1, "printing": None,
                                            "name": "Napoléon"}
    assert deck["check"]["valid"] and deck["check"]["playable_from_collection"] is False
    assert deck["playable_version"] == 1 and deck["code"]
    listing = alice_api.get("/api/decks/").json()
    assert listing["count"] == 1 and listing["next"] is None
    assert listing["results"][0]["latest_size"] == 36
    assert alice_api.get(f"/api/decks/{deck['id']}/").json()["name"] == "Grande Armée"


def test_create_from_decklist_text(catalogue, alice_api):
    text = "// my deck\nGenerals\n1 #1\n1 Soult (gold)\n2x Brigade Charlet\n"
    response = create(alice_api, entries=None, decklist=text, kind="custom")
    assert response.status_code == 201, response.json()
    assert response.json()["latest"]["entries"] == [
        {"number": 1, "count": 1, "printing": None, "name": "Napoléon"},
        {"number": 2, "count": 1, "printing": "gold", "name": "Soult"},
        {"number": 15, "count": 2, "printing": None, "name": "Brigade Charlet"}]


def test_deck_code_round_trips_through_the_api(catalogue, alice_api):
    first = create(alice_api, kind="custom", scale="0.5", historical=True,
                   entries=[[1, 1, "gold"], [15, 3, None], [16, 2, "bronze"]]).json()
    code = alice_api.get(f"/api/decks/{first['id']}/export/?format=code").json()["content"]
    assert code == first["code"]
    second = alice_api.post("/api/decks/", {"name": "Copy", "code": code}, format="json")
    assert second.status_code == 201
    copy = second.json()
    assert (copy["kind"], copy["scale"], copy["historical"]) == ("custom", "1/2", True)
    assert copy["latest"]["entries"] == first["latest"]["entries"]
    assert copy["code"] == code


def test_export_text_imports_back(catalogue, alice_api):
    deck = create(alice_api).json()
    text = alice_api.get(f"/api/decks/{deck['id']}/export/?format=text").json()["content"]
    assert text.startswith("// Waterloo, French")
    again = create(alice_api, entries=None, decklist=text).json()
    assert again["latest"]["entries"] == deck["latest"]["entries"]
    assert alice_api.get(f"/api/decks/{deck['id']}/export/?format=pdf").status_code == 400
    assert alice_api.get(f"/api/decks/{deck['id']}/export/").json()["format"] == "text"


def test_patch_and_put_save_new_versions_with_diffs(catalogue, alice_api):
    deck = create(alice_api).json()
    url = f"/api/decks/{deck['id']}/"
    response = alice_api.patch(url, {"entries": entries(37)[1:], "note": "swap"}, format="json")
    assert response.status_code == 200 and response.json()["latest"]["number"] == 2
    response = alice_api.patch(url, {"name": "Renamed"}, format="json")
    assert response.json()["latest"]["number"] == 3 and response.json()["name"] == "Renamed"
    assert response.json()["latest"]["entries"] == alice_api.get(
        f"{url}versions/2/").json()["entries"]
    assert alice_api.put(url, {"name": "Only a name"}, format="json").status_code == 400
    response = alice_api.put(url, {"name": "Full", "battle": "waterloo", "army": "french",
                                   "entries": [[1, 2, None]]}, format="json")
    assert response.status_code == 200 and response.json()["latest"]["valid"] is False
    history = alice_api.get(f"{url}versions/").json()
    assert [v["number"] for v in history["results"]] == [4, 3, 2, 1]
    assert history["results"][2]["note"] == "swap"
    two = alice_api.get(f"{url}versions/2/").json()
    first, last = numbers()[0], numbers()[36]
    assert two["diff"]["added"] == [{"number": last, "count": 1,
                                     "name": cards_by_number()[last]["name"]}]
    assert [r["number"] for r in two["diff"]["removed"]] == [first]
    assert two["previous"] == 1
    assert alice_api.get(f"/api/decks/{deck['id']}/").json()["playable_version"] == 3
    missing = alice_api.get(f"{url}versions/9/")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "No such version.", "code": "not_found"}


def test_the_api_gives_each_versions_id_which_a_new_battle_takes(catalogue, alice_api,
                                                                   monkeypatch):
    """Issue 30: new battles, tournaments and matchups ask for a deck version's id; the deck
    API gives it (the deck's latest, every version in the history, one version)."""
    monkeypatch.setattr("play.enqueue.send_bot_move", lambda *args: None)
    deck = create(alice_api).json()
    url = f"/api/decks/{deck['id']}/"
    second = alice_api.patch(url, {"note": "again"}, format="json").json()["latest"]
    ids = {v.number: v.pk for v in DeckVersion.objects.filter(deck_id=deck["id"])}
    assert deck["latest"]["id"] == ids[1] and second["id"] == ids[2]
    history = alice_api.get(f"{url}versions/").json()["results"]
    assert [(v["number"], v["id"]) for v in history] == [(2, ids[2]), (1, ids[1])]
    assert alice_api.get(f"{url}versions/1/").json()["id"] == ids[1]
    r = alice_api.post("/api/battles/", {"battle": "waterloo", "side": "french",
                                         "deck_version": second["id"]}, format="json")
    assert r.status_code == 201, r.json()


def test_delete_a_deck(catalogue, alice_api):
    deck = create(alice_api).json()
    assert alice_api.delete(f"/api/decks/{deck['id']}/").status_code == 204
    assert nothing_saved()


def test_another_users_deck_is_not_found(catalogue, alice_api, bob_api):
    deck = create(alice_api).json()
    base = f"/api/decks/{deck['id']}/"
    for method, path in [("get", ""), ("patch", ""), ("put", ""), ("delete", ""),
                         ("get", "versions/"), ("get", "versions/1/"), ("get", "export/"),
                         ("get", "stats/"), ("post", "sample-muster/"), ("post", "wants/"),
                         ("post", "share/"), ("delete", "share/")]:
        response = getattr(bob_api, method)(base + path, {"name": "Mine now"}, format="json")
        assert response.status_code == 404, (method, path)
        assert response.json() == {"detail": "No such deck.", "code": "not_found"}
    assert bob_api.get("/api/decks/").json()["count"] == 0
    assert Deck.objects.get().name == "Grande Armée" and DeckVersion.objects.count() == 1
    assert not WantEntry.objects.exists()


def test_anonymous_users_cannot_use_decks(catalogue, api, alice_api):
    deck = create(alice_api).json()
    assert api.get("/api/decks/").status_code in (401, 403)
    assert api.get(f"/api/decks/{deck['id']}/").status_code in (401, 403)
    assert create(api).status_code in (401, 403)
    assert Deck.objects.count() == 1


# --- Bad input: a clear 4xx, nothing saved --------------------------------------------------

BAD_BODIES = [
    {"entries": [[9999, 1, None]]},
    {"entries": [[1, -1, None]]},
    {"entries": [[1, 10**30, None]]},
    {"entries": [[10**30, 1, None]]},
    {"entries": [[1, 1, "platinum"]]},
    {"entries": [["#1", 1, None]]},
    {"entries": [{"count": 1}]},
    {"entries": [[1, 1, None]] * 2000},
    {"entries": "1 #1"},
    {"entries": None, "decklist": "\n".join(["1 #1"] * 10_000)},
    {"entries": None, "decklist": "1 #1\n1 Napoleom\n"},
    {"entries": None, "decklist": "\x00\x01garbage"},
    {"entries": None, "decklist": "\ud800\udfff\x80 \u202e"},
    {"entries": None, "code": "not-a-code"},
    {"entries": None, "code": "A" * 5000},
    {"battle": "austerlitz"},
    {"army": 7},
    {"scale": "banana"},
    {"scale": 1e400},
    {"historical": "maybe"},
    {"name": ""},
    {"name": "x" * 500},
    {"name": "\ud800"},
    {"decklist": "1 #1"},  # entries and decklist together
]


@pytest.mark.parametrize("body", BAD_BODIES, ids=range(len(BAD_BODIES)))
def test_bad_create_input_is_a_clear_400_and_saves_nothing(catalogue, alice_api, body):
    payload = {"name": "Grande Armée", "battle": "waterloo", "army": "french",
               "entries": entries(), **body}
    payload = {k: v for k, v in payload.items() if v is not None}
    response = post_json(alice_api, "/api/decks/", payload)
    assert response.status_code == 400, response.content
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]
    assert nothing_saved()


def test_parse_errors_carry_line_numbers(catalogue, alice_api):
    response = create(alice_api, entries=None, decklist="1 #1\n\n1 Napoleom\n1 #9999")
    assert response.status_code == 400
    assert [p["line"] for p in response.json()["problems"]] == [3, 4]
    assert nothing_saved()


@pytest.mark.parametrize("raw", [b"\xff\xfe\x00\x80garbage", b"{not json", b"[1, 2",
                                 b'{"name": "x", "battle": "waterloo", "army": "french", '
                                 b'"entries": [[1, 1' + b"0" * 5000 + b']]}'])
def test_non_json_bodies_are_400(catalogue, alice_api, raw):
    response = alice_api.post("/api/decks/", raw, content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()
    assert nothing_saved()


def test_bad_update_saves_no_version(catalogue, alice_api):
    deck = create(alice_api).json()
    url = f"/api/decks/{deck['id']}/"
    for body in ({"entries": [[1, -2, None]]}, {"battle": "jena"}, {"scale": "x"},
                 {"decklist": "1 #1\n1 nobody"}, {"name": ""}):
        assert alice_api.patch(url, body, format="json").status_code == 400
    assert alice_api.patch(url, b"\xff garbage", content_type="application/json"
                           ).status_code == 400
    assert DeckVersion.objects.count() == 1


# --- Stats, muster, wants, usage, share -----------------------------------------------------

def test_stats(catalogue, alice_api):
    deck = create(alice_api).json()
    stats = alice_api.get(f"/api/decks/{deck['id']}/stats/").json()
    assert stats["cards"] == 36 and stats["version"] == 1
    assert set(stats) >= {"by_type", "by_morale", "by_corps", "cv_total", "bp_total",
                          "coverage", "battles"}
    assert alice_api.get(f"/api/decks/{deck['id']}/stats/?version=x").status_code == 400
    assert alice_api.get(f"/api/decks/{deck['id']}/stats/?version=5").status_code == 404


def test_sample_muster_by_seed(catalogue, alice_api):
    deck = create(alice_api).json()
    url = f"/api/decks/{deck['id']}/sample-muster/"
    first = alice_api.post(url, {"seed": 42}, format="json").json()
    assert first == alice_api.post(url, {"seed": 42}, format="json").json()
    assert len(first["muster"]) == 18 and first["reinforcements_left"] == 18
    assert first["cards"][0]["name"]
    assert isinstance(alice_api.post(url, {}, format="json").json()["seed"], int)
    assert alice_api.post(url, {"seed": -1}, format="json").status_code == 400
    assert alice_api.post(url, {"seed": 2**70}, format="json").status_code == 400


def test_missing_cards_to_want_list(catalogue, user, alice_api):
    deck = create(alice_api, kind="custom", entries=[[1, 1, None], [15, 3, None]]).json()
    add_copies(user, 15, "gold", 1)
    response = alice_api.post(f"/api/decks/{deck['id']}/wants/")
    assert response.json() == {"added": [{"number": 1, "count": 1}, {"number": 15, "count": 2}]}
    assert alice_api.post(f"/api/decks/{deck['id']}/wants/").json() == {"added": []}
    assert WantEntry.objects.filter(user=user).count() == 2


def test_usage_shows_which_decks_use_each_card(catalogue, alice_api, bob_api):
    a = create(alice_api, name="A", entries=[[1, 1, None], [15, 1, None]]).json()
    b = create(alice_api, name="B", entries=[[1, 1, "gold"]]).json()
    create(bob_api, name="Bob's", entries=[[16, 1, None]])
    usage = alice_api.get("/api/decks/usage/").json()["cards"]
    assert usage == [
        {"number": 1, "decks": [{"id": a["id"], "name": "A"}, {"id": b["id"], "name": "B"}]},
        {"number": 15, "decks": [{"id": a["id"], "name": "A"}]}]


def test_share_link_is_public_and_read_only_until_unshared(catalogue, alice_api, api):
    deck = create(alice_api).json()
    shared = alice_api.post(f"/api/decks/{deck['id']}/share/").json()
    url = f"/api/shared-decks/{shared['token']}/"
    assert shared["url"].endswith(url)
    public = api.get(url)
    assert public.status_code == 200
    body = public.json()
    assert body["name"] == "Grande Armée" and body["owner"] == "alice"
    assert len(body["entries"]) == 36 and body["check"]["valid"] and body["code"]
    for method in ("post", "put", "patch", "delete"):
        assert getattr(api, method)(url, {}, format="json").status_code in (403, 405)
    assert alice_api.get(f"/api/decks/{deck['id']}/").json()["share_url"].endswith(url)
    assert alice_api.delete(f"/api/decks/{deck['id']}/share/").status_code == 204
    assert api.get(url).status_code == 404
    assert api.get("/api/shared-decks/" + "x" * 300 + "/").status_code == 404


# --- Stateless validate ---------------------------------------------------------------------

def test_validate_checks_without_saving(catalogue, api):
    response = api.post("/api/decks/validate/", {"battle": "waterloo", "army": "french",
                                                 "entries": entries()}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is True and body["size"] == 36 and body["bp_limit"] == 380
    assert body["muster"] == 18 and body["reinforcement_rate"] == 2
    assert body["parse_errors"] == [] and body["code"]
    assert body["playable_from_collection"] is None
    assert nothing_saved()


def test_validate_reports_every_problem(catalogue, api):
    british = next(n for n, c in cards_by_number().items() if c["army"] == "british")
    body = api.post("/api/decks/validate/", {
        "battle": "waterloo", "army": "french",
        "entries": [*entries(34), [1, 1, "gold"], [1, 1, None], [british, 1, None]]},
        format="json").json()
    assert body["valid"] is False  # custom by default (15.0): a General never twice
    assert {p["code"] for p in body["problems"]} == {"duplicate_general", "wrong_army"}


def test_validate_a_decklist_and_a_code(catalogue, alice_api):
    text = "1 #1\n1 Napoleom\n1 #15\n"
    body = alice_api.post("/api/decks/validate/", {"battle": "waterloo", "army": "french",
                                                   "decklist": text}, format="json").json()
    assert body["valid"] is False and body["size"] == 2
    unknown = body["problems"][0]  # a line naming no card is an unknown_card problem
    assert unknown["code"] == "unknown_card" and unknown["line"] == 2
    assert "Napoléon" in unknown["message"] and body["parse_errors"] == []
    assert body["playable_from_collection"] is False  # logged in: checked against collection
    code = alice_api.post("/api/decks/validate/", {"battle": "waterloo", "army": "french",
                                                   "entries": entries()},
                          format="json").json()["code"]
    body = alice_api.post("/api/decks/validate/", {"code": code}, format="json").json()
    assert body["valid"] is True and body["size"] == 36
    assert nothing_saved()


VALIDATE_BAD = [
    {"battle": "waterloo", "army": "french", "entries": [[1, -1, None]]},
    {"battle": "waterloo", "army": "french", "entries": [[123456789012345678901234567890, 1]]},
    {"battle": "waterloo", "army": "french", "decklist": "\n".join(["1 #1"] * 10_000)},
    {"battle": "waterloo", "army": "french", "decklist": "\x80\x81 garbage \ufffd\n#$%"},
    {"battle": "waterloo", "army": "french", "entries": [[1, 1]], "decklist": "1 #1"},
    {"battle": "waterloo", "entries": [[1, 1]]},
    {"battle": "waterloo", "army": "french", "scale": "one"},
    {"battle": "waterloo", "army": "french", "decklist": "1 \ud800 lone surrogate"},
    {"code": "%%%"},
    {"code": ""},
    [1, 2, 3],
    "just a string",
]


@pytest.mark.parametrize("body", VALIDATE_BAD, ids=range(len(VALIDATE_BAD)))
def test_validate_bad_input_is_400(catalogue, api, body):
    response = post_json(api, "/api/decks/validate/", body)
    assert response.status_code == 400, response.content
    assert response.json()["detail"]


def test_validate_garbage_bytes_is_400(catalogue, api):
    response = api.post("/api/decks/validate/", b"\x00\xff\xfe garbage",
                        content_type="application/json")
    assert response.status_code == 400


def test_schema_renders_the_deck_api(catalogue, api):
    response = api.get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    for path in ("/api/decks/validate/", "/api/decks/{id}/versions/{number}/",
                 "/api/shared-decks/{token}/", "/api/decks/usage/"):
        assert path in text
