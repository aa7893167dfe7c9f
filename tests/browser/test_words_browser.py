"""Words on the pages said as a player would (issue 28): the new-battle form explains its
scales and says what the weaker search computer is like without "experimental"; the
tournament form asks for the battle (no silent Waterloo) and the tournament page spells its
tiebreakers out."""

from playwright.sync_api import expect

from tournaments.models import Tournament


def test_forms_and_pages_say_it_as_a_player_would(logged_in_page):
    page = logged_in_page
    page.goto("/battles/")
    scale = page.get_by_test_id("scale")
    assert scale.locator("option[value='1']").inner_text() == "1: the armies as they fought"
    assert "shorter battle" in scale.locator("option[value='1/2']").inner_text()
    assert "longer battle" in scale.locator("option[value='2']").inner_text()
    expect(page.get_by_test_id("scale-help")).to_contain_text("The size of both armies")
    form = page.get_by_test_id("new-battle-form")
    expect(form).not_to_contain_text("experimental")
    expect(form).to_contain_text("plays no better than Greedy")

    page.goto("/tournaments/new/")
    battle = page.get_by_label("Battle")
    assert battle.input_value() == ""  # no default battle: the organiser chooses one
    page.get_by_label("Name", exact=True).fill("Spring Open")
    page.get_by_label("Format").select_option("swiss")
    page.get_by_test_id("create-submit").click()
    # the browser asks first (required), or the server answers why; nothing is created
    assert Tournament.objects.count() == 0
    battle.select_option("ligny")
    page.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("tournament-name")).to_have_text("Spring Open")
    assert Tournament.objects.get().battle == "ligny"
    expect(page.get_by_test_id("tiebreakers")).to_have_text(
        "Opponents' match-win %, then Game-win %, then Opponents' game-win %")
