# Over 500 lines on purpose: one idea, a test per deck rule clause, then property tests.
"""Deck rules (2.0, 3.0, 11.0, 15.0, 16.0): one test per rule clause, then property tests.

Pure: no Django, no database. Card records are made by hand here (same keys as
cards/data/catalogue.json); only the last test reads the real catalogue, if it exists.
"""

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.rules import (
    BATTLES,
    BATTLES_CHART,
    CODES,
    Deck,
    DeckEntry,
    as_scale,
    validate,
)
from decks.rules.chart import scale_step
from game.figures import deck_figures as figures

ARMY_BATTLES = {army: [b for b in BATTLES if army in BATTLES_CHART[b]]
                for army in ("french", "british", "prussian")}
BP = {"general": 15, "infantry": 10, "cavalry": 8, "artillery": 6, "terrain": 3, "special": 5}


def make_pool() -> dict[int, dict]:
    """Per army: 4 generals, 100 infantry, 10 cavalry, 10 artillery and 4 specials that fought at
    every battle of their army; 5 infantry that fought nowhere; one terrain card per battle."""
    cards: dict[int, dict] = {}
    number = 0

    def add(army, kind, name, battles, terrain_battle=None):
        nonlocal number
        number += 1
        cards[number] = {
            "number": number, "name": name, "army": army, "type": kind, "battles": battles,
            "bp": BP[kind], "terrain_battle": terrain_battle,
            "terrain_position": "c" if kind == "terrain" else None,
        }

    for army, fought in ARMY_BATTLES.items():
        for kind, n in (("general", 4), ("infantry", 100), ("cavalry", 10), ("artillery", 10),
                        ("special", 4)):
            for i in range(n):
                add(army, kind, f"{army.title()} {kind} {i}", list(fought))
        for i in range(5):
            add(army, "infantry", f"{army.title()} absent {i}", [])
        for battle in BATTLES:
            add(army, "terrain", f"{army.title()} {battle} terrain", [battle], battle)
    return cards


CARDS = make_pool()


def numbers(army, kind=None, battle=None, *, absent=False):
    return [n for n, c in CARDS.items() if c["army"] == army
            and (kind is None or c["type"] == kind)
            and (battle is None or c.get("terrain_battle") == battle)
            and ("absent" in c["name"]) == absent]


def allowed(battle, army, historical=False):
    """Cards a standard deck for (battle, army) may hold."""
    return [n for n, c in CARDS.items() if c["army"] == army
            and (c["type"] != "terrain" or c["terrain_battle"] == battle)
            and (not historical or battle in c["battles"])]


def dealt(battle, army, scale=1, *, extra=(), historical=False, kind="dealt"):
    size = int(BATTLES_CHART[battle][army].deck * Fraction(scale)) - len(extra)
    pool = [n for n in allowed(battle, army, historical) if CARDS[n]["type"] != "terrain"]
    entries = [DeckEntry(n) for n in pool[:size]] + [DeckEntry(n) for n in extra]
    return Deck(battle, army, kind, scale, entries, historical)


def codes(result):
    return {p.code for p in result.problems}


# --- 3.0 the Battles Chart -----------------------------------------------------------------

def test_battles_chart_matches_the_rules():
    expected = {
        ("quatre-bras", "french"): (14, 10, 1, 130), ("quatre-bras", "british"): (18, 9, 1, 160),
        ("ligny", "french"): (36, 18, 2, 330), ("ligny", "prussian"): (40, 20, 2, 310),
        ("wavre", "french"): (16, 8, 1, 140), ("wavre", "prussian"): (12, 12, 1, 90),
        ("waterloo", "french"): (36, 18, 2, 380), ("waterloo", "british"): (36, 18, 2, 360),
        ("waterloo", "prussian"): (24, None, 2, 190),
    }
    got = {(b, a): (e.deck, e.muster, e.reinforcements, e.bp)
           for b, row in BATTLES_CHART.items() for a, e in row.items()}
    assert got == expected


def test_standard_deck_figures_come_from_the_chart():
    result = validate(dealt("quatre-bras", "british"), CARDS)
    assert (result.required_size, result.muster, result.reinforcement_rate, result.bp_limit) == (
        18, 9, 1, 160)


