"""Deck services and selectors: versions, ownership, wants, usage, import/export, share, muster."""

import pytest
from django.utils import timezone

from cards.collection.services import add_copies
from cards.models import WantEntry
from decks import checks, exchange, inputs, selectors, services
from decks.catalogue import cards_by_number
from decks.models import Deck, DeckVersion
from decks.rules import decode
from decks.stats import deck_statistics

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """The users of these tests never log in with a password: hash it cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pool(army="french", battle="waterloo"):
    """Card numbers of an army a battle can take (historical terrain), cards of BP 8 or
    less first: the first D of them are a custom deck (15.0) within the BP limit."""
    return [n for n, c in sorted(cards_by_number().items(), key=lambda i: (i[1]["bp"] > 8, i[0]))
            if c["army"] == army
            and battle in c["battles"]
            and (c["type"] != "terrain" or c["terrain_battle"] == battle)]


def waterloo_french(size=36):
    return [(n, 1, None) for n in pool()[:size]]


def make_deck(owner, entries=None, **kwargs):
    fields = {"name": "Grande Armée", "battle": "waterloo", "army": "french", **kwargs}
    return services.create_deck(owner, entries=waterloo_french() if entries is None else entries,
                                **fields)


# --- Versions -------------------------------------------------------------------------------

def test_create_deck_saves_version_one(catalogue, user):
    deck = make_deck(user)
    version = deck.latest
    assert version.number == 1 and version.valid and version.size == 36
    assert version.problems == [] and version.entries[0] == [1, 1, None]


def test_every_save_keeps_a_version_and_fields_left_out_keep_their_value(catalogue, user):
    deck = make_deck(user, description="first")
    entries = waterloo_french()
    v2 = services.save_version(deck, entries=[*entries[:-1], (1, 2, None)], note="drop one")
    v3 = services.save_version(deck, name="Renamed")
    assert [v.number for v in deck.versions.order_by("number")] == [1, 2, 3]
    assert v2.size == 37 and not v2.valid
    assert [p["code"] for p in v2.problems] == ["duplicate_general"]  # 15.0
    assert v3.entries == v2.entries and v3.note == ""
    deck.refresh_from_db()
    assert deck.name == "Renamed" and deck.description == "first"


def test_a_draft_with_problems_is_saved_but_not_playable(catalogue, user):
    deck = make_deck(user)
    assert selectors.playable_version(deck).number == 1
    services.save_version(deck, entries=[(1, 2, None)])
    assert deck.latest.valid is False
    assert selectors.playable_version(deck).number == 1  # the last valid one
    draft = make_deck(user, entries=[(1, 2, None)])
    assert selectors.playable_version(draft) is None
    assert selectors.playable_version(draft) is None


def test_history_shows_added_and_removed_cards(catalogue, user):
    entries = waterloo_french(37)
    deck = make_deck(user, entries=entries[:36])
    services.save_version(deck, entries=[*entries[1:36], entries[36]])
    services.save_version(deck, entries=[(entries[1][0], 2, "gold"), *entries[2:36]])
    rows = selectors.history(deck)
    assert [r["number"] for r in rows] == [3, 2, 1]
    first = entries[0][0]
    assert rows[1]["added"] == [(entries[36][0], 1)] and rows[1]["removed"] == [(first, 1)]
    assert rows[0]["added"] == [(entries[1][0], 1)]
    assert rows[0]["removed"] == [(entries[36][0], 1)]
    assert len(rows[2]["added"]) == 36 and rows[2]["removed"] == []


def test_version_diff_from_nothing(catalogue, user):
    deck = make_deck(user, entries=[(1, 1, None)])
    assert selectors.version_diff(None, deck.latest) == {"added": [(1, 1)], "removed": []}


def test_bad_input_raises_and_saves_nothing(catalogue, user):
    bad = [
        {"entries": [(9999, 1, None)]},
        {"entries": [(1, -1, None)]},
        {"entries": [(1, 0, None)]},
        {"entries": [(1, 1, "platinum")]},
        {"entries": [("one", 1, None)]},
        {"entries": [(10**30, 1, None)]},
        {"entries": "1 #1"},
        {"battle": "austerlitz"},
        {"scale": "banana"},
        {"name": "   "},
        {"name": "x" * 101},
        {"name": "bad \ud800 text"},
    ]
    for fields in bad:
        with pytest.raises(inputs.DeckInputError):
            make_deck(user, **fields)
    assert not Deck.objects.exists() and not DeckVersion.objects.exists()


def test_bad_entries_list_every_problem(catalogue, user):
    with pytest.raises(inputs.DeckInputError) as info:
        make_deck(user, entries=[(1, 1, None), (9999, 1, None), (2, -3, None)])
    assert [p["entry"] for p in info.value.problems] == [2, 3]


def test_save_version_refuses_bad_input_without_a_new_version(catalogue, user):
    deck = make_deck(user)
    with pytest.raises(inputs.DeckInputError):
        services.save_version(deck, entries=[(0, 1, None)])
    with pytest.raises(inputs.DeckInputError):
        services.save_version(deck, army="austrian")
    assert deck.versions.count() == 1


def test_scale_is_stored_in_lowest_terms(catalogue, user):
    deck = make_deck(user, entries=waterloo_french(18), scale="0.5")
    assert deck.scale == "1/2" and deck.latest.valid


# --- Ownership ------------------------------------------------------------------------------

def test_free_copies_count_any_printing_less_locked_versions_but_the_one_checked(catalogue,
                                                                                 user):
    add_copies(user, 1, "gold", 1)
    add_copies(user, 1, "bronze", 2)
    add_copies(user, 15, "silver", 1)
    assert selectors.free_copies(user) == selectors.owned_counts(user) == {1: 3, 15: 1}
    locked = make_deck(user, name="Tournament deck")
    DeckVersion.objects.filter(deck=locked).update(locked_at=timezone.now())
    assert selectors.free_copies(user) == selectors.owned_counts(user) == {1: 2, 15: 0}
    assert selectors.free_copies(user, locked.latest) == {1: 3, 15: 1}
    # another version of the locked deck: the tournament holds version 1's copies
    assert selectors.free_copies(user, services.save_version(locked)) == {1: 2, 15: 0}


def test_check_version_marks_drafts_not_backed_by_the_collection(catalogue, user):
    deck = make_deck(user)
    result = checks.check_version(deck.latest, user)
    assert result.valid and result.playable_from_collection is False
    assert "not_owned" in {p.code for p in result.problems}
    for number, _, _ in waterloo_french():
        add_copies(user, number, "bronze", 1)
    assert checks.check_version(deck.latest, user).playable_from_collection is True
    assert checks.check_version(deck.latest).playable_from_collection is None


def test_locked_copies_are_not_free_for_another_deck(catalogue, user):
    for number, _, _ in waterloo_french():
        add_copies(user, number, "bronze", 1)
    first = make_deck(user, name="Locked")
    DeckVersion.objects.filter(pk=first.latest.pk).update(locked_at=timezone.now())
    second = make_deck(user, name="Second")
    assert checks.check_version(second.latest, user).playable_from_collection is False
    assert checks.check_version(first.latest, user).playable_from_collection is True


def test_stateless_check_with_and_without_user(catalogue, user):
    result = checks.check(battle="waterloo", army="french", entries=waterloo_french())
    assert result.valid and result.playable_from_collection is None
    result = checks.check(battle="waterloo", army="french", entries=waterloo_french(),
                            user=user)
    assert result.playable_from_collection is False


# --- Wants and usage ------------------------------------------------------------------------

def test_missing_cards_go_to_the_want_list_once(catalogue, user):
    entries = waterloo_french()
    deck = make_deck(user, kind="custom", entries=[(entries[0][0], 1, None),
                                                   (entries[20][0], 3, None)])
    troop = entries[20][0]
    add_copies(user, troop, "gold", 1)
    added = services.add_missing_to_wants(user, deck)
    assert added == [(entries[0][0], 1), (troop, 2)]  # max(0, needed - owned)
    assert services.add_missing_to_wants(user, deck) == []  # a second click adds nothing
    wants = dict(WantEntry.objects.filter(user=user).values_list("card__number", "quantity"))
    assert wants == {entries[0][0]: 1, troop: 2}


def test_nothing_wanted_when_everything_is_owned(catalogue, user):
    deck = make_deck(user, entries=[(1, 1, None)])
    add_copies(user, 1, "silver", 2)
    assert services.add_missing_to_wants(user, deck) == []
    assert not WantEntry.objects.exists()


def test_each_card_shows_which_of_my_decks_use_it(catalogue, user, other_user):
    a = make_deck(user, name="A", entries=[(1, 1, None), (15, 1, None)])
    b = make_deck(user, name="B", entries=[(1, 1, None)])
    services.save_version(b, entries=[(16, 1, None)])  # latest versions only
    make_deck(other_user, name="Bob's", entries=[(1, 1, None)])
    using = selectors.decks_using_cards(user)
    assert using == {1: [a], 15: [a], 16: [b]}


def test_decks_of_lists_only_mine_with_latest_version(catalogue, user, other_user):
    make_deck(user, entries=[(1, 2, None)])
    make_deck(other_user)
    [deck] = selectors.decks_of(user)
    assert deck.latest_number == 1 and deck.latest_size == 2 and deck.latest_valid is False
    with pytest.raises(Deck.DoesNotExist):
        selectors.deck_of(other_user, deck.pk)


# --- Import and export ----------------------------------------------------------------------

def test_decklist_export_import_round_trip(catalogue, user):
    entries = [(waterloo_french()[0][0], 1, "gold"), *waterloo_french()[1:]]
    deck = make_deck(user, entries=entries)
    text = exchange.export_decklist(deck.latest)
    again = exchange.import_decklist(user, text=text, name="Again", battle="waterloo",
                                     army="french")
    assert again.latest.entries == deck.latest.entries and again.latest.valid


def test_decklist_import_reports_every_line_error_and_saves_nothing(catalogue, user):
    text = "1 #1\n1 Napoleom\n\n-2 #3\n1 #9999\n"
    with pytest.raises(inputs.DeckInputError) as info:
        exchange.import_decklist(user, text=text, name="X", battle="waterloo", army="french")
    assert [p["line"] for p in info.value.problems] == [2, 4, 5]
    assert "Napoléon" in info.value.problems[0]["message"]
    assert not Deck.objects.exists()


@pytest.mark.parametrize("text", ["\n".join(["1 #1"] * 10_000), b"\xff\xfe\x00garbage\x80",
                                  "", "// only a comment", "1 #1\n" * 100_000])
def test_decklist_import_of_bad_text_is_an_input_error(catalogue, user, text):
    with pytest.raises(inputs.DeckInputError):
        exchange.import_decklist(user, text=text, name="X", battle="waterloo", army="french")
    assert not Deck.objects.exists()


def test_deck_code_round_trip(catalogue, user):
    deck = make_deck(user, entries=[(1, 1, None), (15, 3, "bronze"), (16, 2, "gold")],
                     kind="custom", scale="1/2", historical=True)
    code = exchange.deck_code(deck.latest)
    again = exchange.import_deck_code(user, code=code, name="From code")
    assert (again.battle, again.army, again.kind, again.scale, again.historical) == (
        "waterloo", "french", "custom", "1/2", True)
    assert again.latest.entries == deck.latest.entries
    assert exchange.deck_code(again.latest) == code
    assert decode(code).kind == "custom"


@pytest.mark.parametrize("code", ["", "not a code!", "AAAA", "x" * 5000, 12])
def test_bad_deck_code_is_an_input_error(catalogue, user, code):
    with pytest.raises(inputs.DeckInputError):
        exchange.import_deck_code(user, code=code, name="X")
    assert not Deck.objects.exists()


# --- Delete and share -----------------------------------------------------------------------

def test_share_and_unshare(catalogue, user):
    deck = make_deck(user)
    token = services.share(deck)
    assert token and services.share(deck) == token  # sharing again keeps the link
    assert selectors.shared_deck(token) == deck
    services.unshare(deck)
    with pytest.raises(Deck.DoesNotExist):
        selectors.shared_deck(token)
    assert services.share(deck) != token  # a new link after unsharing


def test_delete_deck_and_locked_deck_refused(catalogue, user):
    deck = make_deck(user)
    DeckVersion.objects.filter(deck=deck).update(locked_at=timezone.now())
    with pytest.raises(services.DeckLocked):
        services.delete_deck(deck)
    DeckVersion.objects.filter(deck=deck).update(locked_at=None)
    services.delete_deck(deck)
    assert not Deck.objects.exists() and not DeckVersion.objects.exists()


# --- Sample muster and statistics -----------------------------------------------------------

def test_sample_muster_is_reproducible_by_seed(catalogue, user):
    deck = make_deck(user)
    first = services.sample_muster(deck.latest, seed=1815)
    assert first == services.sample_muster(deck.latest, seed=1815)
    assert len(first["muster"]) == 18 and first["reinforcements_left"] == 18
    assert set(first["muster"]) <= {n for n, _, _ in waterloo_french()}
    assert services.sample_muster(deck.latest, seed=1)["muster"] != first["muster"]
    assert isinstance(services.sample_muster(deck.latest)["seed"], int)


def test_sample_muster_of_waterloo_prussians_is_empty(catalogue, user):
    entries = [(n, 1, None) for n in pool("prussian")[:24]]
    deck = make_deck(user, army="prussian", entries=entries)
    assert deck.latest.valid
    dealt = services.sample_muster(deck.latest, seed=7)
    assert dealt == {"seed": 7, "muster": [], "reinforcements_left": 24}


def test_sample_muster_of_a_custom_deck_is_half_rounded_down(catalogue, user):
    deck = make_deck(user, kind="custom", entries=[(15, 3, None), (16, 2, None)])
    dealt = services.sample_muster(deck.latest, seed=3)
    assert len(dealt["muster"]) == 2 and dealt["reinforcements_left"] == 3


def test_bad_seed_is_an_input_error(catalogue, user):
    deck = make_deck(user)
    for seed in (-1, "3", 2**64, 1.5, True):
        with pytest.raises(inputs.DeckInputError):
            services.sample_muster(deck.latest, seed=seed)


def test_statistics_counts_types_morale_corps_and_general_coverage(catalogue):
    cards = cards_by_number()
    stats = deck_statistics([(5, 1, None), (15, 2, None), (16, 1, None), (50, 1, None)], cards)
    assert stats["cards"] == 5
    assert stats["by_type"]["general"] == 1 and stats["by_type"]["infantry"] == 4
    assert stats["bp_total"] == sum(cards[n]["bp"] * c for n, c in
                                    [(5, 1), (15, 2), (16, 1), (50, 1)])
    assert stats["cv_total"] == sum((cards[n]["cv"] or 0) * c for n, c in
                                    [(15, 2), (16, 1), (50, 1)])
    assert stats["by_corps"]["I"] == 4  # d'Erlon and three I Corps brigade copies
    guard = cards[50]["ob_corps"]
    assert stats["coverage"]["covered"] == ["I"] and stats["coverage"]["uncovered"] == [guard]
    assert stats["battles"]["waterloo"] == 5
    with_napoleon = deck_statistics([(1, 1, None), (50, 1, None)], cards)
    assert with_napoleon["coverage"]["covered"] == [guard]
    assert with_napoleon["army_commanders"] == [1]


def test_statistics_skip_unknown_cards(catalogue):
    stats = deck_statistics([(9999, 1, None), (1, -1, None), (1, 1, None)], cards_by_number())
    assert stats["cards"] == 1 and stats["unknown"] == 2
