import copy
import json

import pytest
from django.core.management import CommandError, call_command

from cards.catalogue.loader import DATA_FILE, CatalogueError, load_catalogue
from cards.models import Card, CatalogueRelease, CollectionEntry, Printing

pytestmark = pytest.mark.django_db


def _data() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def _write(tmp_path, data: dict, name: str = "catalogue.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_catalogue_has_300_cards_in_three_printings(catalogue):
    assert Card.objects.count() == 300
    assert Card.objects.filter(army="french").count() == 110
    assert Card.objects.filter(army="british").count() == 90
    assert Card.objects.filter(army="prussian").count() == 100
    assert Printing.objects.count() == 900
    assert set(Printing.objects.values_list("finish", flat=True)) == {"gold", "silver", "bronze"}


def test_loading_again_changes_nothing(catalogue):
    before = list(Card.objects.order_by("number").values())
    report = load_catalogue()
    assert not report.changed and report.unchanged == 300
    assert list(Card.objects.order_by("number").values()) == before
    assert CatalogueRelease.objects.count() == 1


def test_corrected_file_updates_cards_without_breaking_collections(catalogue, tmp_path, user):
    card = Card.objects.get(number=1)
    printing = card.printings.get(finish="gold")
    CollectionEntry.objects.create(user=user, printing=printing, quantity=2)
    data = _data()
    data["version"] = data["version"] + ".fix1"
    fixed = copy.deepcopy(data["cards"][0])
    fixed["source"] = "corrected in a later data release"
    data["cards"][0] = fixed
    report = load_catalogue(_write(tmp_path, data))
    assert report.updated == [1] and not report.created
    card.refresh_from_db()
    assert card.source == "corrected in a later data release"
    assert card.data_version == data["version"]
    assert CollectionEntry.objects.get(user=user).printing_id == printing.id
    assert Card.objects.get(number=2).data_version != data["version"]


def test_changed_file_with_same_version_is_refused(catalogue, tmp_path):
    data = _data()
    data["cards"][0]["source"] = "sneaky change"
    with pytest.raises(CatalogueError, match="new version"):
        load_catalogue(_write(tmp_path, data))
    assert Card.objects.get(number=1).source != "sneaky change"


def test_a_card_can_never_be_removed(catalogue, tmp_path):
    data = _data()
    data["version"] += ".drop"
    data["cards"] = data["cards"][:-1]
    with pytest.raises(CatalogueError):
        load_catalogue(_write(tmp_path, data))
    assert Card.objects.count() == 300


@pytest.mark.parametrize("content, message", [
    (b"{not json", "invalid JSON at line 1"),
    (b"\xff\xfe garbage", "not UTF-8"),
])
def test_unreadable_file_gives_a_clear_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("load_catalogue", file=path)


def test_invalid_card_is_reported_and_nothing_loads(db, tmp_path):
    data = _data()
    data["cards"][4]["morale"] = "z"
    with pytest.raises(CommandError, match="#5"):
        call_command("load_catalogue", file=_write(tmp_path, data))


def test_export_json_lists_every_card_with_documented_fields(catalogue, capsys):
    call_command("export_catalogue", format="json")
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 300
    first = records[0]
    for key in ("number", "name", "army", "type", "battles", "bp", "catalogue_version"):
        assert key in first
    assert all(r["army"] in {"french", "british", "prussian"} for r in records)
    slugs = {slug for r in records for slug in r["battles"]}
    assert slugs == {"quatre-bras", "ligny", "wavre", "waterloo"}
    assert {r["catalogue_version"] for r in records} == {_data()["version"]}


def test_export_csv_has_a_row_per_card(catalogue, capsys):
    call_command("export_catalogue", format="csv")
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("number,name,army")
    assert len(lines) == 301


def test_version_1_1_0_corrections_update_exactly_the_corrected_cards(db, tmp_path):
    """Issue 9: a database holding 1.0.0 (rebuilt from the README's corrections table) takes
    1.1.0 as a correction: only the cards in the table change, and they carry the new
    data_version; every other card keeps 1.0.0."""
    from cards.data import corrections

    current = corrections.rebuild(_data(), "1.1.0+2026-11-24")
    previous = corrections.undo(current, "1.1.0", "1.0.0+2026-11-22")
    Printing.objects.all().delete()  # start from an empty catalogue (rolled back after)
    Card.objects.all().delete()
    CatalogueRelease.objects.all().delete()
    load_catalogue(_write(tmp_path, previous, "v1_0.json"))
    report = load_catalogue(_write(tmp_path, current, "v1_1.json"))
    corrected = sorted({row["card"] for row in corrections.rows("1.1.0")})
    assert report.updated == corrected and not report.created and not report.printings_created
    assert report.unchanged == 300 - len(corrected)
    versions = dict(Card.objects.values_list("number", "data_version"))
    assert {n for n, v in versions.items() if v == current["version"]} == set(corrected)
    assert {v for n, v in versions.items() if n not in corrected} == {"1.0.0+2026-11-22"}
    assert Card.objects.get(number=169).battles == ["quatre-bras", "waterloo"]
    assert Card.objects.get(number=44).name == "Brigade Thévenet"
    assert CatalogueRelease.objects.count() == 2
    assert Printing.objects.count() == 900


def test_version_1_2_0_corrections_update_exactly_the_corrected_cards(db, tmp_path):
    """Issue 29: a database holding 1.1.0 takes 1.2.0 as a correction: only the cards of the
    README's 1.2.0 table change and carry the new data_version (Detmers' morale among them);
    every other card keeps its own."""
    from cards.data import corrections

    current = corrections.rebuild(_data(), "1.2.0+2026-11-27")
    previous = corrections.rebuild(current, "1.1.0+2026-11-24")
    Printing.objects.all().delete()
    Card.objects.all().delete()
    CatalogueRelease.objects.all().delete()
    load_catalogue(_write(tmp_path, previous, "v1_1.json"))
    report = load_catalogue(_write(tmp_path, current, "v1_2.json"))
    corrected = sorted({row["card"] for row in corrections.rows("1.2.0")})
    assert report.updated == corrected and not report.created and not report.printings_created
    versions = dict(Card.objects.values_list("number", "data_version"))
    assert {n for n, v in versions.items() if v == current["version"]} == set(corrected)
    assert current["version"] not in {v for n, v in versions.items() if n not in corrected}
    detmers = Card.objects.get(number=134)
    assert (detmers.morale, detmers.bp) == ("d", 10)


def test_version_1_3_0_corrections_update_exactly_the_corrected_cards(db, tmp_path):
    """Issue 29, every card's battles checked: a database holding 1.2.0 takes 1.3.0 as a
    correction: only Ompteda's brigade (#130, out of Quatre Bras) and the 1st Division's guns
    (#164, into it) change and carry the new data_version; every other card keeps 1.2.0."""
    from cards.data import corrections

    current = _data()
    previous = corrections.rebuild(current, "1.2.0+2026-11-27")
    Printing.objects.all().delete()
    Card.objects.all().delete()
    CatalogueRelease.objects.all().delete()
    load_catalogue(_write(tmp_path, previous, "v1_2.json"))
    report = load_catalogue(DATA_FILE)
    corrected = sorted({row["card"] for row in corrections.rows("1.3.0")})
    assert corrected == [130, 164]
    assert report.updated == corrected and not report.created and not report.printings_created
    assert report.unchanged == 298
    versions = dict(Card.objects.values_list("number", "data_version"))
    assert {n for n, v in versions.items() if v == current["version"]} == {130, 164}
    assert {v for n, v in versions.items() if n not in (130, 164)} == {"1.2.0+2026-11-27"}
    assert Card.objects.get(number=130).battles == ["waterloo"]
    assert Card.objects.get(number=164).battles == ["quatre-bras", "waterloo"]
    assert Printing.objects.count() == 900
