"""Deck pages (Django test client): list, builder, history, import, export, share."""

import re

import pytest

from cards.collection import services as collection
from cards.models import Card, WantEntry
from decks import exchange, services
from decks.models import Deck, DeckVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client(client, user):
    client.force_login(user)
    return client


def french_cards(n=18) -> list[int]:
    """n French cards that may all go in one Waterloo deck (no Terrain of another battle),
    cheapest first (a custom deck within its BP limit, 15.0)."""
    return list(Card.objects.filter(army="french").exclude(type="terrain")
                .order_by("bp", "number").values_list("number", flat=True)[:n])


@pytest.fixture
def deck(catalogue, user) -> Deck:
    return services.create_deck(user, name="Grande Armée", battle="waterloo", army="french",
                                scale="1/2", entries=[(n, 1, None) for n in french_cards()])


def builder_post(client, deck, rows, op="", **extra):
    """The builder form as the browser posts it: rows of (number, count, printing)."""
    data = {"settings": "1", "name": deck.name, "battle": deck.battle, "army": deck.army,
            "kind": deck.kind, "scale": deck.scale, "n": [r[0] for r in rows],
            "c": [r[1] for r in rows], "p": [r[2] or "" for r in rows], "op": op, **extra}
    if deck.historical:
        data["historical"] = "1"
    return client.post(f"/decks/{deck.pk}/", data, **({"HTTP_HX_REQUEST": "true"}
                                                       if extra.pop("htmx", True) else {}))


def test_pages_need_login(catalogue, client, deck):
    for url in ["/decks/", "/decks/import/", f"/decks/{deck.pk}/", f"/decks/{deck.pk}/history/",
                f"/decks/{deck.pk}/export/", f"/decks/{deck.pk}/cards/",
                f"/decks/{deck.pk}/muster/"]:
        r = client.get(url)
        assert r.status_code == 302 and "/accounts/login/" in r["Location"], url
    assert client.post("/decks/", {"new-name": "x"}).status_code == 302
    assert Deck.objects.count() == 1


def test_deck_list_shows_decks_with_badges(alice_client, deck):
    page = alice_client.get("/decks/").content.decode()
    assert "Grande Armée" in page and "Waterloo" in page and "v1 · 18 cards" in page
    assert "badge-valid" in page and "not in collection" in page  # alice owns nothing
    assert 'href="/decks/"' in page  # the nav item


def test_deck_list_backed_by_collection_badge(alice_client, user, deck):
    for n in french_cards():
        collection.add_copies(user, n, "bronze", 1)
    assert "backed by collection" in alice_client.get("/decks/").content.decode()


def test_new_deck_form_creates_and_redirects(alice_client, catalogue, user):
    r = alice_client.post("/decks/", {"new-name": "Ligny push", "new-battle": "ligny",
                                      "new-army": "prussian", "new-kind": "custom",
                                      "new-scale": "1"})
    deck = Deck.objects.get(owner=user)
    assert r.status_code == 302 and r["Location"] == f"/decks/{deck.pk}/"
    assert (deck.battle, deck.army, deck.kind, deck.versions.count()) == (
        "ligny", "prussian", "custom", 1)


def test_new_deck_bad_input_shows_errors_and_saves_nothing(alice_client, catalogue):
    r = alice_client.post("/decks/", {"new-name": "", "new-battle": "austerlitz",
                                      "new-army": "french", "new-kind": "standard",
                                      "new-scale": "1"})  # "standard" is no kind any more
    assert r.status_code == 400 and "errorlist" in r.content.decode()
    r = alice_client.post("/decks/", {"new-name": "X", "new-battle": "waterloo",
                                      "new-army": "french", "new-kind": "custom",
                                      "new-scale": "lots"})
    assert r.status_code == 400 and "is not a number" in r.content.decode()
    assert not Deck.objects.exists()


def test_builder_renders_catalogue_deck_figures_and_chart(alice_client, deck):
    page = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-state="valid"' in page
    assert 'data-testid="fig-size">18<' in page
    assert f'data-testid="fig-bp">{deck.latest.bp_total} / 190<' in page  # 15.0: 380 x 1/2
    assert "BP used / BP limit" in page
    assert 'data-testid="fig-muster">9<' in page  # 15.0: half the deck
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="deck-chart"' in page
    french = Card.objects.filter(army="french").count()
    assert f"{french} French cards" in page
    assert 'data-testid="add-1"' in page
    british = Card.objects.filter(army="british").first()
    assert f'data-testid="add-{british.number}"' not in page


