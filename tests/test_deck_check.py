"""One deck check: the builder, save, the deck list (and the deck API) and tournament
registration answer alike whether the collection backs a deck version, also when a version
of the deck is locked by a tournament ("One game service for every game": one deck check).

The rule (``decks.selectors.free_copies``): the copies committed to a locked version are held
FOR that version - they back it and no other version, not even another version of the same
deck."""

import re

import pytest
from django.test import Client

from cards.models import CollectionEntry
from decks import checks, selectors
from decks import services as deck_services
from decks.models import DeckVersion
from tournaments import services

from .tournament_helpers import organiser, player, register, tournament

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def builder_says_backed(user, deck) -> bool:
    """The builder page (the latest version, unchanged): backed, or a ``not_owned`` warning."""
    page = client_for(user).get(f"/decks/{deck.pk}/").content.decode()
    not_owned = 'data-code="not_owned"' in page
    backed = "badge-backed" in page
    assert backed != not_owned, "the builder says both (or neither)"
    return backed


def list_says_backed(user, deck) -> bool:
    """The deck list's row for ``deck``: "backed by collection" or "not in collection"."""
    page = client_for(user).get("/decks/").content.decode()
    row = re.search(rf'<tr data-testid="deck-{deck.pk}">.*?</tr>', page, re.S)
    assert row, "the deck is not listed"
    backed, unbacked = "backed by collection" in row[0], "not in collection" in row[0]
    assert backed != unbacked, row[0]
    return backed


def api_says_backed(user, deck) -> bool:
    c = client_for(user)
    return c.get(f"/api/decks/{deck.pk}/").json()["check"]["playable_from_collection"]


def registration_says_backed(t, version, user) -> bool:
    """What registration's deck check says about the collection (the other checks pass)."""
    problems = services.deck_problems(t, version, version.army, user)
    assert all("collection" in p for p in problems), problems
    return not problems


@pytest.fixture
def locked(catalogue):
    """Ney (one copy of each card) entered his decks in a tournament that started: their
    version 1 is locked. A second tournament, not started, is open to him."""
    org = organiser()
    a, b = tournament(org, name="Ligny Open"), tournament(org, name="Wavre Cup")
    for t, name in ((a, "soult"), (b, "grouchy")):
        register(t, *player(name))
    user, versions = player("ney")
    register(a, user, versions)
    services.start_tournament(a.pk, org)
    french = versions["french"]
    french.refresh_from_db()
    assert french.locked_at is not None
    return user, french, b


def test_a_locked_version_is_backed_by_the_copies_held_for_it_everywhere(locked):
    user, v1, b = locked
    deck = v1.deck
    assert builder_says_backed(user, deck)  # the builder used to say not_owned
    assert list_says_backed(user, deck)
    assert api_says_backed(user, deck)
    assert registration_says_backed(b, v1, user)
    assert checks.check_version(v1, user).playable_from_collection is True


def test_another_version_of_a_locked_deck_is_not_backed_by_its_copies_anywhere(locked):
    """The tournament holds version 1's cards: a version 2 with the same cards needs copies of
    its own. The builder, the list (and the API) and registration all say so (the list used to
    say "backed": it let every version of the locked deck use version 1's copies)."""
    user, v1, b = locked
    deck = v1.deck
    v2 = deck_services.save_version(deck, note="same cards")
    assert not builder_says_backed(user, deck)
    assert not list_says_backed(user, deck)
    assert not api_says_backed(user, deck)
    assert not registration_says_backed(b, v2, user)
    # a second copy of every card backs it, everywhere
    CollectionEntry.objects.filter(user=user).update(quantity=2)
    v3 = deck_services.save_version(deck, note="second copies")
    assert builder_says_backed(user, deck) and list_says_backed(user, deck)
    assert api_says_backed(user, deck) and registration_says_backed(b, v3, user)


def test_the_builder_checks_an_edited_list_as_the_new_version_save_makes(locked):
    """Unchanged, the builder shows the locked version (backed); edited, the list is the new
    version Save makes, which no tournament holds: the builder warns before the save what
    the list, the builder and registration say after it."""
    user, v1, b = locked
    deck = v1.deck
    rows = [list(e) for e in v1.entries][:-1]  # one card less
    data = {"settings": "1", "name": deck.name, "battle": deck.battle, "army": deck.army,
            "kind": deck.kind, "scale": deck.scale, "n": [r[0] for r in rows],
            "c": [r[1] for r in rows], "p": [r[2] or "" for r in rows], "op": ""}
    unchanged = {**data, "n": [e[0] for e in v1.entries], "c": [e[1] for e in v1.entries],
                 "p": [e[2] or "" for e in v1.entries]}
    panel = client_for(user).post(f"/decks/{deck.pk}/", unchanged, HTTP_HX_REQUEST="true")
    assert 'data-code="not_owned"' not in panel.content.decode()
    panel = client_for(user).post(f"/decks/{deck.pk}/", data, HTTP_HX_REQUEST="true")
    assert 'data-code="not_owned"' in panel.content.decode()
    data["op"] = "save"
    assert client_for(user).post(f"/decks/{deck.pk}/", data).status_code == 302
    v2 = deck.latest
    assert v2.number == 2 and v2.locked_at is None
    assert not builder_says_backed(user, deck) and not list_says_backed(user, deck)
    assert not registration_says_backed(b, v2, user)


def test_free_copies_is_the_one_rule(locked):
    user, v1, _ = locked
    numbers = [n for n, _, _ in v1.entries]
    other = deck_services.save_version(v1.deck)
    held = selectors.free_copies(user, v1)
    assert all(held[n] == 1 for n in numbers)  # its own copies back the locked version
    for version in (other, None):  # ... and no other version, nor an unsaved list
        free = selectors.free_copies(user, version)
        assert all(free[n] == 0 for n in numbers)
    # versions a caller reserves besides the locked ones (registration: the versions entered
    # in the player's other unfinished tournaments), again never against themselves
    british = DeckVersion.objects.get(deck__owner=user, army="british", number=1)
    british_cards = [n for n, _, _ in british.entries]
    CollectionEntry.objects.filter(user=user, printing__card__number__in=british_cards).update(
        quantity=2)
    spare = deck_services.create_deck(user, name="spare", battle=british.battle,
                                      army="british", entries=british.entries).latest
    assert all(selectors.free_copies(user)[n] == 1 for n in british_cards)
    reserved = selectors.free_copies(user, reserved=[spare.pk])
    assert all(reserved[n] == 0 for n in british_cards)
    assert all(selectors.free_copies(user, spare, reserved=[spare.pk])[n] == 1
               for n in british_cards)
