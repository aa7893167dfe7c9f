"""Collection CSV import/export: the format, both modes, every rejection, the round trip."""

import pytest

from cards.collection import csv as csv_io
from cards.collection import services as svc
from cards.models import Card, CollectionEntry

pytestmark = pytest.mark.django_db

HEADER = "Count,Trade Count,Number,Name,Printing\n"


def owned(user) -> dict:
    return {(e.printing.card.number, e.printing.finish): (e.quantity, e.trade_quantity)
            for e in CollectionEntry.objects.filter(user=user).select_related("printing__card")}


def name(number: int) -> str:
    return Card.objects.get(number=number).name


@pytest.fixture
def some(catalogue, user):
    svc.add_copies(user, 1, "gold", 2)
    svc.add_copies(user, 2, "bronze", 4)
    svc.set_trade_quantity(user, 2, "bronze", 1)
    return owned(user)


def test_add_mode_adds_to_what_you_own(some, user):
    text = HEADER + f"3,1,1,{name(1)},gold\n1,0,5,{name(5)},SILVER\n"
    report = csv_io.import_csv(user, text.encode(), "add")
    assert report.rows == 2 and report.copies == 4
    assert owned(user) == {(1, "gold"): (5, 1), (2, "bronze"): (4, 1), (5, "silver"): (1, 0)}


def test_replace_mode_makes_the_file_the_collection(some, user):
    text = HEADER + f"3,1,1,{name(1)},Gold\n0,0,2,{name(2)},Bronze\n1,,7,,Bronze\n"
    csv_io.import_csv(user, text, "replace")
    assert owned(user) == {(1, "gold"): (3, 1), (7, "bronze"): (1, 0)}
    csv_io.import_csv(user, HEADER, "replace")
    assert owned(user) == {}


def test_export_round_trips_exactly(catalogue, user):
    svc.open_starter_deck(user, seed=99)
    svc.set_trade_quantity(user, *next(iter(sorted(owned(user)))), 1)
    before = owned(user)
    exported = csv_io.export_csv(user)
    assert exported.startswith("Count,Trade Count,Number,Name,Printing\r\n")
    report = csv_io.import_csv(user, exported.encode(), "replace")
    assert owned(user) == before
    assert csv_io.export_csv(user) == exported
    assert report.entries_before == report.entries_after == len(before)


def test_names_are_checked_accent_and_case_insensitively(some, user):
    card = Card.objects.get(number=1)
    card.name = "Napoléon"
    card.save()
    csv_io.import_csv(user, HEADER + "1,0,1,NAPOLEON,gold\n", "add")
    csv_io.import_csv(user, HEADER + "1,0,1, napoléon ,gold\n", "add")
    assert owned(user)[(1, "gold")] == (4, 0)
    with pytest.raises(csv_io.CsvError) as caught:
        csv_io.import_csv(user, HEADER + "1,0,1,Wellington,gold\n", "add")
    assert caught.value.problems == [
        "row 2: Name 'Wellington' does not match card #1, which is 'Napoléon'"]


def test_extra_columns_any_order_bom_and_blank_lines(some, user):
    text = ("\ufeffprinting,NUMBER,Edition,count,trade count,name\r\n\r\n"
            f"silver,9,Waterloo,2,1,{name(9)}\r\n")
    csv_io.import_csv(user, text.encode(), "add")
    assert owned(user)[(9, "silver")] == (2, 1)


def test_a_bad_file_is_rejected_whole_with_every_bad_row_named(some, user):
    rows = [
        f"1,0,1,{name(1)},Gold",         # row 2: fine
        "-2,0,3,,Gold",                  # row 3
        "3,5,4,,Silver",                 # row 4
        "1,0,5,,Gold",                   # row 5: fine
        "2,x,6,,Gold",                   # row 6
        "1,0,7,,Platinum",               # row 7
        "1,0,5,,gold",                   # row 8: duplicate of row 5
        "1,0,301,,Gold",                 # row 9
        "1,0,abc,,Gold",                 # row 10
        "10000,0,8,,Gold",               # row 11
        "1.5,0,8,,Bronze",               # row 12
    ]
    with pytest.raises(csv_io.CsvError) as caught:
        csv_io.import_csv(user, HEADER + "\n".join(rows) + "\n", "replace")
    assert caught.value.problems == [
        "row 3: Count must be a whole number 0-9999, got '-2'",
        "row 4: Trade Count 5 is more than Count 3",
        "row 6: Trade Count must be a whole number 0-9999, got 'x'",
        "row 7: unknown printing 'Platinum' (use Gold, Silver or Bronze)",
        "row 8: duplicate of row 5 (card #5 Gold); give each card and printing one row",
        "row 9: card #301 does not exist",
        "row 10: Number must be a card number 1-300, got 'abc'",
        "row 11: Count must be a whole number 0-9999, got '10000'",
        "row 12: Count must be a whole number 0-9999, got '1.5'",
    ]
    assert "nothing changed" in caught.value.message
    assert owned(user) == some


@pytest.mark.parametrize("data, message", [
    (b"", "the file is empty"),
    (b"Count,Number,Name\n1,1,x\n", "the header lacks the columns Trade Count, Printing"),
    (b"1,0,1,Napoleon,Gold\n", "row 1: the header lacks the columns"),
    (HEADER.encode("utf-16"), "not UTF-8"),
    (HEADER.encode() + b"1,0,1,Napol\xe9on,Gold\n", "not UTF-8"),
    (HEADER.encode() + b"1,0,1,x,Gold\n" * 90_000, "limit is 1 MB"),
    (HEADER.encode() + b"0,0,1,,Gold\n" * 10_001, "more than 10,000 rows"),
])
def test_bad_files(some, user, data, message):
    for mode in csv_io.MODES:
        with pytest.raises(csv_io.CsvError, match=message):
            csv_io.import_csv(user, data, mode)
    assert owned(user) == some


def test_add_mode_over_the_limit_is_rejected_whole(some, user):
    text = HEADER + "1,0,5,,Gold\n9999,0,1,,Gold\n"
    with pytest.raises(csv_io.CsvError, match="row 3: you own 2 of card #1 Gold; adding 9999"):
        csv_io.import_csv(user, text, "add")
    assert owned(user) == some


def test_unknown_mode(some, user):
    with pytest.raises(svc.ServiceError, match="unknown import mode 'merge'"):
        csv_io.import_csv(user, HEADER, "merge")


def test_round_trip_property(catalogue, user):
    """Any collection, exported and imported back in replace mode, is unchanged; importing it
    in add mode doubles every count."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    entry = st.tuples(st.integers(1, 300), st.sampled_from(["gold", "silver", "bronze"]),
                      st.integers(1, 4000), st.integers(0, 4000))

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.dictionaries(entry.map(lambda e: e[:2]), entry.map(lambda e: e[2:]),
                           max_size=12))
    def check(collection):
        lines = [f"{q},{min(t, q)},{n},,{f.title()}" for (n, f), (q, t) in collection.items()]
        csv_io.import_csv(user, HEADER + "\n".join(lines), "replace")
        before = owned(user)
        assert before == {k: (q, min(t, q)) for k, (q, t) in collection.items()}
        exported = csv_io.export_csv(user)
        csv_io.import_csv(user, exported, "replace")
        assert owned(user) == before and csv_io.export_csv(user) == exported
        csv_io.import_csv(user, exported, "add")
        assert owned(user) == {k: (2 * q, 2 * t) for k, (q, t) in before.items()}

    check()