def test_builder_edit_is_stateless_and_shows_duplicate(alice_client, deck):
    general = Card.objects.filter(army="french", type="general").order_by("bp").first()
    rows = [(general.number, 1, None), *((n, 1, None) for n in french_cards())]
    r = builder_post(alice_client, deck, rows, op=f"add:{general.number}")
    body = r.content.decode()
    assert r.status_code == 200 and "<html" not in body  # just the panel
    assert 'data-code="duplicate_general"' in body  # 15.0: a General never twice
    assert 'data-testid="unsaved"' in body
    assert deck.versions.count() == 1  # nothing saved by an edit
    # remove row 0 (the doubled General): 18 cards, no problem left
    r = builder_post(alice_client, deck, [(general.number, 2, None), *rows[1:]], op="del:0")
    body = r.content.decode()
    assert 'data-code="duplicate_general"' not in body and 'data-state="valid"' in body
    assert 'data-testid="fig-size">18<' in body


def test_builder_catalogue_search_and_only_owned(alice_client, user, deck):
    r = alice_client.get(f"/decks/{deck.pk}/cards/", {"q": "type:cavalry"})
    cavalry = Card.objects.filter(army="french", type="cavalry").count()
    assert f"{cavalry} French cards" in r.content.decode()
    collection.add_copies(user, 1, "gold", 2)
    body = alice_client.get(f"/decks/{deck.pk}/cards/", {"owned": "1"}).content.decode()
    assert "1 French card that you own" in body and "own 2" in body
    body = alice_client.get(f"/decks/{deck.pk}/cards/", {"q": "bp>=x"}).content.decode()
    assert 'data-testid="query-error"' in body


def test_builder_save_keeps_one_version_with_note(alice_client, deck):
    rows = [(n, 1, None) for n in french_cards(17)]
    r = builder_post(alice_client, deck, rows, op="save", note="trimmed", htmx=False)
    assert r.status_code == 302
    latest = deck.latest
    assert (latest.number, latest.note, latest.valid, latest.size) == (2, "trimmed", True, 17)


def test_builder_save_bad_scale_shows_error_without_saving(alice_client, deck):
    rows = [(n, 1, None) for n in french_cards()]
    r = builder_post(alice_client, deck, rows, op="save", htmx=False, scale="much")
    assert r.status_code == 400 and "is not a number" in r.content.decode()
    assert deck.versions.count() == 1


def test_builder_ignores_forged_rows(alice_client, deck):
    r = builder_post(alice_client, deck, [(9999, 1, None), ("x", 1, None), (1, -3, "tin")],
                     op="check")
    assert r.status_code == 200 and 'data-code="deck_size"' in r.content.decode()


def test_builder_without_javascript_returns_the_whole_page(alice_client, deck):
    rows = [(n, 1, None) for n in french_cards(17)]
    r = builder_post(alice_client, deck, rows, op=f"add:{french_cards(18)[-1]}", htmx=False)
    body = r.content.decode()
    assert "<html" in body and 'data-state="valid"' in body


def test_history_shows_added_and_removed(alice_client, deck):
    cards = french_cards(19)
    services.save_version(deck, entries=[(n, 1, None) for n in cards[1:]], note="swap")
    body = alice_client.get(f"/decks/{deck.pk}/history/").content.decode()
    first, last = Card.objects.get(number=cards[0]), Card.objects.get(number=cards[-1])
    assert "Version 2" in body and "Version 1" in body and "“swap”" in body
    assert re.search(rf"\+1 {re.escape(last.name)}", body)
    assert re.search(rf"−1 {re.escape(first.name)}", body)


def test_export_page_and_download(alice_client, deck):
    body = alice_client.get(f"/decks/{deck.pk}/export/").content.decode()
    first = Card.objects.get(number=deck.latest.entries[0][0]).name
    assert exchange.deck_code(deck.latest) in body and first.split()[0] in body
    r = alice_client.get(f"/decks/{deck.pk}/export/?download=1")
    assert r["Content-Type"].startswith("text/plain")
    assert r["Content-Disposition"] == 'attachment; filename="grande-armee-v1.txt"'
    assert r.content.decode() == exchange.export_decklist(deck.latest)


def test_import_text_round_trip(alice_client, deck, user):
    text = exchange.export_decklist(deck.latest)
    r = alice_client.post("/decks/import/", {"source": "text", "text": text, "name": "Copy",
                                             "battle": "waterloo", "army": "french",
                                             "kind": "custom", "scale": "1/2"})
    copy = Deck.objects.get(owner=user, name="Copy")
    assert r.status_code == 302 and r["Location"] == f"/decks/{copy.pk}/"
    assert copy.latest.entries == deck.latest.entries and copy.latest.valid