def test_waterloo_prussians_have_no_muster():
    for kind in ("dealt", "custom", "campaign"):
        deck = dealt("waterloo", "prussian", kind=kind)
        if kind != "dealt":
            deck = Deck("waterloo", "prussian", kind, 1,
                        [DeckEntry(n) for n in numbers("prussian", "infantry")[:10]])
        result = validate(deck, CARDS)
        assert result.valid, result.problems
        assert result.muster is None
    assert validate(dealt("waterloo", "prussian"), CARDS).reinforcement_rate == 2


# --- 2.0 and 3.0 scaling -------------------------------------------------------------------

def test_scaled_waterloo_half_is_18_18_12():
    sizes = {army: figures("waterloo", army, "dealt", Fraction(1, 2)).size
             for army in ("french", "british", "prussian")}
    assert sizes == {"french": 18, "british": 18, "prussian": 12}
    for army in sizes:
        assert validate(dealt("waterloo", army, "0.5"), CARDS).valid


def test_doubled_decks_double_muster_and_reinforcements():
    fig = figures("waterloo", "french", "dealt", Fraction(2))
    assert (fig.size, fig.muster, fig.reinforcement_rate) == (72, 36, 4)
    fig = figures("quatre-bras", "french", "dealt", Fraction(2))
    assert (fig.size, fig.muster, fig.reinforcement_rate) == (28, 20, 2)


def test_scaled_muster_rounds_half_up_and_reinforcements_are_at_least_one():
    fig = figures("quatre-bras", "british", "dealt", Fraction(1, 2))
    assert (fig.size, fig.muster, fig.reinforcement_rate) == (9, 5, 1)  # M4.5 -> 5
    fig = figures("waterloo", "prussian", "dealt", Fraction(1, 12))
    assert (fig.size, fig.muster, fig.reinforcement_rate) == (2, None, 1)


def test_scale_that_breaks_the_ratio_is_bad_scale():
    result = validate(Deck("waterloo", "french", "dealt", Fraction(1, 5)), CARDS)
    (problem,) = [p for p in result.problems if p.code == "bad_scale"]
    assert "7.2 French" in problem.message and "4.8 Prussian" in problem.message
    assert "1/12" in problem.message and problem.message.startswith("2.0")
    assert result.required_size is None and not result.valid


def test_scale_is_one_factor_for_the_whole_battle():
    # 1/3 keeps Waterloo whole (12/12/8) but not Ligny (12 and 13.33)
    assert "bad_scale" not in codes(validate(dealt("waterloo", "french", "1/3"), CARDS))
    ligny = Deck("ligny", "french", "dealt", "1/3", [DeckEntry(n) for n in range(1, 13)])
    assert "bad_scale" in codes(validate(ligny, CARDS))


@pytest.mark.parametrize("scale", [0, -1, "-1/2", "17/4", 4.5, "abc", "", float("nan"), None,
                                   True, "1/0"])
def test_scale_must_be_above_zero_and_at_most_four(scale):
    result = validate(Deck("waterloo", "french", "dealt", scale), CARDS)
    assert "bad_scale" in codes(result)
    assert not result.valid


def test_scale_of_four_is_allowed():
    assert validate(dealt("wavre", "prussian", 4), CARDS).valid


def test_scale_accepts_floats_strings_and_fractions():
    assert as_scale(0.5) == as_scale("0.5") == as_scale("1/2") == Fraction(1, 2)
    assert as_scale(0.1) == Fraction(1, 10)


# --- 2.0 standard decks --------------------------------------------------------------------

def test_valid_standard_waterloo_french_deck():
    result = validate(dealt("waterloo", "french"), CARDS)
    assert result.valid and result.problems == ()
    assert (result.size, result.required_size, result.muster, result.reinforcement_rate) == (
        36, 36, 18, 2)


def test_standard_deck_takes_only_its_army():
    british = numbers("british", "infantry")[0]
    result = validate(dealt("waterloo", "french", extra=[british]), CARDS)
    assert codes(result) == {"wrong_army"}
    assert result.problems[0].cards == (british,)
    assert "British card" in result.problems[0].message


