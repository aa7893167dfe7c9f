"""Compact deck codes: canonical, exact round trip, clear errors on garbage. Pure, no Django."""

import base64
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.rules import BATTLES, KINDS, PRINTINGS, Deck, DeckCodeError, DeckEntry, decode, encode
from decks.rules.chart import ARMIES

WATERLOO = Deck("waterloo", "french", "custom", 1,
                [DeckEntry(n) for n in range(1, 37)])


def test_code_round_trips_a_deck_exactly():
    assert decode(encode(WATERLOO)) == WATERLOO


def test_code_is_base64url_without_padding():
    code = encode(WATERLOO)
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert len(code) < 100


def test_code_is_canonical_whatever_the_entry_order():
    shuffled = Deck("waterloo", "french", "custom", 1,
                    [DeckEntry(n) for n in reversed(range(1, 37))])
    split = Deck("waterloo", "french", "custom", 1, [DeckEntry(5), DeckEntry(5), DeckEntry(3)])
    merged = Deck("waterloo", "french", "custom", 1, [DeckEntry(3), DeckEntry(5, 2)])
    assert encode(shuffled) == encode(WATERLOO)
    assert encode(split) == encode(merged)


def test_code_carries_header_scale_printings_and_counts():
    deck = Deck("quatre-bras", "british", "custom", Fraction(3, 2), [
        DeckEntry(12, 2, "gold"), DeckEntry(12, 1, "bronze"), DeckEntry(40, 3),
        DeckEntry(41, 7, "silver")], historical=True)
    back = decode(encode(deck))
    assert back == deck
    assert (back.battle, back.army, back.kind, back.scale, back.historical) == (
        "quatre-bras", "british", "custom", Fraction(3, 2), True)


def test_code_scale_is_exact_for_thirds():
    deck = Deck("waterloo", "prussian", "custom", "1/3", [DeckEntry(200)])
    assert decode(encode(deck)).scale == Fraction(1, 3)


def test_code_accepts_whitespace_and_standard_alphabet():
    code = encode(WATERLOO)
    assert decode(f"  {code}\n") == WATERLOO
    padded = code + "=" * (-len(code) % 4)
    assert decode(padded.replace("-", "+").replace("_", "/")) == WATERLOO


@pytest.mark.parametrize("garbage", [
    "", "   ", "hello world", "!!!!", "AAAA", "A", "AAE", "AAIDAAAAAQEA", 12, None, b"AAE",
    "x" * 10_000, "AAEDAAAAAQEkBAgMFBgkKDQ4PEBESExQVFhcYGRobHCsAbABtAG4AcQByAHMAdAB1AHYAdwB4AHk",
])
def test_garbage_raises_deck_code_error_with_a_message(garbage):
    with pytest.raises(DeckCodeError) as info:
        decode(garbage)
    assert str(info.value)


def _raw(*values):
    out = bytearray()
    for value in values:
        while True:
            byte, value = value & 0x7F, value >> 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                break
    return base64.urlsafe_b64encode(bytes(out)).rstrip(b"=").decode()


@pytest.mark.parametrize("values, words", [
    ((0, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0), "version 2"),
    ((0, 1, 9, 0, 0, 0, 1, 1, 0, 0, 0), "battle 9"),
    ((0, 1, 0, 0, 0, 0, 2, 4, 0, 0, 0), "lowest terms"),
    ((0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0), "scale"),
    ((0, 1, 0, 0, 0, 0, 1, 1, 2, 8, 4, 0, 0), "not sorted"),
    ((0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 4, 2), "count of 2"),
    ((0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 7), "left over"),
    ((0, 1, 0, 0, 0, 4, 1, 1, 0, 0, 0), "flags"),
])
def test_invalid_codes_say_what_is_wrong(values, words):
    with pytest.raises(DeckCodeError, match=words):
        decode(_raw(*values))


def test_encode_refuses_what_it_cannot_write():
    for deck in (Deck("austerlitz", "french"), Deck("waterloo", "french", scale=0),
                 Deck("waterloo", "french", entries=[DeckEntry(3, -1)]),
                 Deck("waterloo", "french", scale=Fraction(10**9 + 7, 10**9)),
                 Deck("waterloo", "french", entries=[DeckEntry(3, 1, "platinum")])):
        with pytest.raises(DeckCodeError):
            encode(deck)


entries = st.lists(
    st.builds(DeckEntry, st.integers(1, 400), st.integers(1, 9),
              st.sampled_from([None, *PRINTINGS])), max_size=80)
# Decks with chosen cards (a dealt deck holds none; its code is tested below).
decks = st.builds(
    Deck, st.sampled_from(BATTLES), st.sampled_from(ARMIES), st.sampled_from(KINDS[1:]),
    st.fractions(min_value=Fraction(1, 100), max_value=4, max_denominator=1000),
    entries, st.booleans())


@settings(max_examples=300, deadline=None)
@given(decks)
def test_property_round_trip_is_exact(deck):
    code = encode(deck)
    assert decode(code) == deck.canonical()
    assert encode(decode(code)) == code


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=60).map(
    lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")))
def test_property_decode_never_fails_otherwise(text):
    try:
        deck = decode(text)
    except DeckCodeError:
        return
    assert encode(deck) == text.strip().rstrip("=").replace("+", "-").replace("/", "_")


def test_2_0_dealt_deck_code_carries_its_pool_and_no_cards():
    for pool in ("collection", "set"):
        deck = Deck("quatre-bras", "french", "dealt", Fraction(1, 2), (), True, pool)
        assert decode(encode(deck)) == deck


def test_2_0_old_standard_code_with_cards_decodes_as_a_custom_deck():
    # Kind 0 was "standard" (chosen cards); saved standard decks became custom drafts.
    old = encode(Deck("waterloo", "french", "custom", 1, [DeckEntry(1), DeckEntry(12)]))
    raw = bytearray(base64.urlsafe_b64decode(old + "=" * (-len(old) % 4)))
    raw[4] = 0  # header, version, battle, army, kind
    legacy = base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")
    assert decode(legacy).kind == "custom"
    assert decode(legacy).entries == (DeckEntry(1), DeckEntry(12))


def test_2_0_pool_flag_only_on_a_dealt_deck():
    code = encode(Deck("waterloo", "french", "dealt", 1, (), False, "set"))
    raw = bytearray(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))
    raw[4] = 1  # kind custom with the pool flag
    with pytest.raises(DeckCodeError, match="only a dealt deck"):
        decode(base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("="))