def test_import_deck_code(alice_client, deck, user):
    code = exchange.deck_code(deck.latest)
    r = alice_client.post("/decks/import/", {"source": "code", "text": code, "name": "Coded"})
    copy = Deck.objects.get(owner=user, name="Coded")
    assert r.status_code == 302
    assert (copy.scale, copy.latest.entries) == ("1/2", deck.latest.entries)


def test_import_errors_show_line_numbers_and_save_nothing(alice_client, catalogue):
    r = alice_client.post("/decks/import/", {"source": "text", "name": "Bad",
                                             "text": "1 #1\n2 Napoleom\n-3 #4\n\xff\xfe",
                                             "battle": "waterloo", "army": "french",
                                             "kind": "custom", "scale": "1"})
    body = r.content.decode()
    assert r.status_code == 400 and "Nothing was imported" in body
    assert "line 2:" in body and "line 3:" in body
    r = alice_client.post("/decks/import/", {"source": "code", "text": "!!garbage!!",
                                             "name": "Bad"})
    assert r.status_code == 400 and "cannot be read" in r.content.decode()
    r = alice_client.post("/decks/import/", {"source": "text", "text": "1 #1\n" * 10_000,
                                             "name": "Long", "battle": "waterloo",
                                             "army": "french", "kind": "custom",
                                             "scale": "1"})
    assert r.status_code == 400
    assert not Deck.objects.exists()


def test_others_decks_are_404_everywhere(client, other_user, deck):
    client.force_login(other_user)
    for url in ["", "history/", "export/", "export/?download=1", "cards/", "muster/"]:
        assert client.get(f"/decks/{deck.pk}/{url}").status_code == 404, url
    for url in ["", "share/", "wants/", "muster/", "delete/"]:
        assert client.post(f"/decks/{deck.pk}/{url}", {"op": "save", "share": "on",
                                                       "settings": "1"}).status_code == 404, url
    deck.refresh_from_db()
    assert deck.share_token is None and deck.versions.count() == 1
    assert Deck.objects.filter(pk=deck.pk).exists()
    assert "Grande" not in client.get("/decks/").content.decode()


def test_share_and_unshare(alice_client, client, user, deck):
    alice_client.post(f"/decks/{deck.pk}/share/", {"share": "on"})
    deck.refresh_from_db()
    token = deck.share_token
    assert token
    collection.add_copies(user, french_cards()[0], "gold", 3)
    from django.test import Client

    anonymous = Client()
    r = anonymous.get(f"/decks/shared/{token}/")
    body = r.content.decode()
    assert r.status_code == 200 and "Grande Armée" in body and 'data-state="valid"' in body
    assert "own 3" not in body and "collection" not in body.split("<main", 1)[1].split(
        "</main>")[0].replace("not your collection", "")
    assert body.count('class="deck-row"') == 18 and 'data-testid="faces"' in body
    alice_client.post(f"/decks/{deck.pk}/share/", {"share": "off"})
    assert anonymous.get(f"/decks/shared/{token}/").status_code == 404
    assert anonymous.get("/decks/shared/nope/").status_code == 404


def test_add_missing_to_wants(alice_client, user, deck):
    cards = french_cards()
    collection.add_copies(user, cards[0], "silver", 1)
    r = alice_client.post(f"/decks/{deck.pk}/wants/", follow=True)
    assert "Added 17 missing cards" in r.content.decode()
    assert WantEntry.objects.filter(user=user).count() == 17