def test_standard_deck_rejects_duplicates():
    deck = dealt("waterloo", "french")
    first = deck.entries[0].number
    deck = Deck("waterloo", "french", entries=[DeckEntry(first), *deck.entries[:-1]])
    result = validate(deck, CARDS)
    assert codes(result) == {"duplicate"}
    (problem,) = result.problems
    assert problem.message.startswith(f"2.0: #{first} French general 0 appears 2 times")
    assert "no duplicates" in problem.message and problem.cards == (first,)


def test_standard_deck_duplicates_count_across_printings():
    deck = dealt("waterloo", "french")
    first = deck.entries[0].number
    entries = [DeckEntry(first, 1, "gold"), DeckEntry(first, 1, "bronze"), *deck.entries[1:-1]]
    assert codes(validate(Deck("waterloo", "french", entries=entries), CARDS)) == {"duplicate"}


def test_standard_deck_must_have_exactly_d_cards():
    deck = dealt("waterloo", "french")
    short = Deck("waterloo", "french", entries=deck.entries[:-1])
    result = validate(short, CARDS)
    assert codes(result) == {"deck_size"}
    assert "36 cards" in result.problems[0].message and "1 missing" in result.problems[0].message
    spare = [n for n in allowed("waterloo", "french") if n not in deck.counts()][0]
    long = Deck("waterloo", "french", entries=[*deck.entries, DeckEntry(spare)])
    assert "1 too many" in validate(long, CARDS).problems[0].message


def test_army_that_did_not_fight_the_battle_is_reported():
    result = validate(Deck("ligny", "british", entries=[DeckEntry(1)]), CARDS)
    assert "army_not_in_battle" in codes(result) and not result.valid


def test_unknown_battle_army_and_kind_are_problems_not_exceptions():
    result = validate(Deck("austerlitz", "russian", "sealed", 1, [DeckEntry(1)]), CARDS)
    assert {"unknown_battle", "unknown_army", "unknown_kind"} <= codes(result)


def test_terrain_is_always_historical():
    ligny_terrain = numbers("french", "terrain", "ligny")[0]
    for kind in ("dealt", "custom", "campaign"):
        result = validate(dealt("waterloo", "french", extra=[ligny_terrain], kind=kind),
                          CARDS)
        assert codes(result) == {"terrain_not_historical"}, kind
        assert "Ligny terrain" in result.problems[0].message


def test_terrain_of_the_battle_is_allowed():
    waterloo_terrain = numbers("french", "terrain", "waterloo")[0]
    assert validate(dealt("waterloo", "french", extra=[waterloo_terrain]), CARDS).valid


def test_historical_mode_rejects_cards_not_at_the_battle():
    absent = numbers("french", absent=True)[0]
    result = validate(dealt("waterloo", "french", extra=[absent], historical=True), CARDS)
    assert codes(result) == {"not_historical"}
    assert "did not fight at Waterloo" in result.problems[0].message


def test_13_0_d_historical_mode_never_rejects_a_special_for_its_battle_list():
    """Specials did not fight; 13.0 limits none to battles (RULINGS 13.0-d)."""
    cards = {n: dict(c) for n, c in CARDS.items()}
    special = numbers("french", "special")[0]
    cards[special]["battles"] = ["ligny"]
    deck = dealt("waterloo", "french", extra=[special], historical=True)
    assert validate(deck, cards).valid
    infantry = numbers("french", "infantry")[-1]  # not in the deck's first cards
    cards[infantry]["battles"] = ["ligny"]
    deck = dealt("waterloo", "french", extra=[infantry], historical=True)
    assert codes(validate(deck, cards)) == {"not_historical"}


def test_historical_mode_off_allows_cards_from_other_battles():
    absent = numbers("french", absent=True)[0]
    assert validate(dealt("waterloo", "french", extra=[absent]), CARDS).valid


# --- 15.0 custom decks ---------------------------------------------------------------------

def custom(army="french", battle="waterloo", entries=(), scale=1):
    return Deck(battle, army, "custom", scale, entries)


def test_custom_deck_allows_three_copies_across_printings():
    inf = numbers("french", "infantry")[0]
    deck = custom(entries=[DeckEntry(inf, 1, "gold"), DeckEntry(inf, 1, "silver"),
                           DeckEntry(inf, 1, "bronze")])
    assert validate(deck, CARDS).valid


