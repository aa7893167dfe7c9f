"""The matchup lab (issue 14): asking, dedup, chunks, determinism, the API, the limits, the CLI."""

import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from decks import services as deck_services
from matchups import enqueue, lab, services, tasks
from matchups.models import Matchup, MatchupChunk, Status


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(enqueue, "send_chunk", lambda *args: calls.append(args))
    return calls


def _deck(user, name="Grande Armée", battle="ligny", army="french"):
    deck = deck_services.create_deck(user, name=name, battle=battle, army=army, kind="dealt",
                                     pool="set")
    return deck.latest


@pytest.fixture
def decks(user, catalogue):
    return _deck(user), _deck(user, "Blücher", army="prussian")


def _run_all(m):
    for c in range(lab.chunk_count(m.games, m.chunk_size)):
        services.run_chunk(m.pk, c)
    m.refresh_from_db()
    return m


def test_ask_runs_in_chunks_and_the_same_question_is_asked_once(user, decks, sent,
                                                                 django_capture_on_commit_callbacks):
    a, b = decks
    with django_capture_on_commit_callbacks(execute=True):
        m, created = services.ask(user, a.pk, b.pk, "greedy,random", 12, 7)
    assert created and m.status == Status.QUEUED and m.plan["sides"] == {"a": "french",
                                                                         "b": "allied"}
    assert sent == [(m.pk, 0), (m.pk, 1)]  # 12 games: chunks of 10 and 2
    assert lab.chunk_size(("greedy", "random")) == 10 and lab.chunk_size(("search", "greedy")) == 2
    assert list(lab.chunk_games(2, 7, 3)) == [6] and lab.chunk_count(7, 3) == 3
    again, created = services.ask(user, a.pk, b.pk, ["greedy", "random"], 12, 7)
    assert again.pk == m.pk and not created and len(sent) == 2
    assert services.run_chunk(m.pk, 1) == 2
    m.refresh_from_db()
    assert m.status == Status.RUNNING and m.progress == 2 and not m.results
    assert services.run_chunk(m.pk, 1) == 0  # a doubled task changes nothing
    assert services.run_chunk(m.pk, 5) == 0  # no such chunk
    assert services.run_chunk(m.pk, 0) == 10
    m.refresh_from_db()
    assert m.status == Status.DONE and m.progress == 12 and m.finished_at
    assert MatchupChunk.objects.filter(matchup=m).count() == 2
    r = m.results
    assert r["games"] == 12 and sum(r["wins"].values()) == 12
    assert [row[0] for row in r["series"]] == list(range(1, 13))
    assert r["by_side"]["french"]["games"] == 12
    assert r["cards"]["wins"] or r["cards"]["losses"]
    assert services.run_chunk(m.pk, 0) == 0  # done: a late task changes nothing
    # A different question (another seed) is a new matchup.
    other, created = services.ask(user, a.pk, b.pk, "greedy,random", 12, 8)
    assert created and other.pk != m.pk


def test_same_seed_same_answer_and_historical_opponent(user, decks, sent):
    a, _ = decks
    first = _run_all(services.ask(user, a.pk, "historical", "greedy", 6, 3)[0])
    digest = first.results["digest"]
    assert first.deck_b is None and first.results["games"] == 6
    # Played again from scratch (the stored answer removed), the same seed gives the same games.
    Matchup.objects.all().delete()
    second = _run_all(services.ask(user, a.pk, None, ["greedy", "greedy"], 6, 3)[0])
    assert second.pk != first.pk and second.results["digest"] == digest
    third = _run_all(services.ask(user, a.pk, None, "greedy", 6, 4)[0])
    assert third.results["digest"] != digest


def test_api_create_progress_results(user, decks, sent, django_capture_on_commit_callbacks):
    a, b = decks
    api = APIClient()
    api.force_authenticate(user)
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/api/matchups/", {"deck_a": a.pk, "deck_b": b.pk, "bots": "greedy,greedy",
                                        "games": 4, "seed": 11}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["status"] == "queued" and body["progress"] == 0 and body["results"] is None
    assert body["deck_a"]["side"] == "french" and body["deck_b"]["id"] == b.pk
    assert sent == [(body["id"], 0)]
    services.run_chunk(body["id"], 0)
    r = api.get(f"/api/matchups/{body['id']}/")
    assert r.status_code == 200 and r.json()["status"] == "done" and r.json()["progress"] == 4
    assert set(r.json()["results"]["ci95"]) == {"a", "b", "draw"}
    again = api.post("/api/matchups/", {"deck_a": a.pk, "deck_b": b.pk, "bots": "greedy",
                                        "games": 4, "seed": 11}, format="json")
    assert again.status_code == 200 and again.json()["id"] == body["id"]