def test_sample_muster_deals_faces(alice_client, deck):
    r = alice_client.post(f"/decks/{deck.pk}/muster/", HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert "9 cards mustered; 9 left in reinforcements" in body
    assert body.count("<img") == 9
    def deal(seed):
        return alice_client.get(f"/decks/{deck.pk}/muster/?seed={seed}",
                                HTTP_HX_REQUEST="true").content.decode().split("<form")[0]

    assert deal(42) == deal(42) and "Seed 42" in deal(42)


def test_delete_deck(alice_client, deck):
    r = alice_client.post(f"/decks/{deck.pk}/delete/")
    assert r.status_code == 302 and not Deck.objects.exists()
    assert not DeckVersion.objects.exists()


def test_builder_setting_change_rechecks_and_refreshes_catalogue(alice_client, deck):
    rows = [(n, 1, None) for n in french_cards()]
    r = alice_client.post(f"/decks/{deck.pk}/", {
        "settings": "1", "name": deck.name, "battle": "waterloo", "army": "french",
        "kind": "custom", "scale": "1", "n": [n for n, _, _ in rows],
        "c": [1] * len(rows), "p": [""] * len(rows)},
        HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="scale")
    body = r.content.decode()
    assert 'data-testid="fig-bp">' in body and ' / 380<' in body  # 15.0: BP 380 x 1
    assert 'hx-swap-oob="true"' in body
    assert "HX-Trigger" not in r.headers
    r = alice_client.post(f"/decks/{deck.pk}/", {"settings": "1", "army": "british",
                                                 "battle": "waterloo"},
                          HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="army")
    assert r.headers["HX-Trigger"] == "deck-settings-changed"
    body = alice_client.get(f"/decks/{deck.pk}/cards/", {"settings": "1", "army": "british",
                                                         "battle": "waterloo"}).content.decode()
    assert "British (Anglo-Allied) card" in body
    deck.refresh_from_db()
    assert (deck.army, deck.scale, deck.versions.count()) == ("french", "1/2", 1)


# --- Name and description in the builder ----------------------------------------------------

XSS = "Line one\r\n<script>alert('x')</script> & \"quotes\""


def test_builder_saves_name_and_description_with_the_next_version(alice_client, client,
                                                                   deck):
    rows = [(n, 1, None) for n in french_cards()]
    r = builder_post(alice_client, deck, rows, op="save", htmx=False, name="  Nord  ",
                     description=f"  {XSS}  ")
    assert r.status_code == 302
    deck.refresh_from_db()
    # Stored as text: CRLF from the form becomes LF, ends trimmed; one version per save.
    assert deck.name == "Nord"
    assert deck.description == "Line one\n<script>alert('x')</script> & \"quotes\""
    assert deck.versions.count() == 2

    page = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert "<script>alert" not in page  # escaped everywhere: heading, textarea, data-saved
    shown = ('<p class="deck-description" data-testid="deck-description">Line one<br>'
             "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;quotes&quot;</p>")
    assert shown in page
    assert ">Line one\n&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page  # textarea
    assert 'data-testid="unsaved"' not in page

    alice_client.post(f"/decks/{deck.pk}/share/", {"share": "on"})
    deck.refresh_from_db()
    shared = client.get(f"/decks/shared/{deck.share_token}/").content.decode()
    assert shown in shared and "<script>alert" not in shared


def test_builder_description_edit_shows_unsaved_until_saved(alice_client, deck):
    services.save_version(deck, description="Old\nguard")
    rows = [(n, 1, None) for n in french_cards()]
    body = builder_post(alice_client, deck, rows, description="Young guard").content.decode()
    assert 'data-testid="unsaved"' in body
    # The form posts CRLF line breaks and may pad the text: still the saved description.
    body = builder_post(alice_client, deck, rows, description="Old\r\nguard \r\n").content.decode()
    assert 'data-testid="unsaved"' not in body
    body = builder_post(alice_client, deck, rows, name="Other name").content.decode()
    assert 'data-testid="unsaved"' in body


def test_builder_save_without_the_field_keeps_description_and_blank_clears_it(alice_client,
                                                                              deck):
    services.save_version(deck, description="Keep me")
    rows = [(n, 1, None) for n in french_cards()]
    assert builder_post(alice_client, deck, rows, op="save", htmx=False).status_code == 302
    deck.refresh_from_db()
    assert deck.description == "Keep me"
    r = builder_post(alice_client, deck, rows, op="save", htmx=False, description="  ")
    assert r.status_code == 302
    deck.refresh_from_db()
    assert deck.description == "" and deck.versions.count() == 4
    assert 'data-testid="deck-description"' not in alice_client.get(
        f"/decks/{deck.pk}/").content.decode()


@pytest.mark.parametrize("field, value, message", [
    ("description", "x" * 2001, "the description is too long (at most 2000 characters)"),
    ("name", "N" * 101, "the name is too long (at most 100 characters)"),
])
def test_builder_over_long_name_or_description_is_refused_and_nothing_changes(
        alice_client, deck, field, value, message):
    services.save_version(deck, description="Before")
    deck.refresh_from_db()
    before = (deck.name, deck.description, deck.updated_at, deck.versions.count())
    rows = [(n, 1, None) for n in french_cards(17)]
    r = builder_post(alice_client, deck, rows, op="save", htmx=False, **{field: value})
    body = r.content.decode()
    assert r.status_code == 400
    assert f"Not saved: {message}." in body
    assert value in body  # the form comes back with the text, for the user to shorten
    assert 'data-testid="unsaved"' in body
    assert 'open data-testid="deck-settings"' in body  # the settings box is open on the error
    deck.refresh_from_db()
    assert (deck.name, deck.description, deck.updated_at, deck.versions.count()) == before
    assert deck.latest.size == 18


def test_builder_description_other_users_cannot_change_it(client, other_user, deck):
    client.force_login(other_user)
    for htmx in (False, True):
        r = builder_post(client, deck, [(1, 1, None)], op="save", htmx=htmx,
                         description="Hijacked", name="Hijacked")
        assert r.status_code == 404
    deck.refresh_from_db()
    assert (deck.name, deck.description, deck.versions.count()) == ("Grande Armée", "", 1)


# --- 2.0 dealt decks and import as a player pastes it ---------------------------------------

def test_2_0_new_dealt_deck_page_shows_its_pool_and_figures_no_card_picking(alice_client,
                                                                             catalogue, user):
    r = alice_client.post("/decks/", {"new-kind": "dealt", "new-pool": "set",
                                      "new-name": "Dealt QB", "new-battle": "quatre-bras",
                                      "new-army": "french", "new-scale": "1"})
    deck = Deck.objects.get(owner=user)
    assert r.status_code == 302 and (deck.kind, deck.pool) == ("dealt", "set")
    page = alice_client.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-testid="dealt-explainer"' in page and 'data-testid="pool-select"' in page
    assert 'data-testid="fig-size">14<' in page and 'data-testid="fig-muster">10<' in page
    assert 'data-testid="fig-rate">1 a turn<' in page and 'data-testid="fig-pool">' in page
    assert 'data-testid="deck-search"' not in page and 'data-testid="deck-rows"' not in page
    assert 'data-state="valid"' in page


def test_2_0_dealt_deck_from_my_empty_collection_shows_pool_too_small(alice_client, deck):
    r = builder_post(alice_client, deck, [], op="check", kind="dealt", pool="collection")
    body = r.content.decode()
    assert 'data-code="pool_too_small"' in body and "has 0 distinct" in body
    assert 'data-testid="fig-pool">0 cards<' in body


def test_2_0_changing_the_kind_redraws_the_whole_builder(alice_client, deck):
    rows = [(n, 1, None) for n in french_cards()]
    r = alice_client.post(f"/decks/{deck.pk}/", {
        "settings": "1", "name": deck.name, "battle": "waterloo", "army": "french",
        "kind": "dealt", "scale": "1/2", "n": [n for n, _, _ in rows],
        "c": [1] * len(rows), "p": [""] * len(rows)},
        HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="kind")
    body = r.content.decode()
    assert 'id="deck-form"' in body and 'data-testid="dealt-explainer"' in body
    assert 'data-testid="deck-row"' not in body
    r = builder_post(alice_client, deck, rows, op="save", htmx=False, kind="dealt", pool="set")
    assert r.status_code == 302
    assert (deck.latest.kind, deck.latest.pool, deck.latest.entries) == ("dealt", "set", [])


def test_import_page_left_at_defaults_takes_the_export_header(alice_client, catalogue, user):
    cards = list(Card.objects.filter(army="french", at_quatre_bras=True).exclude(
        type="terrain").order_by("bp")[:14])
    qb = services.create_deck(user, name="QB", battle="quatre-bras", army="french",
                              entries=[(c.number, 1, None) for c in cards])
    text = exchange.export_decklist(qb.latest)
    assert text.startswith("// Quatre Bras, French, custom deck")
    r = alice_client.post("/decks/import/", {"source": "text", "text": text, "name": "Copy"})
    copy = Deck.objects.get(owner=user, name="Copy")
    assert r.status_code == 302 and (copy.battle, copy.army, copy.kind) == (
        "quatre-bras", "french", "custom")
    assert copy.latest.problems == qb.latest.problems
    r = alice_client.post("/decks/import/", {"source": "text", "text": text, "name": "Clash",
                                             "battle": "waterloo"})
    body = r.content.decode()
    assert r.status_code == 400 and "says battle Quatre Bras, the form says Waterloo" in body
    assert not Deck.objects.filter(name="Clash").exists()


def test_import_page_recognises_a_deck_code_with_text_selected(alice_client, deck, user):
    code = exchange.deck_code(deck.latest)
    r = alice_client.post("/decks/import/", {"source": "text", "text": code, "name": "Coded"})
    copy = Deck.objects.get(owner=user, name="Coded")
    assert r.status_code == 302 and copy.latest.entries == deck.latest.entries
