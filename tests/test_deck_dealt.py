"""Dealt decks (2.0) and custom decks (15.0) through the services and the API; import as a
player pastes it; the migration of saved standard decks."""

import importlib

import pytest
from django.apps import apps as django_apps

from cards.collection.services import add_copies
from decks import checks, exchange, inputs, services
from decks.catalogue import cards_by_number
from decks.models import Deck, DeckVersion
from decks.rules import Deck as RulesDeck
from decks.rules import DeckEntry, dealable, encode, format_decklist

pytestmark = pytest.mark.django_db


def qb_french(historical=False):
    cards = cards_by_number()
    return sorted(n for n, c in cards.items() if dealable(c, "quatre-bras", "french", historical))


def dear_qb_french():
    """A hand-picked Quatre Bras French list of 14: the dearest cards, far over BP 130."""
    cards = cards_by_number()
    picked = sorted(qb_french(), key=lambda n: -cards[n]["bp"])
    seen_types: set = set()
    out = []
    for n in picked:  # one General and no Terrain: only BP is wrong
        if cards[n]["type"] == "terrain" or (cards[n]["type"] == "general" and "g" in seen_types):
            continue
        seen_types.add("g" if cards[n]["type"] == "general" else "")
        out.append(n)
    return out[:14]


def qb_export(entries, kind="custom"):
    deck = RulesDeck("quatre-bras", "french", kind, 1, [DeckEntry(n) for n in entries])
    return format_decklist(deck, cards_by_number())


# --- Dealt decks ----------------------------------------------------------------------------

def test_2_0_dealt_deck_from_the_whole_set_is_valid_and_holds_no_cards(catalogue, user):
    deck = services.create_deck(user, name="Dealt", battle="quatre-bras", army="french",
                                kind="dealt", pool="set")
    version = deck.latest
    assert (version.kind, version.pool, version.entries, version.valid) == (
        "dealt", "set", [], True)
    check = checks.check_version(version, user).to_dict()
    assert check["pool_size"] == len(qb_french()) and check["required_size"] == 14
    assert check["muster"] == 10 and check["reinforcement_rate"] == 1


def test_2_0_dealt_deck_from_a_small_collection_is_pool_too_small(catalogue, user):
    for n in qb_french()[:5]:
        add_copies(user, n, "gold", 2)  # copies count once: dealing takes distinct numbers
    deck = services.create_deck(user, name="Mine", battle="quatre-bras", army="french",
                                kind="dealt")
    assert deck.latest.valid is False
    [problem] = deck.latest.problems
    assert problem["code"] == "pool_too_small" and "has 5 distinct" in problem["message"]
    assert "needs 14 (9 more)" in problem["message"]
    for n in qb_french()[5:14]:
        add_copies(user, n, "gold")
    assert checks.check_version(deck.latest, user).valid  # the collection grew


def test_2_0_dealt_deck_refuses_chosen_cards(catalogue, user):
    with pytest.raises(inputs.DeckInputError, match="dealt deck holds no chosen cards"):
        services.create_deck(user, name="x", battle="quatre-bras", army="french",
                             kind="dealt", entries=[(qb_french()[0], 1, None)])
    assert not Deck.objects.exists()


def test_2_0_custom_deck_turned_dealt_keeps_no_cards(catalogue, user):
    deck = services.create_deck(user, name="x", battle="quatre-bras", army="french",
                                kind="custom", entries=[(n, 1, None) for n in qb_french()[:3]])
    version = services.save_version(deck, kind="dealt", pool="set")
    assert version.entries == [] and version.valid and deck.versions.count() == 2


def test_15_0_hand_picked_quatre_bras_french_is_a_custom_deck_over_its_bp(catalogue, user):
    deck = services.create_deck(user, name="Picked", battle="quatre-bras", army="french",
                                entries=[(n, 1, None) for n in dear_qb_french()])
    assert deck.kind == "custom" and deck.latest.valid is False
    assert [p["code"] for p in deck.latest.problems] == ["bp_exceeded"]
    assert deck.latest.bp_total > 130


# --- Validate API ---------------------------------------------------------------------------