def test_custom_deck_rejects_a_fourth_copy():
    inf = numbers("french", "infantry")[0]
    deck = custom(entries=[DeckEntry(inf, 3, "gold"), DeckEntry(inf, 1)])
    result = validate(deck, CARDS)
    assert codes(result) == {"too_many_copies"}
    assert "4 times" in result.problems[0].message and "at most 3" in result.problems[0].message


def test_custom_deck_never_duplicates_generals():
    general = numbers("french", "general")[0]
    result = validate(custom(entries=[DeckEntry(general, 2)]), CARDS)
    assert codes(result) == {"duplicate_general"}


def test_custom_deck_never_duplicates_terrain():
    terrain = numbers("french", "terrain", "waterloo")[0]
    result = validate(custom(entries=[DeckEntry(terrain, 1, "gold"), DeckEntry(terrain, 1)]),
                      CARDS)
    assert codes(result) == {"duplicate_terrain"}


def test_custom_deck_bp_may_not_exceed_the_battle_total():
    infantry = numbers("french", "infantry")
    at_limit = custom(entries=[DeckEntry(n) for n in infantry[:38]])  # 38 x 10 = BP380
    result = validate(at_limit, CARDS)
    assert result.valid and (result.bp_total, result.bp_limit) == (380, 380)
    over = custom(entries=[DeckEntry(n) for n in infantry[:39]])
    result = validate(over, CARDS)
    assert codes(result) == {"bp_exceeded"}
    assert "390 BP" in result.problems[0].message and "380 BP" in result.problems[0].message


def test_custom_deck_bp_limit_scales_rounding_down():
    assert validate(custom(scale="1/3"), CARDS).bp_limit == 126  # 380/3 = 126.67
    assert validate(custom(scale=2), CARDS).bp_limit == 760


def test_custom_deck_scale_need_not_keep_whole_deck_sizes():
    result = validate(custom(entries=[DeckEntry(numbers("french", "infantry")[0])], scale=0.3),
                      CARDS)
    assert result.valid and result.bp_limit == 114


def test_custom_deck_muster_is_half_rounded_down():
    deck = custom(entries=[DeckEntry(n) for n in numbers("french", "infantry")[:7]])
    result = validate(deck, CARDS)
    assert (result.size, result.muster, result.required_size) == (7, 3, None)


def test_custom_deck_size_is_free_but_not_empty():
    assert validate(custom(entries=[DeckEntry(numbers("french", "infantry")[0])]), CARDS).valid
    result = validate(custom(), CARDS)
    assert codes(result) == {"deck_size"} and result.size == 0


# --- 16.0 campaign decks -------------------------------------------------------------------

def test_campaign_muster_is_half_and_reinforcements_double():
    deck = Deck("ligny", "prussian", "campaign", 1,
                [DeckEntry(n) for n in numbers("prussian", "infantry")[:51]])
    result = validate(deck, CARDS)
    assert result.valid
    assert (result.muster, result.reinforcement_rate) == (25, 4)
    french = [DeckEntry(n) for n in numbers("french", "infantry")[:16]]
    assert validate(Deck("wavre", "french", "campaign", 1, french), CARDS) \
        .reinforcement_rate == 2  # D16 or more: double R1
    # RULINGS 16-c: a deck under the chart's D scales the doubled rate (3.0 IMPORTANT)
    assert validate(Deck("wavre", "french", "campaign", 1, french[:1]),
                    CARDS).reinforcement_rate == 1


def test_campaign_deck_rejects_duplicates():
    inf = numbers("french", "infantry")[0]
    result = validate(Deck("waterloo", "french", "campaign", 1, [DeckEntry(inf, 2)]), CARDS)
    assert codes(result) == {"duplicate"}


# --- ownership -----------------------------------------------------------------------------

def test_not_owned_is_a_warning_and_the_deck_stays_a_valid_draft():
    deck = dealt("waterloo", "french")
    first = deck.entries[0].number
    owned = {n: 1 for n in deck.counts()} | {first: 0}
    result = validate(deck, CARDS, owned=owned)
    assert result.valid and result.playable_from_collection is False
    (problem,) = result.problems
    assert (problem.code, problem.severity, problem.cards) == ("not_owned", "warning", (first,))
    assert "needs 1, you have 0" in problem.message


