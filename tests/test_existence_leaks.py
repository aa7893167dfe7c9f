"""Issue 11: an error never tells whether another user's private object exists.

For each lookup of a private object by id (a deck version in a tournament registration or a
new battle, a deck and its versions, a trade, a want), someone else's id and an id that names
nothing get the same answer, compared byte for byte: status, code and text, with the id itself
echoed back (the caller sent it, so that tells nothing) and the page's per-request CSRF
token blanked.
"""

from __future__ import annotations

import difflib
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.models import Battle
from cards.models import CollectionEntry, WantEntry
from decks import services as deck_services
from tournaments.models import Entry

from .tournament_helpers import organiser, player, tournament

pytestmark = pytest.mark.django_db

MISSING = 987654  # an id no row has


def api_for(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def page_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def same_answer(get, theirs: int) -> tuple[int, bytes]:
    """``get(id)`` for someone else's id and for a missing id: one answer, byte for byte
    (the missing id, 987654, is written where the answer echoes it: nowhere else has it)."""
    assert theirs != MISSING
    a = get(theirs)
    b = get(MISSING)
    a_body = re.sub(rb"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])", b"CSRF", a.content)
    b_body = re.sub(rb"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])", b"CSRF", b.content)
    b_body = b_body.replace(str(MISSING).encode(), str(theirs).encode())
    assert (a.status_code, a_body) == (b.status_code, b_body), "\n".join(difflib.unified_diff(
        a_body.decode(errors="replace").splitlines(),
        b_body.decode(errors="replace").splitlines(), lineterm="", n=1))
    return a.status_code, a_body.replace(b"%d" % theirs, b"N")


@pytest.fixture
def two(catalogue):
    """Ney (who asks) and Soult (whose private decks Ney must not learn about)."""
    ney, _ = player("ney")
    soult, theirs = player("soult")
    return ney, soult, theirs


def test_tournament_registration_api(two):
    ney, _, theirs = two
    t = tournament(organiser())
    api = api_for(ney)

    def register(version_id):
        return api.post(f"/api/tournaments/{t.pk}/register/",
                        {"french_version": version_id,
                         "british_version": theirs["british"].pk}, format="json")

    status, body = same_answer(register, theirs["french"].pk)
    assert status == 400 and b"french_version: no such deck version N among your decks" in body
    assert theirs["french"].deck.name.encode() not in body
    assert not Entry.objects.exists()


def test_tournament_registration_page(two):
    ney, _, theirs = two
    t = tournament(organiser())
    page = page_for(ney)

    def register(version_id):
        return page.post(f"/tournaments/{t.pk}/register/",
                         {"french_version": str(version_id),
                          "british_version": str(theirs["british"].pk)})

    status, body = same_answer(register, theirs["french"].pk)
    assert status == 400 and b'data-testid="deck-problems"' in body
    assert b"no such deck version N among your decks" in body
    assert theirs["french"].deck.name.encode() not in body
    assert not Entry.objects.exists()


def test_new_battle_with_a_deck_version_api_and_page(two, sent):
    ney, _, theirs = two
    api, page = api_for(ney), page_for(ney)

    def create_api(version_id):
        return api.post("/api/battles/", {"battle": "quatre-bras", "side": "allied",
                                          "deck_version": version_id}, format="json")

    def create_page(version_id):
        return page.post("/battles/", {"battle": "quatre-bras", "side": "allied",
                                       "bot": "greedy", "deck_version": str(version_id)})

    status, body = same_answer(create_api, theirs["british"].pk)
    assert status == 404 and b"no such deck version N among your decks" in body
    status, body = same_answer(create_page, theirs["british"].pk)
    assert status == 404 and b"No such deck version N among your decks" in body
    assert not Battle.objects.exists()


@pytest.mark.parametrize("path", ["/api/decks/{}/", "/api/decks/{}/versions/",
                                  "/api/decks/{}/versions/1/", "/api/decks/{}/export/",
                                  "/api/decks/{}/stats/", "/decks/{}/", "/decks/{}/history/",
                                  "/decks/{}/export/"])
def test_deck_lookups(two, path):
    ney, _, theirs = two
    client = api_for(ney) if path.startswith("/api/") else page_for(ney)
    status, body = same_answer(lambda pk: client.get(path.format(pk)), theirs["french"].deck.pk)
    assert status == 404 and theirs["french"].deck.name.encode() not in body


@pytest.mark.parametrize("path", ["/api/decks/{}/share/", "/api/decks/{}/wants/"])
def test_deck_actions(two, path):
    ney, _, theirs = two
    api = api_for(ney)
    deck = theirs["french"].deck
    status, _ = same_answer(lambda pk: api.post(path.format(pk), {}, format="json"), deck.pk)
    assert status == 404
    deck.refresh_from_db()
    assert deck.share_token is None and not WantEntry.objects.filter(user=ney).exists()


def test_a_shared_deck_link_after_unsharing_is_one_no_link_ever_made(two):
    _, _, theirs = two
    deck = theirs["french"].deck
    old = deck_services.share(deck)
    deck_services.unshare(deck)
    never = "x" * len(old)
    for path in ("/api/shared-decks/{}/", "/decks/shared/{}/"):
        a, b = Client().get(path.format(old)), Client().get(path.format(never))
        assert a.status_code == b.status_code == 404
        assert a.content.replace(old.encode(), b"T") == b.content.replace(never.encode(), b"T")


def test_trades_and_wants(two):
    ney, soult, _ = two
    organiser()  # the trade's recipient: not ney, who only asks
    owned = CollectionEntry.objects.filter(user=soult).select_related("printing__card")[0]
    card = {"number": owned.printing.card.number, "finish": owned.printing.finish}
    trade = api_for(soult).post("/api/trades/", {"recipient": "orga", "give": [card]},
                                format="json")
    want = api_for(soult).post("/api/wants/", {"number": 1, "quantity": 1}, format="json")
    assert trade.status_code == 201 and want.status_code == 201, (trade.content, want.content)
    api = api_for(ney)
    for path in ("/api/trades/{}/", "/api/trades/{}/accept/", "/api/trades/{}/cancel/"):
        call = api.get if path.count("/") == 4 else api.post
        status, _ = same_answer(lambda pk, p=path, c=call: c(p.format(pk)), trade.json()["id"])
        assert status == 404
    status, _ = same_answer(lambda pk: api.delete(f"/api/wants/{pk}/"), want.json()["id"])
    assert status == 404 and WantEntry.objects.filter(user=soult).count() == 1


def test_the_comparison_can_fail(two):
    """The helper is not blind: a deck the asker owns answers differently from a missing one."""
    ney, _, _ = two
    mine = deck_services.create_deck(ney, name="Mine", battle="quatre-bras", army="french")
    api = api_for(ney)
    with pytest.raises(AssertionError):
        same_answer(lambda pk: api.get(f"/api/decks/{pk}/"), mine.pk)
