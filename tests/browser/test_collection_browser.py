"""A user edits their collection in a real browser: add copies, watch completion change, remove
one, export the CSV."""

import pytest

from cards.models import Card, CollectionEntry

pytestmark = pytest.mark.django_db(transaction=True)


def test_edit_collection_in_the_browser(logged_in_page, tmp_path):
    page = logged_in_page
    page.goto("/collection/")
    cards_owned = page.get_by_test_id("cards-owned")
    assert cards_owned.inner_text() == "0"
    page.get_by_test_id("add-1-gold").click()
    page.get_by_test_id("qty-1-gold").filter(has_text="1").wait_for()
    page.get_by_test_id("add-1-gold").click()
    page.get_by_test_id("qty-1-gold").filter(has_text="2").wait_for()
    page.get_by_test_id("add-2-bronze").click()
    page.get_by_test_id("qty-2-bronze").filter(has_text="1").wait_for()
    cards_owned.filter(has_text="2").wait_for()
    assert page.get_by_test_id("printings-owned").inner_text() == "2"
    assert page.url.endswith("/collection/")  # htmx swapped the rows in place

    page.get_by_test_id("remove-2-bronze").click()
    page.get_by_test_id("qty-2-bronze").filter(has_text="0").wait_for()
    page.get_by_test_id("cards-owned").filter(has_text="1").wait_for()
    entries = {(e.printing.card.number, e.printing.finish): e.quantity
               for e in CollectionEntry.objects.select_related("printing__card")}
    assert entries == {(1, "gold"): 2}

    page.goto("/collection/import/")
    with page.expect_download() as download_info:
        page.get_by_test_id("export-link").click()
    path = tmp_path / "export.csv"
    download_info.value.save_as(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines == ["Count,Trade Count,Number,Name,Printing",
                     f"2,0,1,{Card.objects.get(number=1).name},Gold"]


def test_collection_page_fits_a_phone(logged_in_page):
    page = logged_in_page
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto("/collection/")
    page.get_by_test_id("add-3-silver").click()
    page.get_by_test_id("qty-3-silver").filter(has_text="1").wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375 + 1