def test_2_0_validate_api_checks_a_list_as_a_pool(catalogue, api):
    listed = [[n, 3, None] for n in qb_french()[:14]]
    body = api.post("/api/decks/validate/", {"battle": "quatre-bras", "army": "french",
                                             "pool": listed}, format="json").json()
    assert body["valid"] is True and body["pool_size"] == 14 and body["required_size"] == 14
    same = api.post("/api/decks/validate/", {"battle": "quatre-bras", "army": "french",
                                             "kind": "dealt", "entries": listed[:13]},
                    format="json").json()
    assert same["valid"] is False and [p["code"] for p in same["problems"]] == [
        "pool_too_small"]


def test_2_0_validate_api_dealt_from_the_whole_set(catalogue, api):
    body = api.post("/api/decks/validate/", {"battle": "waterloo", "army": "prussian",
                                             "kind": "dealt", "pool": "set",
                                             "historical": True}, format="json").json()
    assert body["valid"] is True and body["required_size"] == 24 and body["muster"] is None


def test_2_0_validate_api_bad_pool_is_a_400(catalogue, api):
    response = api.post("/api/decks/validate/", {"battle": "waterloo", "army": "french",
                                                 "pool": "friends"}, format="json")
    assert response.status_code == 400 and "pool" in response.content.decode()


def test_15_0_validate_api_custom_by_default_bp_exceeded(catalogue, api):
    body = api.post("/api/decks/validate/", {
        "battle": "quatre-bras", "army": "french",
        "decklist": qb_export(dear_qb_french())}, format="json").json()
    assert body["valid"] is False and "bp_exceeded" in {p["code"] for p in body["problems"]}


def test_unknown_card_is_a_problem_with_its_line(catalogue, api):
    text = f"1 #{qb_french()[0]}\n\n1 #999\n"
    body = api.post("/api/decks/validate/", {"battle": "quatre-bras", "army": "french",
                                             "decklist": text}, format="json").json()
    assert body["valid"] is False and body["parse_errors"] == []
    assert body["problems"][0] == {"code": "unknown_card", "line": 3, "cards": [999],
                                   "severity": "error",
                                   "message": "1.0: line 3: there is no card #999"}


# --- Import as a player pastes it -----------------------------------------------------------

def test_import_takes_battle_army_and_kind_from_the_export_header(catalogue, alice_api):
    text = qb_export(qb_french()[:14])
    assert text.startswith("// Quatre Bras, French, custom deck")
    response = alice_api.post("/api/decks/", {"name": "QB", "decklist": text}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["battle"], body["army"], body["kind"]) == ("quatre-bras", "french", "custom")


def test_import_refuses_a_form_that_disagrees_with_the_header(catalogue, alice_api):
    response = alice_api.post("/api/decks/", {"name": "QB", "battle": "waterloo",
                                              "decklist": qb_export(qb_french()[:14])},
                              format="json")
    assert response.status_code == 400
    message = response.json()["detail"] if "detail" in response.json() else str(response.json())
    assert "says battle Quatre Bras, the form says Waterloo" in message
    assert not Deck.objects.exists()


def test_import_old_standard_header_becomes_custom(catalogue, user):
    text = qb_export(qb_french()[:14]).replace("custom deck", "standard deck")
    deck = exchange.import_pasted(user, text=text, name="Old")
    assert (deck.battle, deck.kind) == ("quatre-bras", "custom")


def test_import_recognises_a_deck_code_pasted_as_a_deck_list(catalogue, alice_api):
    code = encode(RulesDeck("quatre-bras", "french", "custom", "1/2",
                            [DeckEntry(n) for n in qb_french()[:7]]))
    response = alice_api.post("/api/decks/", {"name": "Coded", "decklist": f"  {code}\n"},
                              format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["battle"], response.json()["scale"]) == ("quatre-bras", "1/2")
    clash = alice_api.post("/api/decks/", {"name": "C", "code": code, "army": "british"},
                           format="json")
    assert clash.status_code == 400
    assert "the deck code says army French, the form says British" in str(clash.json())


