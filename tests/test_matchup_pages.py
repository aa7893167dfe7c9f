"""The matchup lab's pages and drawings (issue 14)."""

import pytest

from decks import services as deck_services
from frontend.matchups import charts
from matchups import enqueue, services
from matchups.models import Matchup


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(enqueue, "send_chunk", lambda *args: calls.append(args))
    return calls


def _deck(user, name, army, battle="ligny"):
    return deck_services.create_deck(user, name=name, battle=battle, army=army, kind="dealt",
                                     pool="set")


def test_charts_are_escaped_svg():
    plot = charts.win_rate_plot([[1, 1.0, 0.2, 1.0], [2, 0.5, 0.09, 0.91]], title="<A&B>")
    assert plot.startswith("<svg") and "&lt;A&amp;B&gt;" in plot and "<A&B>" not in plot
    assert 'class="ci-band"' in plot and 'class="win-rate"' in plot
    assert "no games yet" in charts.win_rate_plot([])
    bar = charts.progress_bar(3, 12)
    assert 'aria-valuenow="3"' in bar and 'width="90.0"' in bar
    assert 'aria-valuenow="12"' in charts.progress_bar(99, 12)


def test_deck_page_form_starts_a_matchup_and_the_page_draws_it(client, user, other_user,
                                                                catalogue, sent,
                                                                django_capture_on_commit_callbacks):
    deck = _deck(user, "Grande Armée", "french")
    _deck(user, "Blücher", "prussian")
    _deck(user, "Elsewhere", "prussian", battle="wavre")
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-testid="matchup-form"' in page and "Blücher v1" in page
    assert "Elsewhere" not in page.split('data-testid="matchup-form"')[1].split("</form>")[0]
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/matchups/", {"deck_a": deck.latest.pk, "deck_b": "historical",
                                       "bot_a": "greedy", "bot_b": "random", "games": "3",
                                       "seed": "2", "deck": deck.pk})
    m = Matchup.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/matchups/{m.pk}/"
    assert sent == [(m.pk, 0)] and (m.bot_a, m.bot_b, m.games, m.seed) == ("greedy", "random",
                                                                          3, 2)
    running = client.get(f"/matchups/{m.pk}/").content.decode()
    assert 'hx-trigger="every 1s"' in running and 'aria-valuenow="0"' in running
    assert "<script>" not in running and "onclick" not in running
    services.run_chunk(m.pk, 0)
    done = client.get(f"/matchups/{m.pk}/live/").content.decode()
    assert "every 1s" not in done and 'class="matchup-plot"' in done
    assert 'http-equiv="refresh"' in running  # without JavaScript, inside <noscript>
    earlier = client.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-testid="matchup-earlier"' in earlier and f'href="/matchups/{m.pk}/"' in earlier
    assert 'data-testid="matchup-cards"' in done and 'data-testid="matchup-results"' in done
    # Asking again: the stored answer.
    r = client.post("/matchups/", {"deck_a": deck.latest.pk, "deck_b": "historical",
                                   "bot_a": "greedy", "bot_b": "random", "games": "3",
                                   "seed": "2", "deck": deck.pk}, follow=True)
    assert r.redirect_chain[-1][0] == f"/matchups/{m.pk}/" and Matchup.objects.count() == 1
    # Bad input: back to the deck page with the reason.
    r = client.post("/matchups/", {"deck_a": deck.latest.pk, "games": "0", "deck": deck.pk},
                    follow=True)
    assert r.redirect_chain[-1][0] == f"/decks/{deck.pk}/"
    assert "Matchup not started: games must be from 1" in r.content.decode()
    # Someone else's matchup and deck: not found.
    client.force_login(other_user)
    assert client.get(f"/matchups/{m.pk}/").status_code == 404
    assert client.get(f"/matchups/{m.pk}/live/").status_code == 404
    assert client.post("/matchups/", {"deck_a": deck.latest.pk}).status_code == 404
