"""The deck statistics chart: well-formed SVG drawn from data, every text escaped."""

import xml.etree.ElementTree as ET

from decks.stats import deck_statistics
from frontend.decks.chart import deck_chart

SVG = "{http://www.w3.org/2000/svg}"


def rows(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {g.get("data-label"): g.get("data-value") for g in root.iter(f"{SVG}g")}


def test_chart_is_well_formed_svg_with_a_bar_per_value():
    stats = {"by_type": {"general": 2, "infantry": 10, "cavalry": 0},
             "by_morale": {"a": 1, "b": 3, "none": 0}, "by_corps": {"I": 5, "A": 2}}
    root = ET.fromstring(deck_chart(stats))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("viewBox").startswith("0 0 360 ")
    assert rows(deck_chart(stats)) == {"General": "2", "Infantry": "10", "Cavalry": "0",
                                        "Morale A": "1", "Morale B": "3", "no morale": "0",
                                        "Corps I": "5", "Army (A)": "2"}
    assert len(list(root.iter(f"{SVG}rect"))) == 8


def test_largest_bar_is_full_width_and_zero_is_empty():
    root = ET.fromstring(deck_chart({"by_type": {"infantry": 10, "cavalry": 5, "terrain": 0}}))
    widths = [float(r.get("width")) for r in root.iter(f"{SVG}rect")]
    assert widths[0] == 2 * widths[1] and widths[2] == 0


def test_labels_and_title_are_escaped():
    nasty = '<script>alert("x")</script> & \'quotes\''
    svg = deck_chart({"by_corps": {nasty: 3}}, title=nasty)
    assert "<script>" not in svg
    root = ET.fromstring(svg)  # still well-formed
    assert root.get("aria-label") == nasty
    assert root.find(f"{SVG}title").text == nasty
    assert rows(svg)[f"Corps {nasty}"] == "3"


def test_empty_or_odd_statistics_still_draw():
    for stats in (None, {}, {"by_type": {}}, {"by_type": [("infantry", 2), "junk"]},
                  {"by_type": {"infantry": "x", "cavalry": -1, "general": 2.5}}):
        ET.fromstring(deck_chart(stats))
    assert rows(deck_chart({"by_type": {"general": 2.5}})) == {"General": "2.5"}


def test_chart_of_real_deck_statistics(catalogue):
    from decks.catalogue import cards_by_number

    cards = cards_by_number()
    french = [n for n, c in sorted(cards.items()) if c["army"] == "french"][:18]
    stats = deck_statistics([(n, 1, None) for n in french], cards)
    drawn = rows(deck_chart(stats))
    assert sum(int(drawn[t.capitalize()]) for t in stats["by_type"]) == 18