def test_owned_copies_count_any_printing():
    inf = numbers("french", "infantry")[0]
    deck = custom(entries=[DeckEntry(inf, 2, "gold"), DeckEntry(inf, 1, "bronze")])
    result = validate(deck, CARDS, owned={inf: 2})
    assert "needs 3, you have 2" in result.problems[0].message
    assert validate(deck, CARDS, owned={inf: 3}).playable_from_collection is True


def test_no_collection_given_means_ownership_unknown():
    assert validate(dealt("waterloo", "french"), CARDS).playable_from_collection is None


def test_garbage_owned_counts_count_as_none():
    inf = numbers("french", "infantry")[0]
    result = validate(custom(entries=[DeckEntry(inf)]), CARDS, owned={inf: -5})
    assert codes(result) == {"not_owned"}


# --- problems: all at once, stable codes, never an exception -------------------------------

def test_required_problem_codes_are_stable():
    required = {"unknown_card", "wrong_army", "duplicate", "too_many_copies",
                "duplicate_general", "duplicate_terrain", "deck_size", "bp_exceeded",
                "terrain_not_historical", "not_historical", "not_owned", "bad_scale"}
    assert required <= set(CODES)


def test_all_problems_are_reported_at_once():
    british = numbers("british", "infantry")[0]
    ligny_terrain = numbers("french", "terrain", "ligny")[0]
    absent = numbers("french", absent=True)[0]
    inf = numbers("french", "infantry")[0]
    deck = Deck("waterloo", "french", "dealt", 1, [
        DeckEntry(inf, 2), DeckEntry(british), DeckEntry(ligny_terrain), DeckEntry(absent),
        DeckEntry(99999), DeckEntry(inf + 1, 0)], historical=True)
    result = validate(deck, CARDS, owned={})
    assert codes(result) == {"duplicate", "wrong_army", "terrain_not_historical",
                             "not_historical", "unknown_card", "bad_count", "deck_size",
                             "not_owned"}
    assert [p.code for p in result.problems] == sorted(
        (p.code for p in result.problems), key=CODES.index)


def test_negative_and_zero_counts_are_problems_not_exceptions():
    inf = numbers("french", "infantry")[0]
    for count in (0, -3, 1.5, "2", None, True):
        result = validate(custom(entries=[DeckEntry(inf, count), DeckEntry(inf + 1)]), CARDS)
        assert codes(result) == {"bad_count"}, count
        assert result.size == 1


def test_unknown_card_and_unknown_printing():
    result = validate(custom(entries=[DeckEntry(4242), DeckEntry("x"),
                                      DeckEntry(numbers("french", "infantry")[0], 1, "platinum")]),
                      CARDS)
    assert [p.code for p in result.problems] == ["unknown_card", "unknown_card",
                                                 "unknown_printing"]


def test_figures_are_given_even_for_an_invalid_deck():
    deck = Deck("waterloo", "french", "dealt", 1,
                [DeckEntry(numbers("french", "infantry")[0], 2)])
    result = validate(deck, CARDS)
    assert not result.valid
    assert (result.size, result.required_size, result.bp_total, result.bp_limit,
            result.muster, result.reinforcement_rate) == (2, 36, 20, 380, 18, 2)


def test_every_message_names_its_rule():
    british = numbers("british", "infantry")[0]
    deck = Deck("waterloo", "french", "custom", "1/5", [
        DeckEntry(numbers("french", "general")[0], 2), DeckEntry(british)])
    problems = validate(deck, CARDS).problems
    assert len(problems) >= 2  # not vacuous: the British card, the two copies of a general
    for problem in problems:
        assert problem.message.split(":")[0] in {"2.0", "15.0", "2.0, 11.0", "3.0", "1.0"}


def test_result_is_json_ready():
    result = validate(dealt("waterloo", "french", extra=[99999]), CARDS, owned={})
    data = json.loads(json.dumps(result.to_dict()))
    assert data["valid"] is False and data["required_size"] == 36
    assert {"code", "message", "cards", "severity"} <= set(data["problems"][0])