def test_api_refusals_are_precise(user, other_user, decks, sent):
    a, b = decks
    theirs = _deck(other_user, "Theirs", army="prussian")
    api = APIClient()
    api.force_authenticate(user)

    def post(**body):
        return api.post("/api/matchups/", body, format="json")

    missing = post(deck_a=a.pk, deck_b=999999)
    not_mine = post(deck_a=a.pk, deck_b=theirs.pk)
    assert missing.status_code == not_mine.status_code == 404
    assert missing.json()["detail"].replace("999999", "N") == \
        not_mine.json()["detail"].replace(str(theirs.pk), "N")
    assert post(deck_a=theirs.pk).status_code == 404
    cases = [
        ({"deck_b": b.pk}, "deck_a is required"),
        ({"deck_a": "x"}, "deck_a must be a deck version id"),
        ({"deck_a": a.pk, "games": 0}, "games must be from 1 to"),
        ({"deck_a": a.pk, "games": 10**6}, "games must be from 1 to"),
        ({"deck_a": a.pk, "seed": -1}, "seed must be from 0"),
        ({"deck_a": a.pk, "bots": "greedy,nobody"}, "unknown bot 'nobody'"),
        ({"deck_a": a.pk, "bots": ["greedy", "greedy", "random"]}, "bots must name two bots"),
        ({"deck_a": a.pk, "colour": "red"}, "unknown field 'colour'"),
        ({"deck_a": a.pk, "deck_b": a.pk}, "cannot play the allied side"),
    ]
    for body, words in cases:
        r = post(**body)
        assert r.status_code == 400 and words in r.json()["detail"], (body, r.json())
    wrong_battle = _deck(user, "Wavre", battle="wavre", army="prussian")
    r = post(deck_a=a.pk, deck_b=wrong_battle.pk)
    assert r.status_code == 400 and "is for wavre, not ligny" in r.json()["detail"]
    assert APIClient().post("/api/matchups/", {"deck_a": a.pk}, format="json").status_code \
        in (401, 403)
    other = APIClient()
    m, _ = services.ask(user, a.pk, None, "greedy", 2, 1)
    other.force_authenticate(other_user)
    assert other.get(f"/api/matchups/{m.pk}/").status_code == 404
    assert other.get("/api/matchups/999999/").json()["detail"].replace("999999", "N") == \
        other.get(f"/api/matchups/{m.pk}/").json()["detail"].replace(str(m.pk), "N")


def test_running_matchups_are_limited_per_user(user, other_user, decks, sent, settings):
    settings.EAGLES_MATCHUPS_ACTIVE = 2
    a, _ = decks
    api = APIClient()
    api.force_authenticate(user)
    for seed in (1, 2):
        assert api.post("/api/matchups/", {"deck_a": a.pk, "seed": seed, "games": 2},
                        format="json").status_code == 201
    r = api.post("/api/matchups/", {"deck_a": a.pk, "seed": 3, "games": 2}, format="json")
    assert r.status_code == 429 and r.json()["code"] == "too_many_matchups"
    assert "2 matchups queued or running" in r.json()["detail"]
    # Asking a stored question again is no new work: allowed.
    assert api.post("/api/matchups/", {"deck_a": a.pk, "seed": 1, "games": 2},
                    format="json").status_code == 200
    first = Matchup.objects.get(seed=1)
    services.run_chunk(first.pk, 0)  # one done: room for another
    assert api.post("/api/matchups/", {"deck_a": a.pk, "seed": 3, "games": 2},
                    format="json").status_code == 201


def test_the_per_minute_limit_of_expensive_endpoints_applies(user, decks, sent, settings):
    settings.EAGLES_EXPENSIVE_PER_MINUTE = 1
    a, _ = decks
    api = APIClient()
    api.force_login(user)
    assert api.post("/api/matchups/", {"deck_a": a.pk, "games": 1}, format="json"
                    ).status_code == 201
    r = api.post("/api/matchups/", {"deck_a": a.pk, "games": 1}, format="json")
    assert r.status_code == 429 and r["Retry-After"]