def test_import_a_dealt_export(catalogue, user):
    deck = services.create_deck(user, name="D", battle="wavre", army="prussian", kind="dealt",
                                pool="set", historical=True)
    again = exchange.import_pasted(user, text=exchange.export_decklist(deck.latest), name="D2")
    assert (again.battle, again.army, again.kind, again.pool, again.historical) == (
        "wavre", "prussian", "dealt", "set", True)


# --- Migration: saved standard decks become custom drafts ------------------------------------

def test_migration_turns_standard_decks_into_custom_drafts(catalogue, user):
    migration = importlib.import_module("decks.migrations.0003_standard_becomes_custom")
    bp = cards_by_number()
    cheap = [(n, 1, None) for n in sorted(qb_french(), key=lambda n: bp[n]["bp"])
             if bp[n]["type"] not in ("general", "terrain")][:14]
    over = [(n, 1, None) for n in dear_qb_french()]
    decks = []
    for name, entries in (("cheap", cheap), ("over", over)):
        deck = services.create_deck(user, name=name, battle="quatre-bras", army="french",
                                    entries=entries)
        services.save_version(deck, note="second")
        decks.append(deck)
    Deck.objects.update(kind="standard")  # as saved before dealt decks
    DeckVersion.objects.update(kind="standard", valid=True, problems=[])
    migration.standard_to_custom(django_apps, None)
    assert set(Deck.objects.values_list("kind", flat=True)) == {"custom"}
    assert DeckVersion.objects.count() == 4  # nothing deleted, history kept
    for deck, valid in zip(decks, (True, False), strict=True):
        for version in deck.versions.all():
            assert version.kind == "custom" and version.valid is valid
            assert [p["code"] for p in version.problems] == ([] if valid else ["bp_exceeded"])
        assert [v.note for v in deck.versions.order_by("number")] == ["", "second"]
    assert decks[1].latest.entries == [list(e) for e in sorted(over)]
    assert sum(bp[n]["bp"] for n, _, _ in cheap) <= 130


def test_import_without_header_or_form_asks_for_the_battle(catalogue, user):
    with pytest.raises(inputs.DeckInputError, match="choose the battle"):
        exchange.import_pasted(user, text=f"1 #{qb_french()[0]}\n", name="x", army="french")
    assert not Deck.objects.exists()


def test_2_0_api_creates_a_dealt_deck_and_the_schema_names_the_kinds(catalogue, alice_api):
    response = alice_api.post("/api/decks/", {"name": "D", "battle": "ligny", "army": "prussian",
                                              "kind": "dealt", "pool": "set"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["kind"], body["pool"], body["latest"]["pool"]) == ("dealt", "set", "set")
    assert body["check"]["pool_size"] >= body["check"]["required_size"] == 40
    refused = alice_api.post("/api/decks/", {"name": "D", "battle": "ligny", "army": "prussian",
                                             "kind": "dealt", "entries": [[1, 1, None]]},
                             format="json")
    assert refused.status_code == 400 and "dealt deck holds no chosen cards" in str(
        refused.json())
    schema = alice_api.get("/api/schema/").content.decode()
    kinds = schema.split("DeckKindEnum:")[1].split("type:")[0]
    assert kinds.split() == ["enum:", "-", "dealt", "-", "custom", "-", "campaign"]
    assert "PoolEnum:" in schema


def test_2_0_sample_muster_of_a_dealt_deck_deals_from_its_pool(catalogue, user):
    deck = services.create_deck(user, name="D", battle="quatre-bras", army="french",
                                kind="dealt", pool="set", historical=True)
    sample = services.sample_muster(deck.latest, seed=1815)
    assert sample == services.sample_muster(deck.latest, seed=1815)
    assert len(sample["muster"]) == 10 and sample["reinforcements_left"] == 4  # D14 M10
    assert set(sample["muster"]) <= set(qb_french(historical=True))
    assert len(set(sample["muster"])) == 10  # distinct cards
    mine = services.create_deck(user, name="M", battle="quatre-bras", army="french",
                                kind="dealt")
    assert services.sample_muster(mine.latest, seed=1)["muster"] == []  # owns nothing