# --- properties: allowed moves give a valid deck; one forbidden move gives the right code --

def _scales(battle, limit=2):
    step = scale_step(battle)
    return [step * k for k in range(1, int(limit / step) + 1)]


@st.composite
def dealt_decks(draw, historical=None):
    battle = draw(st.sampled_from(BATTLES))
    army = draw(st.sampled_from(sorted(BATTLES_CHART[battle])))
    scale = draw(st.sampled_from(_scales(battle)))
    hist = draw(st.booleans() if historical is None else historical)
    rnd = draw(st.randoms(use_true_random=False))
    size = int(BATTLES_CHART[battle][army].deck * scale)
    chosen = rnd.sample(allowed(battle, army, hist), size)
    printings = [None, "gold", "silver", "bronze"]
    entries = [DeckEntry(n, 1, rnd.choice(printings)) for n in chosen]
    return Deck(battle, army, "dealt", scale, entries, hist)


@settings(max_examples=150, deadline=None)
@given(dealt_decks())
def test_property_standard_deck_from_allowed_moves_is_valid(deck):
    result = validate(deck, CARDS)
    assert result.valid, result.problems
    assert result.size == result.required_size


def _replace_one(deck, number):
    return Deck(deck.battle, deck.army, deck.kind, deck.scale,
                [*deck.entries[:-1], DeckEntry(number)], deck.historical)


STANDARD_MUTATIONS = ("duplicate", "wrong_army", "extra", "missing", "terrain", "unknown")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dealt_decks(historical=st.just(False)), st.sampled_from(STANDARD_MUTATIONS),
       st.randoms(use_true_random=False))
def test_property_one_forbidden_change_makes_a_standard_deck_invalid(deck, move, rnd):
    counts = deck.counts()
    other_army = next(a for a in ("french", "british", "prussian") if a != deck.army)
    if move == "duplicate":
        changed, code = _replace_one(deck, deck.entries[0].number), "duplicate"
    elif move == "wrong_army":
        changed, code = _replace_one(deck, rnd.choice(numbers(other_army, "infantry"))), \
            "wrong_army"
    elif move == "extra":
        spare = rnd.choice([n for n in allowed(deck.battle, deck.army) if n not in counts])
        changed = Deck(deck.battle, deck.army, "dealt", deck.scale,
                       [*deck.entries, DeckEntry(spare)])
        code = "deck_size"
    elif move == "missing":
        changed, code = Deck(deck.battle, deck.army, "dealt", deck.scale,
                             deck.entries[1:]), "deck_size"
    elif move == "terrain":
        wrong = rnd.choice([b for b in BATTLES if b != deck.battle])
        changed = _replace_one(deck, numbers(deck.army, "terrain", wrong)[0])
        code = "terrain_not_historical"
    else:
        changed, code = _replace_one(deck, 10_000 + rnd.randrange(1000)), "unknown_card"
    result = validate(changed, CARDS)
    assert not result.valid
    assert codes(result) == {code}


@settings(max_examples=100, deadline=None)
@given(dealt_decks(historical=st.just(True)), st.randoms(use_true_random=False))
def test_property_a_card_not_at_the_battle_breaks_a_historical_deck(deck, rnd):
    changed = _replace_one(deck, rnd.choice(numbers(deck.army, absent=True)))
    assert codes(validate(changed, CARDS)) == {"not_historical"}


@st.composite
def custom_decks(draw):
    """A custom deck with one card at three copies, a general and a terrain, under its BP
    limit by at least 20 (room for any single forbidden addition to be the only problem)."""
    battle = draw(st.sampled_from(BATTLES))
    army = draw(st.sampled_from(sorted(BATTLES_CHART[battle])))
    scale = draw(st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2)]))
    rnd = draw(st.randoms(use_true_random=False))
    limit = int(BATTLES_CHART[battle][army].bp * scale)
    troops = [n for n in allowed(battle, army) if CARDS[n]["type"] not in ("general", "terrain")]
    rnd.shuffle(troops)
    entries = [DeckEntry(troops[0], 2, "gold"), DeckEntry(troops[0], 1),
               DeckEntry(numbers(army, "general")[0]),
               DeckEntry(numbers(army, "terrain", battle)[0])]
    total = 3 * CARDS[troops[0]]["bp"] + BP["general"] + BP["terrain"]
    for n in troops[1:]:
        copies = rnd.randint(1, 3)
        cost = copies * CARDS[n]["bp"]
        if total + cost > limit - 20 or rnd.random() < 0.1:
            break
        entries.append(DeckEntry(n, copies, rnd.choice([None, "gold", "silver", "bronze"])))
        total += cost
    return Deck(battle, army, "custom", scale, entries)