def test_cli_runs_in_process_with_progress_and_json(user, decks, capsys):
    a, b = decks
    call_command("matchup", str(a.pk), str(b.pk), "--games", "3", "--seed", "5",
                 "--bots", "greedy,random", "--json")
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["status"] == "done" and data["results"]["games"] == 3
    assert "3/3" in err
    m = Matchup.objects.get()
    assert m.results["digest"] == data["results"]["digest"]
    call_command("matchup", str(a.pk), str(b.pk), "--games", "3", "--seed", "5",
                 "--bots", "greedy,random", "--json")  # asked again: the stored answer
    out, err = capsys.readouterr()
    assert json.loads(out)["id"] == m.pk and "stored answer" in err
    call_command("matchup", str(a.pk), "historical", "--games", "2", "--seed", "5")
    out, _ = capsys.readouterr()
    assert "Grande Armée v1" in out and "win rate" in out and "95 %" in out
    from django.core.management.base import CommandError
    with pytest.raises(CommandError, match="no such deck version 999999"):
        call_command("matchup", "999999", "historical", "--games", "2")


def test_a_chunk_that_fails_fails_the_matchup_and_asking_again_retries(user, decks, sent,
                                                                     monkeypatch,
                                                                     django_capture_on_commit_callbacks):
    a, _ = decks
    m, _ = services.ask(user, a.pk, None, "greedy", 12, 1)
    assert services.run_chunk(m.pk, 1) == 2
    real = lab.play

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(lab, "play", broken)
    assert services.run_chunk(m.pk, 0) == 0
    m.refresh_from_db()
    assert m.status == Status.FAILED and m.error == "chunk 0 could not be played"
    assert services.run_chunk(m.pk, 0) == 0  # failed: nothing more runs
    monkeypatch.setattr(lab, "play", real)
    with django_capture_on_commit_callbacks(execute=True):
        again, created = services.ask(user, a.pk, None, "greedy", 12, 1)
    assert again.pk == m.pk and not created and again.status == Status.QUEUED
    assert sent[-1] == (m.pk, 0)  # only the missing chunk
    assert services.run_chunk(m.pk, 0) == 10
    m.refresh_from_db()
    assert m.status == Status.DONE and m.progress == 12 and m.results["games"] == 12


def test_a_custom_deck_plays_its_cards_with_its_muster_rule(user, catalogue, monkeypatch):
    from battles import simulate

    from .tournament_helpers import valid_entries

    entries = valid_entries("french", "quatre-bras")[:5]
    deck = deck_services.create_deck(user, name="half", battle="quatre-bras", army="french",
                                     kind="custom", scale="1/2", entries=entries)
    assert deck.latest.valid, deck.latest.problems
    seen = []
    real = simulate.play_game

    def spy(*args, **kwargs):
        seen.append((kwargs["decks"]["french"], kwargs["deck_kinds"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(simulate, "play_game", spy)
    m, _ = services.ask(user, deck.latest.pk, None, "greedy", 2, 1, enqueue=False)
    m = _run_all(m)
    cards = sorted(n for n, _, _ in deck.latest.entries)
    assert len(seen) == 2 and all(sorted(d) == cards for d, _ in seen)
    assert seen[0][1]["french"] == {"kind": "custom", "scale": "1/2"}
    listed = m.results["cards"]["wins"] + m.results["cards"]["losses"]
    assert listed and all(c["number"] in cards and c["present"] == 2 for c in listed)


def test_the_tick_sends_the_missing_chunks_of_a_stalled_matchup_again(user, decks, sent,
                                                                      settings):
    from datetime import timedelta

    from django.utils import timezone

    settings.EAGLES_MATCHUP_STALL_SECONDS = 60
    a, _ = decks
    m, _ = services.ask(user, a.pk, None, "greedy", 12, 1)
    fresh, _ = services.ask(user, a.pk, None, "greedy", 12, 2)
    services.run_chunk(m.pk, 1)
    Matchup.objects.filter(pk=m.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert tasks.tick() == [(m.pk, 0)] and sent == [(m.pk, 0)]
    assert tasks.tick() == []  # touched: not again at once
    services.run_chunk(m.pk, 0)
    Matchup.objects.update(updated_at=timezone.now() - timedelta(minutes=5))
    assert tasks.tick() == [(fresh.pk, 0), (fresh.pk, 1)]  # a done one is left alone
