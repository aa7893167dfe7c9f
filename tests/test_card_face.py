"""Card faces and backs are drawn from data: well-formed, accessible, escaped, with the ratings."""

import xml.etree.ElementTree as ET

import pytest

from frontend.catalogue.card_face import (
    FINISH_COLOURS,
    fit_lines,
    render_card_back,
    render_card_svg,
    text_width,
)

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str, cls: str | None = None) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")
            if cls is None or cls in (t.get("class") or "").split()]


def infantry(**changes) -> dict:
    card = {"number": 42, "name": "Brigade Quiot", "army": "french", "type": "infantry",
            "ob": "I/1/Quiot", "cv": 3, "firepower": 2, "shock": 3, "morale": "c", "bp": 9,
            "battles": ["waterloo"]}
    return {**card, **changes}


@pytest.mark.django_db
def test_every_card_in_every_finish_is_well_formed(catalogue):
    from cards.catalogue.records import card_record
    from cards.models import Card

    cards = list(Card.objects.all())
    assert len(cards) == 300
    for card in cards:
        record = card_record(card)
        for finish in FINISH_COLOURS:
            svg = render_card_svg(record, finish)
            root = ET.fromstring(svg)  # raises on malformed XML
            assert root.tag == f"{SVG}svg" and root.get("role") == "img"
            title = root.find(f"{SVG}title")
            assert title is not None and card.name in title.text
            assert FINISH_COLOURS[finish] in svg
            assert str(card.number) in texts(svg, "number")
            if card.type in ("infantry", "cavalry", "artillery"):
                assert card.morale.upper() in texts(svg, "value")
                assert str(card.cv) in texts(svg, "value")


def test_names_are_escaped():
    for name in ["Ney & Staff", "D'Erlon <1er> \"Corps\"", "Napoléon — l'Empereur", "Bülow\x01"]:
        svg = render_card_svg(infantry(name=name), "gold")
        root = ET.fromstring(svg)
        title = root.find(f"{SVG}title").text
        assert title == f"#42 {name}".replace("\x01", "")
        assert "".join(texts(svg, "name")).replace(" ", "") == name.replace(" ", "").replace(
            "\x01", "")
    assert "&amp;" in render_card_svg(infantry(name="A & B"))
    assert "<1er>" not in render_card_svg(infantry(name="<1er>"))


def test_troop_ratings_and_ob():
    svg = render_card_svg(infantry(), "silver")
    assert texts(svg, "ob") == ["I/1/Quiot"]
    values = texts(svg, "value")
    for expected in ["3", "F2", "S3", "C", "9"]:
        assert expected in values
    assert 'data-finish="silver"' in svg and FINISH_COLOURS["silver"] in svg
    assert "#1f3f8f" in svg  # French blue frame


def test_artillery_long_short_and_horse_diagonal():
    foot = {"number": 69, "name": "Foot Battery", "army": "british", "type": "artillery",
            "cv": 2, "fire_long": 1, "fire_short": 3, "morale": "b", "bp": 8,
            "artillery_kind": "foot", "nationality": "kgl"}
    svg = render_card_svg(foot)
    assert "F1/F3" in texts(svg, "value") and "#a31f24" in svg
    assert "KGL" in "".join(texts(svg, "type-line"))
    horse = render_card_svg({**foot, "artillery_kind": "horse"})
    symbol = lambda s: ET.fromstring(s).find(f"{SVG}g[@class='symbol symbol-artillery']")  # noqa: E731
    assert len(symbol(horse).findall(f"{SVG}line")) == 1
    assert len(symbol(svg).findall(f"{SVG}line")) == 0


def test_general_terrain_special_faces():
    general = render_card_svg({"number": 1, "name": "Napoléon", "army": "french",
                               "type": "general", "offense": 3, "defense": 2, "corps": "A",
                               "bp": 20}, "gold")
    assert "3/2" in texts(general, "value") and "Army" in texts(general, "value")
    assert "Army Commander" in "".join(texts(general))
    assert "polygon" in general  # the star
    terrain = render_card_svg({"number": 280, "name": "Bierges Mill", "army": "prussian",
                               "type": "terrain", "terrain_class": "river",
                               "terrain_position": "r", "terrain_battle": "wavre",
                               "move_limit": 1, "bp": 4})
    values = texts(terrain, "value")
    assert {"River", "R", "1"} <= set(values) and "Wavre" in texts(terrain)
    assert "#4d5560" in terrain
    text = "Play in your Morale Phase: friendly troop cards in this Position add 1 to Morale. " * 4
    special = render_card_svg({"number": 93, "name": "Vive l'Empereur!", "army": "french",
                               "type": "special", "special_text": text,
                               "special_timing": "own_morale", "bp": 5})
    lines = texts(special, "special-text")
    assert 1 <= len(lines) <= 5 and lines[0].startswith("Play in your Morale Phase")
    assert lines[-1].endswith("…")
    assert "Own Morale" in texts(special)


def test_long_names_are_wrapped_and_shrunk():
    name = "1er Régiment de Grenadiers à Pied de la Garde Impériale"
    lines, size = fit_lines(name, 206, 2, 22, 11, bold=True)
    assert len(lines) == 2 and size < 22
    assert all(text_width(line, size, True) <= 206 for line in lines)
    assert len(texts(render_card_svg(infantry(name=name)), "name")) == 2


def test_unknown_finish_falls_back_to_bronze_and_ids_are_unique():
    svg = render_card_svg(infantry(), "platinum")
    assert 'data-finish="bronze"' in svg
    a = render_card_svg(infantry(), id_prefix="x1")
    assert 'id="x1-title"' in a and 'aria-labelledby="x1-title x1-desc"' in a


@pytest.mark.parametrize("army,colour", [("french", "#1f3f8f"), ("british", "#a31f24"),
                                         ("prussian", "#4d5560")])
def test_card_back_shows_only_the_army(army, colour):
    svg = render_card_back(army)
    root = ET.fromstring(svg)
    assert root.get("role") == "img" and colour in svg
    assert army.title() in root.find(f"{SVG}title").text
    assert 'data-army="' + army + '"' in svg
