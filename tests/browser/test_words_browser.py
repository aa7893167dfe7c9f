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


def test_the_log_says_auto_plays_and_morale_rolls_as_a_player_would(logged_in_page, sent,
                                                                    monkeypatch):
    """The battle page's log (issue 28, "Words"): an auto-play says why ("(played
    automatically: no answer held)" before); a morale roll gives the card's grade and each
    modifier, never a bare "(morale 5)" beside cards graded A-D."""
    import re
    from contextlib import nullcontext

    from django.contrib.auth.models import User

    from battles import selectors, services
    from battles.models import Status

    from ..kinds import battle_tasks as tasks
    from ..test_autoplay_flag import NO_ANSWER, _choose, _played

    alice = User.objects.get(username="alice")
    b, _ = _played(alice, lambda **kwargs: nullcontext(), monkeypatch)
    for _ in range(3000):  # on to the first morale roll (the French keep clicking)
        b.refresh_from_db()
        if b.status != Status.ACTIVE or any(
                e.get("type") == "morale" for e in selectors.battle_view(b, alice)["log"]):
            break
        if services.priority(b) == "french":
            legal = selectors.battle_view(b, alice)["legal_actions"]
            services.act(b.pk, alice, b.seq, _choose(b, legal))
        else:
            assert tasks.bot_move(b.pk, b.seq) >= 1
    page = logged_in_page
    page.goto(f"/battles/{b.pk}/")
    lines = page.get_by_test_id("log-line")
    expect(lines.filter(has_text="You passed " + NO_ANSWER.format("you")).first).to_be_attached()
    texts = lines.all_text_contents()
    assert not [t for t in texts if "no answer held" in t]
    rolls = [t for t in texts if "against morale" in t]
    assert rolls, "no morale roll in the log"
    assert all(re.search(r"\(grade [A-D]", t) for t in rolls), rolls
    assert not [t for t in texts if re.search(r"\(morale \d\)", t)]