@settings(max_examples=150, deadline=None)
@given(custom_decks())
def test_property_custom_deck_from_allowed_moves_is_valid(deck):
    result = validate(deck, CARDS)
    assert result.valid, result.problems
    assert result.bp_total <= result.bp_limit
    assert result.muster == (None if (deck.battle, deck.army) == ("waterloo", "prussian")
                             else result.size // 2)


CUSTOM_MUTATIONS = ("fourth_copy", "duplicate_general", "duplicate_terrain", "bp", "wrong_army",
                    "terrain")


@settings(max_examples=200, deadline=None)
@given(custom_decks(), st.sampled_from(CUSTOM_MUTATIONS), st.randoms(use_true_random=False))
def test_property_one_forbidden_change_makes_a_custom_deck_invalid(deck, move, rnd):
    tripled, general, terrain = (deck.entries[0].number, deck.entries[2].number,
                                 deck.entries[3].number)
    add = []
    if move == "fourth_copy":
        add, code = [DeckEntry(tripled, 1, "bronze")], "too_many_copies"
    elif move == "duplicate_general":
        add, code = [DeckEntry(general, 1, "silver")], "duplicate_general"
    elif move == "duplicate_terrain":
        add, code = [DeckEntry(terrain)], "duplicate_terrain"
    elif move == "wrong_army":
        other = next(a for a in ("french", "british", "prussian") if a != deck.army)
        add, code = [DeckEntry(rnd.choice(numbers(other, "special")))], "wrong_army"
    elif move == "terrain":
        wrong = rnd.choice([b for b in BATTLES if b != deck.battle])
        add, code = [DeckEntry(numbers(deck.army, "terrain", wrong)[0])], "terrain_not_historical"
    else:
        code = "bp_exceeded"
        total = validate(deck, CARDS).bp_total
        limit = int(BATTLES_CHART[deck.battle][deck.army].bp * deck.scale)
        for n in numbers(deck.army, "infantry"):
            if n not in deck.counts():
                add.append(DeckEntry(n, 3))
                total += 3 * CARDS[n]["bp"]
                if total > limit:
                    break
    changed = Deck(deck.battle, deck.army, "custom", deck.scale, [*deck.entries, *add])
    result = validate(changed, CARDS)
    assert not result.valid
    assert codes(result) == {code}


# --- the real catalogue --------------------------------------------------------------------

CATALOGUE = Path(__file__).resolve().parent.parent / "cards" / "data" / "catalogue.json"


@pytest.mark.skipif(not CATALOGUE.exists(), reason="cards/data/catalogue.json not written yet")
def test_catalogue_builds_a_valid_waterloo_french_deck():
    cards = {c["number"]: c for c in json.loads(CATALOGUE.read_text("utf-8"))["cards"]}
    pool = [n for n, c in sorted(cards.items()) if c["army"] == "french"
            and "waterloo" in c["battles"]
            and (c["type"] != "terrain" or c["terrain_battle"] == "waterloo")]
    chosen = random.Random(1815).sample(pool, 36)
    deck = Deck("waterloo", "french", "dealt", 1, [DeckEntry(n) for n in chosen],
                historical=True)
    result = validate(deck, cards)
    assert result.valid, result.problems
    assert (result.size, result.muster, result.reinforcement_rate) == (36, 18, 2)
    wrong = [n for n, c in cards.items() if c["army"] == "british"][0]
    broken = Deck("waterloo", "french", "dealt", 1, [*deck.entries[1:], DeckEntry(wrong)])
    assert {p.code for p in validate(broken, cards).problems} >= {"wrong_army"}
