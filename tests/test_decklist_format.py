"""The deck-list text format: parse and print. Pure, no Django; parse never raises."""

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from decks.rules import Deck, DeckEntry, format_decklist, parse_decklist

CARDS = {
    1: {"number": 1, "name": "Napoléon", "army": "french", "type": "general"},
    2: {"number": 2, "name": "Soult", "army": "french", "type": "general"},
    12: {"number": 12, "name": "Old Guard Grenadiers (1st/2nd)", "army": "french",
         "type": "infantry"},
    13: {"number": 13, "name": "Brigade Pégot", "army": "french", "type": "infantry"},
    14: {"number": 14, "name": "8th (Leib) Infantry Regiment", "army": "french",
         "type": "infantry"},
    20: {"number": 20, "name": "Grande Batterie (12-pdrs)", "army": "french",
         "type": "artillery"},
    30: {"number": 30, "name": "L'Héritier's Cuirassiers", "army": "french", "type": "cavalry"},
    40: {"number": 40, "name": "La Haye Sainte", "army": "french", "type": "terrain"},
    50: {"number": 50, "name": "Vive l'Empereur", "army": "french", "type": "special"},
    60: {"number": 60, "name": "Hussars", "army": "british", "type": "cavalry"},
    61: {"number": 61, "name": "Hussars", "army": "prussian", "type": "cavalry"},
}


def parse(text):
    return parse_decklist(text, CARDS)


def test_count_and_number():
    assert parse("3 #12") == ((DeckEntry(12, 3),), [])


def test_count_and_name_ignoring_case_and_accents():
    entries, errors = parse("1 NAPOLEON\n2 brigade pegot\n1 l’heritier’s cuirassiers")
    assert errors == []
    assert entries == (DeckEntry(1, 1), DeckEntry(13, 2), DeckEntry(30, 1))


def test_count_may_be_written_3x():
    assert parse("3x #12\n2 x Brigade Pégot\n1x#1")[0] == (
        DeckEntry(1, 1), DeckEntry(12, 3), DeckEntry(13, 2))


def test_names_with_parentheses_and_digits():
    entries, errors = parse("1 Old Guard Grenadiers (1st/2nd)\n2 8th (Leib) Infantry Regiment\n"
                            "1 Grande Batterie (12-pdrs) (gold)")
    assert errors == []
    assert entries == (DeckEntry(12, 1), DeckEntry(14, 2), DeckEntry(20, 1, "gold"))


def test_printing_in_parentheses_or_stars():
    entries, errors = parse("1 #12 (gold)\n1 #12 *S*\n1 #12 (Bronze)\n1 Napoléon *g*")
    assert errors == []
    assert entries == (DeckEntry(1, 1, "gold"), DeckEntry(12, 1, "gold"),
                       DeckEntry(12, 1, "silver"), DeckEntry(12, 1, "bronze"))


def test_number_wins_over_a_name_written_after_it():
    assert parse("1 #12 Some Old Name")[0] == (DeckEntry(12, 1),)


def test_comments_headers_and_blank_lines_are_ignored():
    text = ("// my deck\n\nGenerals:\n1 #1 // the Emperor\nInfantry (12)\n2 #13\n"
            "Total: 3\nCAVALRY\n   \n")
    assert parse(text) == ((DeckEntry(1, 1), DeckEntry(13, 2)), [])


def test_repeated_lines_add_up():
    assert parse("1 #13\n1 Brigade Pégot")[0] == (DeckEntry(13, 2),)


def test_errors_carry_line_numbers_and_suggest_a_name():
    entries, errors = parse("1 #1\n\n// x\n2 Napoleom\n1 #999\n-1 #12\n0 #12\nfoo bar\n"
                            "1 #abc\n2 Hussars\n4 (gold)")
    assert entries == (DeckEntry(1, 1),)
    assert [e.line for e in errors] == [4, 5, 6, 7, 8, 9, 10, 11]
    assert str(errors[0]) == "line 4: no card named 'Napoleom' (did you mean 'Napoléon'?)"
    assert str(errors[1]) == "line 5: there is no card #999"
    assert "1 to 99" in errors[2].message and "1 to 99" in errors[3].message
    assert "COUNT #NUMBER" in errors[4].message
    assert "#60, #61" in errors[6].message


def test_ten_thousand_lines_give_one_error():
    entries, errors = parse("1 #12\n" * 10_000)
    assert entries == ()
    assert len(errors) == 1 and str(errors[0]).startswith("too many lines (max 500)")


def test_garbage_bytes_never_raise():
    entries, errors = parse(b"\xff\xfe1 #12\n\x00\x01\x02\n3 \xc3\x28 bad utf8\n1 #13")
    assert DeckEntry(13, 1) in entries
    assert {e.line for e in errors} >= {2, 3}


def test_long_lines_and_non_text_are_errors():
    assert "too long" in parse("1 " + "x" * 1000)[1][0].message
    assert parse(None)[1][0].message == "the list is not text"
    assert "too long" in parse("1 #12\n" * 300_000)[1][0].message


def test_format_groups_by_type_with_headers_and_parses_back():
    deck = Deck("waterloo", "french", "custom", "1/2", [
        DeckEntry(50), DeckEntry(12, 2, "gold"), DeckEntry(12, 1), DeckEntry(1),
        DeckEntry(40), DeckEntry(20), DeckEntry(30, 3, "silver")])
    text = format_decklist(deck, CARDS)
    lines = text.splitlines()
    assert lines[0].startswith("// Waterloo, French, custom deck, scale 1/2")
    headers = [line for line in lines if line and line[0].isalpha()]
    assert headers == ["Generals (1)", "Infantry (3)", "Cavalry (3)", "Artillery (1)",
                       "Terrain (1)", "Specials (1)"]
    assert "2 #12 Old Guard Grenadiers (1st/2nd) (gold)" in lines
    assert parse(text) == (deck.canonical().entries, [])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.builds(DeckEntry, st.sampled_from(sorted(CARDS)), st.integers(1, 99),
                          st.sampled_from([None, "gold", "silver", "bronze"])), max_size=40))
def test_property_format_parses_back_to_the_same_deck(entries):
    deck = Deck("waterloo", "french", "custom", 1, entries)
    assert parse(format_decklist(deck, CARDS)) == (deck.canonical().entries, [])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_property_parse_never_raises(text):
    entries, errors = parse(text)
    assert all(e.count >= 1 for e in entries)
    assert all(isinstance(str(e), str) for e in errors)


CATALOGUE = Path(__file__).resolve().parent.parent / "cards" / "data" / "catalogue.json"


def test_every_catalogue_name_parses_to_its_card():
    if not CATALOGUE.exists():
        return
    cards = {c["number"]: c for c in json.loads(CATALOGUE.read_text("utf-8"))["cards"]}
    deck = Deck("waterloo", "french", "custom", 1, [DeckEntry(n) for n in cards])
    assert parse_decklist(format_decklist(deck, cards), cards) == (deck.entries, [])
    by_name = "\n".join(f"1 {c['name']}" for c in cards.values())
    entries, errors = parse_decklist(by_name, cards)
    assert errors == [] or all("several cards" in e.message for e in errors)
