# Over 500 lines on purpose: one idea, the tournament services in the order a tournament runs them.
"""Tournament services: registration, start, pairing, reports, disputes, corrections, time
limit, drops, pause, formats, the clock step (called directly; the worker tests run it)."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from decks.models import DeckVersion
from tournaments import services
from tournaments.models import Entry, Match, ResultLog, Round, StandingSnapshot, Status

from .tournament_helpers import field, organiser, player, register, report_both, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(catalogue):
    return organiser()


def current_matches(t, number=None):
    """The round's played matches (byes excluded); never empty, so a loop over them runs
    (a test looping over nothing would pass without checking anything)."""
    t.refresh_from_db()
    matches = list(Match.objects.filter(tournament=t, round__number=number or t.current_round,
                                        allied__isnull=False))
    assert matches, f"round {number or t.current_round} has no matches"
    return matches


def play_round(t, rng):
    for m in current_matches(t):
        report_both(m, {"result": rng.choice(["french", "allied", "draw"])})


# --- registration ----------------------------------------------------------------------------

def test_registration_needs_one_valid_owned_deck_per_army(org):
    t = tournament(org)
    user, versions = player("ney")
    entry = register(t, user, versions)
    assert entry.french_version == versions["french"]
    assert entry.british_version == versions["british"] and entry.prussian_version is None


def test_waterloo_needs_a_prussian_deck_too(org):
    t = tournament(org, battle="waterloo")
    user, versions = player("blucher", "waterloo")
    with pytest.raises(services.TournamentError, match="prussian_version is required"):
        services.register(t.pk, user, french_version=versions["french"].pk,
                          british_version=versions["british"].pk)
    assert register(t, user, versions).prussian_version == versions["prussian"]


def test_foreign_deck_is_refused_and_nothing_changes(org):
    t = tournament(org)
    user, _ = player("ney")
    _, theirs = player("soult")
    with pytest.raises(services.TournamentError) as exc:
        register(t, user, theirs)
    assert exc.value.status == 400 and exc.value.problems == [
        f"no such deck version {theirs['french'].pk} among your decks"]
    # the other player's private deck name is never named (issue 11: no enumeration)
    assert theirs["french"].deck.name not in str(exc.value.message) + str(exc.value.extra)
    assert not Entry.objects.exists()


def test_invalid_deck_is_refused(org):
    t = tournament(org)
    user, versions = player("ney")
    draft = versions["french"].deck
    from decks import services as deck_services

    bad = deck_services.save_version(draft, entries=[(1, 2, None)])  # 15.0: a General twice
    assert not bad.valid
    with pytest.raises(services.TournamentError) as exc:
        services.register(t.pk, user, french_version=bad.pk,
                          british_version=versions["british"].pk)
    assert any("breaks the deck rules" in p for p in exc.value.extra["problems"])
    assert not Entry.objects.exists()


def test_deck_for_another_battle_or_army_is_refused(org):
    t = tournament(org, battle="quatre-bras")
    user, versions = player("ney")
    with pytest.raises(services.TournamentError) as exc:
        services.register(t.pk, user, french_version=versions["british"].pk,
                          british_version=versions["french"].pk)
    assert any("not french" in p for p in exc.value.extra["problems"])
    _, ligny = player("grouchy", "ligny")
    with pytest.raises(services.TournamentError, match="does not fight at Quatre Bras"):
        services.register(t.pk, user, french_version=versions["french"].pk,
                          british_version=versions["british"].pk,
                          prussian_version=ligny["prussian"].pk)


def test_deck_not_backed_by_the_collection_is_refused(org):
    t = tournament(org)
    user, versions = player("ney", own=False)
    with pytest.raises(services.TournamentError) as exc:
        register(t, user, versions)
    assert any("collection" in p for p in exc.value.extra["problems"])


def test_second_registration_is_a_conflict(org):
    t = tournament(org)
    user, versions = player("ney")
    register(t, user, versions)
    with pytest.raises(services.Conflict):
        register(t, user, versions)
    services.withdraw(t.pk, user)
    assert not t.entries.exists()


def _two_players(org):
    """Two tournaments and an opponent in each (so either can start)."""
    a, b = tournament(org, name="Ligny Open"), tournament(org, name="Wavre Cup")
    for t, name in ((a, "soult"), (b, "grouchy")):
        other, theirs = player(name)
        register(t, other, theirs)
    return a, b


def test_a_deck_version_plays_one_active_tournament_at_a_time(org):
    a, b = _two_players(org)
    user, versions = player("ney")
    register(a, user, versions)
    with pytest.raises(services.TournamentError) as exc:
        register(b, user, versions)
    assert "Ligny Open" in exc.value.message and f"#{a.pk}" in exc.value.message
    assert sum("already entered" in p for p in exc.value.extra["problems"]) == 2
    assert not b.entries.filter(user=user).exists()
    # withdrawing frees it
    services.withdraw(a.pk, user)
    register(b, user, versions)
    # ... and now it is held by b
    with pytest.raises(services.TournamentError, match="Wavre Cup"):
        register(a, user, versions)


def test_a_running_tournament_holds_the_version_until_a_drop_or_its_end(org):
    a, b = _two_players(org)
    user, versions = player("ney")
    register(a, user, versions)
    services.start_tournament(a.pk, org)
    with pytest.raises(services.TournamentError, match="Ligny Open"):
        register(b, user, versions)
    services.withdraw(a.pk, user)  # after the start: a drop, which frees the version
    register(b, user, versions)
    services.withdraw(b.pk, user)
    c = tournament(org, name="Later")
    entry = Entry.objects.get(tournament=a, user=user)
    assert entry.dropped  # still listed in a, but no longer holds the version
    register(c, user, versions)
    services.withdraw(c.pk, user)
    # a tournament that finishes frees it too
    a2 = tournament(org, name="Short", rounds=1)
    register(a2, user, versions)
    register(a2, *player("murat"))
    services.start_tournament(a2.pk, org)
    with pytest.raises(services.TournamentError, match="Short"):
        register(c, user, versions)
    for m in current_matches(a2):
        report_both(m, {"result": "french"})
    a2.refresh_from_db()
    assert a2.status == Status.FINISHED
    register(c, user, versions)


def test_the_lock_is_per_version(org):
    a, b = _two_players(org)
    user, versions = player("ney")
    register(a, user, versions)
    from cards.models import CollectionEntry
    from decks import services as deck_services

    # new versions of the same decks are not held by a - but their cards are committed to a
    # (entered, not started yet): a second copy of each card lets them in
    newer = {army: deck_services.save_version(v.deck) for army, v in versions.items()}
    with pytest.raises(services.TournamentError, match="cannot be registered"):
        register(b, user, newer)
    CollectionEntry.objects.filter(user=user).update(quantity=2)
    assert register(b, user, newer).french_version == newer["french"]


def test_copies_entered_in_a_tournament_not_started_are_committed(org):
    """Two different versions sharing cards, in two tournaments that have not started: the
    second registration counts the first one's copies (locked or not)."""
    from decks import services as deck_services

    a, b = _two_players(org)
    user, versions = player("ney")
    register(a, user, versions)
    newer = {army: deck_services.save_version(v.deck) for army, v in versions.items()}
    with pytest.raises(services.TournamentError) as exc:
        register(b, user, newer)
    problems = exc.value.extra["problems"]
    assert len(problems) == 2 and all("collection" in p for p in problems)
    assert not b.entries.filter(user=user).exists()
    # withdrawing from a frees the copies
    services.withdraw(a.pk, user)
    register(b, user, newer)
    # a dropped entry (after a start) frees them too
    services.withdraw(b.pk, user)
    register(a, user, versions)
    services.start_tournament(a.pk, org)
    services.drop(a.pk, user, Entry.objects.get(tournament=a, user=user).pk)
    c = tournament(org, name="Later")
    # (a still runs: version 1 stays locked until a ends, so newer is still short)
    with pytest.raises(services.TournamentError, match="cannot be registered"):
        register(c, user, newer)
    assert register(c, user, versions).french_version == versions["french"]


def _remove_one_card(user, version):
    from cards.models import CollectionEntry

    number = version.entries[0][0]
    CollectionEntry.objects.filter(user=user, printing__card__number=number).delete()
    return number


@pytest.mark.parametrize("fmt", ["swiss", "round_robin", "single_elimination",
                                 "double_elimination"])
def test_start_drops_a_player_whose_collection_no_longer_covers_the_deck(org, fmt):
    t, users = field(org, 5, format=fmt)
    ney = users[1]
    entry = Entry.objects.get(tournament=t, user=ney)
    _remove_one_card(ney, entry.french_version)  # traded away since registration
    rnd = services.start_tournament(t.pk, org)
    entry.refresh_from_db()
    assert entry.dropped and entry.dropped_after_round == 0 and not entry.no_show
    assert "not started" in entry.drop_reason
    assert f"deck version {entry.french_version_id}" in entry.drop_reason
    played = {x for m in rnd.matches.all() for x in m.players() if x}
    assert entry.pk not in played and len(played) == 4
    assert DeckVersion.objects.get(pk=entry.french_version_id).locked_at is None
    others = Entry.objects.filter(tournament=t).exclude(pk=entry.pk)
    assert all(DeckVersion.objects.get(pk=e.french_version_id).locked_at for e in others)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    if fmt == "round_robin":
        assert t.planned_rounds == 3  # 4 players
    # the organiser sees it on the players list
    from tournaments.serializers import TournamentEntrySerializer

    assert TournamentEntrySerializer(entry).data["drop_reason"] == entry.drop_reason
    run_to_end(t, random.Random(3))
    t.refresh_from_db()
    assert t.status == Status.FINISHED


def test_start_counts_copies_held_by_a_started_tournament(org):
    """At the start, copies locked by a tournament that started first are not free: the
    second tournament starts without the player (the first one keeps the cards)."""
    from cards.models import CollectionEntry
    from decks import services as deck_services

    a, b = _two_players(org)
    user, versions = player("ney")
    CollectionEntry.objects.filter(user=user).update(quantity=2)
    register(a, user, versions)
    newer = {army: deck_services.save_version(v.deck) for army, v in versions.items()}
    register(b, user, newer)
    register(b, *player("vandamme"))
    CollectionEntry.objects.filter(user=user).update(quantity=1)  # traded one copy away
    services.start_tournament(a.pk, org)
    assert not Entry.objects.get(tournament=a, user=user).dropped
    services.start_tournament(b.pk, org)
    entry = Entry.objects.get(tournament=b, user=user)
    assert entry.dropped_after_round == 0 and "collection" in entry.drop_reason


def test_start_with_fewer_than_2_covered_players_changes_nothing(org):
    t, users = field(org, 2)
    entry = Entry.objects.get(tournament=t, user=users[0])
    _remove_one_card(users[0], entry.french_version)
    with pytest.raises(services.Conflict, match="collections"):
        services.start_tournament(t.pk, org)
    entry.refresh_from_db()
    t.refresh_from_db()
    assert not entry.dropped and entry.drop_reason == "" and t.status == Status.REGISTRATION
    assert not DeckVersion.objects.filter(locked_at__isnull=False).exists()


def test_copies_locked_by_another_deck_or_version_are_not_free(org):
    """The collection (one copy of each card) covers one deck at a time: copies locked by a
    running tournament are not free for another deck - nor for another version of the same
    deck - in a second tournament."""
    from decks import services as deck_services
    from decks.selectors import free_copies

    a, b = _two_players(org)
    user, versions = player("ney")
    register(a, user, versions)
    services.start_tournament(a.pk, org)
    assert DeckVersion.objects.get(pk=versions["french"].pk).locked_at is not None
    french = versions["french"]
    numbers = [n for n, _, _ in french.entries]
    # another deck with the same cards: the deck check subtracts the locked version
    twin = deck_services.create_deck(user, name="twin", battle=french.battle, army="french",
                                     entries=[tuple(e) for e in french.entries]).latest
    assert all(free_copies(user, twin).get(n, 0) == 0 for n in numbers)
    # (the British side is covered: a second British deck with a second copy of its cards)
    from cards.models import CollectionEntry

    british = versions["british"]
    CollectionEntry.objects.filter(
        user=user, printing__card__number__in=[n for n, _, _ in british.entries]
    ).update(quantity=2)
    british2 = deck_services.create_deck(user, name="b2", battle=british.battle,
                                         army="british",
                                         entries=[tuple(e) for e in british.entries]).latest
    with pytest.raises(services.TournamentError) as exc:
        services.register(b.pk, user, french_version=twin.pk, british_version=british2.pk)
    problems = exc.value.extra["problems"]
    assert any(f"deck version {twin.pk}" in p and "collection" in p for p in problems)
    # another version of the locked deck itself: its locked version 1 holds the copies
    v2 = deck_services.save_version(french.deck)
    with pytest.raises(services.TournamentError) as exc:
        services.register(b.pk, user, french_version=v2.pk, british_version=british2.pk)
    assert [p for p in exc.value.extra["problems"]
            if f"deck version {v2.pk}" in p and "collection" in p]
    assert not any("british" in p for p in exc.value.extra["problems"])
    assert not b.entries.filter(user=user).exists()
    # a second copy of every French card: the other deck fits
    CollectionEntry.objects.filter(user=user, printing__card__number__in=numbers).update(
        quantity=2)
    entry = services.register(b.pk, user, french_version=twin.pk, british_version=british2.pk)
    assert entry.french_version_id == twin.pk


# --- a whole Swiss ---------------------------------------------------------------------------

def test_swiss_registers_pairs_takes_results_and_shows_standings(org):
    t, users = field(org, 8)
    rnd = services.start_tournament(t.pk, org)
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.planned_rounds == 3 and rnd.number == 1
    assert DeckVersion.objects.filter(locked_at__isnull=False).count() == 16
    rng = random.Random(7)
    met = set()
    for number in (1, 2, 3):
        matches = current_matches(t, number)
        assert len(matches) == 4
        for m in matches:
            assert frozenset((m.french_id, m.allied_id)) not in met
            met.add(frozenset((m.french_id, m.allied_id)))
        play_round(t, rng)
        if number < 3:
            services.advance(t.pk)  # on completion: the clock pairs the next round
    t.refresh_from_db()
    assert t.status == Status.FINISHED and t.current_round == 3
    assert StandingSnapshot.objects.filter(tournament=t).count() == 3
    rows = StandingSnapshot.objects.get(tournament=t, round_number=3).rows
    assert [r["rank"] for r in rows] == list(range(1, 9))
    assert rows[0]["match_points"] >= rows[-1]["match_points"]
    assert set(rows[0]["how"]) >= {"omw", "gw", "ogw", "french", "allied", "match_points"}
    # decks are released at the end
    assert not DeckVersion.objects.filter(locked_at__isnull=False).exists()


def test_odd_field_gives_a_bye_worth_a_win(org):
    t, _ = field(org, 5)
    rnd = services.start_tournament(t.pk, org)
    byes = list(Match.objects.filter(round=rnd, allied__isnull=True))
    assert len(byes) == 1 and byes[0].state == Match.State.SETTLED
    assert byes[0].french_games == 1 and byes[0].source == "bye"


def test_round_started_twice_is_a_conflict_and_changes_nothing(org):
    t, _ = field(org, 4)
    services.start_tournament(t.pk, org)
    with pytest.raises(services.Conflict, match="already started"):
        services.start_tournament(t.pk, org)
    with pytest.raises(services.Conflict, match="already paired"):
        services.pair_round(t.pk, 1, user=org)
    with pytest.raises(services.Conflict, match="not complete"):
        services.pair_round(t.pk, 2, user=org)
    # a task (not strict) gets the existing round back, unchanged
    assert services.pair_round(t.pk, 1, strict=False).number == 1
    assert services.pair_round(t.pk, 2, strict=False) is None
    assert Round.objects.filter(tournament=t).count() == 1
    assert Match.objects.filter(tournament=t).count() == 2


def test_only_the_organiser_starts(org):
    t, users = field(org, 4)
    with pytest.raises(services.NotAllowed):
        services.start_tournament(t.pk, users[0])


# --- results ---------------------------------------------------------------------------------

@pytest.fixture
def running(org):
    t, users = field(org, 4)
    services.start_tournament(t.pk, org)
    return t, users


def players_of(m):
    return [Entry.objects.get(pk=e).user for e in m.players()]


def test_agreement_settles(running):
    t, _ = running
    m = current_matches(t)[0]
    a, b = players_of(m)
    assert services.report_result(m.pk, a, {"result": "french"}).state == "reported"
    m = services.report_result(m.pk, b, {"result": "french"})
    assert m.state == "settled" and (m.french_games, m.allied_games) == (1, 0)
    assert m.source == "agreement" and m.log.get().source == ResultLog.Source.AGREEMENT


def test_disagreement_is_a_dispute_the_organiser_settles(running, org):
    t, _ = running
    m = current_matches(t)[0]
    a, b = players_of(m)
    services.report_result(m.pk, a, {"result": "french"})
    m = services.report_result(m.pk, b, {"result": "allied"})
    assert m.state == "disputed"
    with pytest.raises(services.NotAllowed):
        services.settle_dispute(m.pk, a, {"result": "french"}, "I won")
    m = services.settle_dispute(m.pk, org, {"result": "allied"}, "judge saw it")
    assert m.state == "settled" and m.allied_games == 1
    log = m.log.get()
    assert log.by == org and log.reason == "judge saw it" and log.source == "organiser"


def test_report_for_a_match_not_yours_is_refused(running):
    t, users = running
    m1, m2 = current_matches(t)
    outsider = players_of(m2)[0]
    with pytest.raises(services.NotAllowed, match="not your match"):
        services.report_result(m1.pk, outsider, {"result": "french"})
    assert not m1.reports.exists()


def test_second_report_is_refused(running):
    t, _ = running
    m = current_matches(t)[0]
    a, _ = players_of(m)
    services.report_result(m.pk, a, {"result": "french"})
    with pytest.raises(services.Conflict, match="already reported"):
        services.report_result(m.pk, a, {"result": "allied"})
    assert m.reports.count() == 1


def test_malformed_results_are_refused(running):
    t, _ = running
    m = current_matches(t)[0]
    a, _ = players_of(m)
    for bad in ({"result": "win"}, {"french_games": 2, "allied_games": 0}, {},
                {"french_games": "x", "allied_games": 0}, {"double_loss": True}):
        with pytest.raises(services.TournamentError):
            services.report_result(m.pk, a, bad)
    assert not m.reports.exists()


def test_correction_is_logged_with_who_and_why_and_restandings(running, org):
    t, _ = running
    for m in current_matches(t):
        report_both(m, {"result": "french"})
    m = current_matches(t, 1)[0]
    with pytest.raises(services.TournamentError, match="reason"):
        services.correct_result(m.pk, org, {"result": "allied"}, "")
    before = {r["player"]: r["match_points"] for r in
              StandingSnapshot.objects.get(tournament=t, round_number=1).rows}
    services.correct_result(m.pk, org, {"result": "allied"}, "slip was wrong")
    log = m.log.order_by("-id").first()
    assert log.source == "correction" and log.by == org and log.reason == "slip was wrong"
    assert log.before["french_games"] == 1 and log.after["allied_games"] == 1
    after = {r["player"]: r["match_points"] for r in
             StandingSnapshot.objects.get(tournament=t, round_number=1).rows}
    assert after[str(m.french_id)] == before[str(m.french_id)] - 3
    assert after[str(m.allied_id)] == before[str(m.allied_id)] + 3


def test_record_result_is_the_one_entry_point_for_online_results(running):
    t, _ = running
    m = current_matches(t)[0]
    m = services.record_result(m.pk, {"result": "allied"}, source="online")
    assert m.state == "settled" and m.log.get().source == "online"
    with pytest.raises(services.Conflict, match="already has a result"):
        services.record_result(m.pk, {"result": "french"}, source="online")


# --- time limit, clock -----------------------------------------------------------------------

def test_time_limit_result(running):
    t, _ = running
    m1, m2 = current_matches(t)
    a, _ = players_of(m1)
    services.report_result(m1.pk, a, {"result": "allied"})  # one report: it stands
    rnd = m1.round
    later = rnd.ends_at + timedelta(seconds=1)
    assert services.time_limit(rnd.pk, now=rnd.ends_at - timedelta(seconds=1)) == 0
    done = services.advance(t.pk, now=later)
    assert any("at time" in d for d in done)
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert (m1.allied_games, m1.source) == (1, "time_limit")
    assert (m2.draws, m2.source) == (1, "time_limit")  # no report: a draw
    rnd.refresh_from_db()
    assert rnd.timed_out and rnd.state == "finished"
    assert "round 2 paired" in done
    assert services.advance(t.pk, now=later) == []  # doubled: nothing


def test_clock_runs_registration_check_in_and_no_shows(org):
    now = timezone.now()
    t, users = field(org, 4, registration_closes_at=now + timedelta(minutes=1),
                     check_in_opens_at=now + timedelta(minutes=2),
                     starts_at=now + timedelta(minutes=3))
    assert services.advance(t.pk, now=now) == []
    assert services.advance(t.pk, now=now + timedelta(seconds=61)) == ["registration closed"]
    late, versions = player("late")
    with pytest.raises(services.Conflict, match="closed"):
        register(t, late, versions)
    assert services.advance(t.pk, now=now + timedelta(seconds=121)) == ["check-in opened"]
    for u in users[:3]:
        services.check_in(t.pk, u)
    done = services.advance(t.pk, now=now + timedelta(seconds=181))
    assert done == ["started, round 1 paired"]
    absent = Entry.objects.get(user=users[3])
    assert absent.no_show and absent.dropped_after_round == 1
    m = Match.objects.get(round__number=1, allied__isnull=False,
                          french=absent) if Match.objects.filter(french=absent).exists() else \
        Match.objects.get(round__number=1, allied=absent)
    assert m.state == "settled" and m.source == "no_show"
    loser_games = m.french_games if m.french == absent else m.allied_games
    assert loser_games == 0


def test_scheduled_mode_pairs_at_the_start_time(org):
    t, users = field(org, 4, pairing_mode="scheduled", round_seconds=600, break_seconds=300)
    services.start_tournament(t.pk, org)
    t.refresh_from_db()
    start = t.started_at
    for m in current_matches(t):
        report_both(m, {"result": "french"})
    assert services.advance(t.pk, now=start + timedelta(seconds=60)) == []
    assert services.advance(t.pk, now=start + timedelta(seconds=901)) == ["round 2 paired"]


def test_pause_stops_the_clock_and_resume_restores_time(running, org):
    t, _ = running
    rnd = Round.objects.get(tournament=t, number=1)
    services.pause(t.pk, org)
    rnd.refresh_from_db()
    assert rnd.ends_at is None and rnd.remaining_seconds > 0
    assert services.advance(t.pk, now=timezone.now() + timedelta(days=1)) == []
    services.resume(t.pk, org)
    rnd.refresh_from_db()
    assert rnd.ends_at is not None and rnd.remaining_seconds is None


def test_drop_and_drop_after_the_end(running, org):
    t, users = running
    entry = Entry.objects.get(user=users[0])
    services.drop(t.pk, users[0], entry.pk)
    with pytest.raises(services.Conflict, match="already dropped"):
        services.drop(t.pk, org, entry.pk)
    for m in current_matches(t):
        report_both(m, {"result": "french"})
    services.advance(t.pk)
    assert not Match.objects.filter(round__number=2, french=entry).exists()
    assert not Match.objects.filter(round__number=2, allied=entry).exists()
    # round 1 standings still count the dropped player's result
    assert any(r["player"] == str(entry.pk) for r in
               StandingSnapshot.objects.get(tournament=t, round_number=1).rows)
    t.status = Status.FINISHED
    t.save()
    other = Entry.objects.get(user=users[1])
    with pytest.raises(services.Conflict, match="over"):
        services.drop(t.pk, org, other.pk)
    assert Entry.objects.get(pk=other.pk).dropped_at is None


# --- formats ---------------------------------------------------------------------------------

def run_to_end(t, rng, result=None):
    for _ in range(20):
        t.refresh_from_db()
        if t.status == Status.FINISHED:
            return
        for m in current_matches(t):
            if m.state != "settled":
                report_both(m, result or {"result": rng.choice(["french", "allied"])})
        services.advance(t.pk)
    raise AssertionError("did not finish")


def test_round_robin_everyone_meets_once(org):
    t, _ = field(org, 5, format="round_robin")
    services.start_tournament(t.pk, org)
    run_to_end(t, random.Random(1))
    pairs = [frozenset((f, a)) for f, a in
             Match.objects.filter(tournament=t, allied__isnull=False)
             .values_list("french_id", "allied_id")]
    assert len(pairs) == 10 == len(set(pairs))


def test_single_elimination(org):
    t, _ = field(org, 6, format="single_elimination")
    services.start_tournament(t.pk, org)
    first = Match.objects.filter(tournament=t, round__number=1)
    assert first.filter(allied__isnull=True).count() == 2  # top seeds get byes
    m = first.filter(allied__isnull=False).first()
    a, _ = players_of(m)
    with pytest.raises(services.TournamentError, match="winner"):
        services.report_result(m.pk, a, {"result": "draw"})
    run_to_end(t, random.Random(2))
    t.refresh_from_db()
    assert t.planned_rounds == 3 and t.current_round == 3
    assert Match.objects.filter(tournament=t, round__number=3).count() == 1


def test_swiss_with_top_cut(org):
    t, _ = field(org, 8, format="swiss_top_cut", rounds=2, top_cut=4)
    services.start_tournament(t.pk, org)
    run_to_end(t, random.Random(3))
    t.refresh_from_db()
    assert t.planned_rounds == 4
    top = Match.objects.filter(tournament=t, round__number=3)
    assert top.count() == 2 and top.first().round.stage == "top_cut"
    standing = [int(r["player"]) for r in
                StandingSnapshot.objects.get(tournament=t, round_number=2).rows]
    assert {top.first().french_id, top.first().allied_id} == {standing[0], standing[3]}
    assert Match.objects.filter(tournament=t, round__number=4).count() == 1


def test_two_game_swiss(org):
    t, _ = field(org, 4, format="swiss_two_game")
    services.start_tournament(t.pk, org)
    m = current_matches(t)[0]
    a, _ = players_of(m)
    with pytest.raises(services.TournamentError, match="two-game"):
        services.report_result(m.pk, a, {"result": "french"})
    report_both(m, {"games": ["french", "allied"]})
    m.refresh_from_db()
    assert m.state == "settled" and m.games == ["french", "allied"]
    assert (m.french_games, m.allied_games, m.draws) == (1, 1, 0)
    # totals that say how each game went are still accepted (a sweep)
    run_to_end(t, random.Random(4), {"french_games": 2, "allied_games": 0})
    assert Match.objects.filter(tournament=t, allied__isnull=False, round__number=2
                                ).first().games == ["french", "french"]
    rows = StandingSnapshot.objects.filter(tournament=t).last().rows
    assert rows[0]["how"]["gw"]["terms"]["games"] == 4


@pytest.fixture
def two_game(org):
    t, users = field(org, 4, format="swiss_two_game")
    services.start_tournament(t.pk, org)
    return t, users


def side_records(t, round_number=1, live=False):
    """(French games won, Allied games won) per entry, from the round's snapshot (or live)."""
    rows = services.compute_rows(t, round_number) if live else StandingSnapshot.objects.get(
        tournament=t, round_number=round_number).rows
    return {int(r["player"]): (r["french_record"]["won"], r["allied_record"]["won"])
            for r in rows}


def test_two_game_split_counts_each_game_on_the_side_it_was_won(two_game):
    t, _ = two_game
    m1, m2 = current_matches(t)
    # table 1: each player wins as French (game 1 listed French, game 2 listed Allied)
    report_both(m1, {"games": ["french", "allied"]})
    # table 2: each player wins as Allied
    report_both(m2, {"games": ["allied", "french"]})
    records = side_records(t)
    assert records[m1.french_id] == records[m1.allied_id] == (1, 0)
    assert records[m2.french_id] == records[m2.allied_id] == (0, 1)
    m1.refresh_from_db()
    assert m1.log.get().after == {"french_games": 1, "allied_games": 1, "draws": 0,
                                  "double_loss": False, "games": ["french", "allied"]}
    # the standings CSV shows the same French / Allied figures
    import csv
    import io

    from tournaments.services import exports

    rows = list(csv.DictReader(io.StringIO(exports.standings_csv(t))))
    by_name = {r["player"]: (int(r["french_won"]), int(r["allied_won"])) for r in rows}
    for m, won in ((m1, (1, 0)), (m2, (0, 1))):
        for entry_id in m.players():
            assert by_name[Entry.objects.get(pk=entry_id).user.username] == won


def test_two_game_contradicting_or_unclear_reports_are_refused(two_game):
    t, _ = two_game
    m = current_matches(t)[0]
    a, _ = players_of(m)
    for bad, message in (
            ({"games": ["french", "allied"], "french_games": 2, "allied_games": 0},
             "contradict"),
            ({"games": ["french", "draw"], "draws": 0}, "contradict"),
            ({"french_games": 1, "allied_games": 1}, "which player won which game"),
            ({"french_games": 1, "allied_games": 0, "draws": 1}, "which player won"),
            ({"games": ["french"]}, "game 1 and game 2"),
            ({"games": "french,allied"}, "game 1 and game 2"),
            ({"games": ["french", "won"]}, "game 2 must be"),
            ({"games": ["french", "allied"], "result": "french"}, "not both")):
        with pytest.raises(services.TournamentError, match=message):
            services.report_result(m.pk, a, bad)
    m.refresh_from_db()
    assert m.state == "pending" and not m.reports.exists() and not m.log.exists()
    # consistent totals next to the games are fine
    services.report_result(m.pk, a, {"games": ["french", "allied"], "french_games": 1,
                                     "allied_games": 1, "draws": 0})
    assert m.reports.get().games == ["french", "allied"]


def test_per_game_outcomes_are_refused_for_one_game_matches(running):
    t, _ = running
    m = current_matches(t)[0]
    a, _ = players_of(m)
    with pytest.raises(services.TournamentError, match="only for two-game matches"):
        services.report_result(m.pk, a, {"games": ["french", "allied"]})
    with pytest.raises(services.TournamentError, match="only for two-game matches"):
        services.record_result(m.pk, {"games": ["french", "french"]}, source="online")
    m.refresh_from_db()
    assert m.state == "pending" and not m.reports.exists()


def test_two_game_reports_with_the_same_totals_but_other_games_are_a_dispute(two_game, org):
    t, _ = two_game
    m = current_matches(t)[0]
    a, b = players_of(m)
    services.report_result(m.pk, a, {"games": ["french", "allied"]})
    m = services.report_result(m.pk, b, {"games": ["allied", "french"]})
    assert m.state == "disputed"
    with pytest.raises(services.TournamentError, match="which player won"):
        services.settle_dispute(m.pk, org, {"french_games": 1, "allied_games": 1})
    m = services.settle_dispute(m.pk, org, {"games": ["allied", "french"]}, "saw it")
    assert m.state == "settled" and m.games == ["allied", "french"]


def test_two_game_correction_changes_the_games_and_the_standings(two_game, org):
    t, _ = two_game
    m, other = current_matches(t)
    report_both(m, {"games": ["french", "allied"]})
    report_both(other, {"games": ["draw", "draw"]})
    assert side_records(t)[m.french_id] == (1, 0)
    services.correct_result(m.pk, org, {"games": ["allied", "french"]}, "games swapped")
    m.refresh_from_db()
    assert m.games == ["allied", "french"] and (m.french_games, m.allied_games) == (1, 1)
    log = m.log.order_by("-id").first()
    assert log.before["games"] == ["french", "allied"]
    assert log.after["games"] == ["allied", "french"]
    records = side_records(t)
    assert records[m.french_id] == records[m.allied_id] == (0, 1)
    # a double loss has no per-game outcomes: every game a loss on both sides
    m = services.correct_result(m.pk, org, {"double_loss": True}, "both cheated")
    assert m.games is None and m.log.order_by("-id").first().after["games"] is None
    assert side_records(t)[m.french_id] == (0, 0)


def test_two_game_time_limit_keeps_the_single_reports_games(two_game):
    t, _ = two_game
    m1, m2 = current_matches(t)
    a, _ = players_of(m1)
    services.report_result(m1.pk, a, {"games": ["allied", "french"]})
    rnd = m1.round
    services.time_limit(rnd.pk, now=rnd.ends_at + timedelta(seconds=1))
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert (m1.source, m1.games, m1.french_games, m1.allied_games) == (
        "time_limit", ["allied", "french"], 1, 1)
    assert (m2.source, m2.games, m2.draws) == ("time_limit", ["draw", "draw"], 2)
    records = side_records(t)
    assert records[m1.french_id] == records[m1.allied_id] == (0, 1)


def test_two_game_time_limit_old_split_report_goes_to_the_organiser(two_game):
    t, _ = two_game
    m = current_matches(t)[0]
    # a report stored before per-game outcomes existed: a 1-1 split, sides unknown
    from tournaments.models import Report

    Report.objects.create(match=m, entry_id=m.french_id, french_games=1, allied_games=1)
    services.time_limit(m.round_id, now=m.round.ends_at + timedelta(seconds=1))
    m.refresh_from_db()
    assert m.state == "disputed" and not m.log.exists()


def test_two_game_no_show_loses_both_games(org):
    now = timezone.now()
    t, users = field(org, 4, format="swiss_two_game", check_in_opens_at=now,
                     starts_at=now + timedelta(minutes=1))
    services.advance(t.pk, now=now)
    for u in users[:3]:
        services.check_in(t.pk, u)
    services.advance(t.pk, now=now + timedelta(seconds=61))
    absent = Entry.objects.get(user=users[3])
    m = Match.objects.get(Q(french=absent) | Q(allied=absent), round__number=1)
    winner = "allied" if m.french_id == absent.pk else "french"
    assert m.source == "no_show" and m.games == [winner, winner]
    present = m.allied_id if winner == "allied" else m.french_id
    records = side_records(t, live=True)  # the other table has not reported yet
    assert records[present] == (1, 1) and records[absent.pk] == (0, 0)


def test_keep_apart_clubs(org):
    t = tournament(org)
    for k in range(4):
        user, versions = player(f"c{k}")
        register(t, user, versions, club="Hougoumont" if k < 2 else "La Haye")
    services.start_tournament(t.pk, org)
    for m in current_matches(t):
        clubs = {Entry.objects.get(pk=e).club for e in m.players()}
        assert len(clubs) == 2


def test_late_entry_joins_with_zero_points(org):
    t, _ = field(org, 4, late_entry=True, rounds=4)
    services.start_tournament(t.pk, org)
    user, versions = player("late")
    entry = register(t, user, versions)
    assert entry.late
    assert DeckVersion.objects.get(pk=versions["french"].pk).locked_at is not None
    for m in current_matches(t):
        report_both(m, {"result": "french"})
    services.advance(t.pk)
    assert Match.objects.filter(round__number=2, french=entry).exists() or \
        Match.objects.filter(round__number=2, allied=entry).exists()


def test_double_elimination_runs_to_the_end_through_record_result(org):
    """6 players: seeds 1-2 get round-1 byes; every result enters through record_result;
    everyone but the champion leaves after exactly two losses; standings give the places."""
    t, _ = field(org, 6, format="double_elimination")
    services.start_tournament(t.pk, org)
    t.refresh_from_db()
    assert t.planned_rounds == 7  # the longest case: the grand final needs a reset
    first = Match.objects.filter(tournament=t, round__number=1)
    byes = first.filter(allied__isnull=True)
    assert sorted(e.seed for e in Entry.objects.filter(pk__in=byes.values("french"))) == [1, 2]
    assert set(first.values_list("bracket", flat=True)) == {"W1"}
    m = first.filter(allied__isnull=False).first()
    with pytest.raises(services.TournamentError, match="winner"):
        services.record_result(m.pk, {"result": "draw"}, source="online")
    rng = random.Random(5)
    for _ in range(12):
        t.refresh_from_db()
        if t.status == Status.FINISHED:
            break
        for m in current_matches(t):
            assert m.round.stage == "elimination" and m.bracket
            services.record_result(m.pk, {"result": rng.choice(["french", "allied"])},
                                   source=ResultLog.Source.ONLINE)
        services.advance(t.pk)
    t.refresh_from_db()
    assert t.status == Status.FINISHED and t.current_round <= 7
    losses = {}
    played = list(Match.objects.filter(tournament=t, allied__isnull=False))
    assert played
    for m in played:
        loser = m.allied_id if m.french_games > m.allied_games else m.french_id
        losses[loser] = losses.get(loser, 0) + 1
    rows = StandingSnapshot.objects.get(tournament=t, round_number=t.current_round).rows
    champion = int(rows[0]["player"])
    assert rows[0]["finish"] == 1 and losses.get(champion, 0) <= 1
    assert all(losses[int(r["player"])] == 2 for r in rows[1:])
    assert [r["finish"] for r in rows][:3] == [1, 2, 3]
    assert [r["rank"] for r in rows] == list(range(1, 7))
    assert all("finish" in r["how"] for r in rows)
    labels = set(Match.objects.filter(tournament=t).values_list("bracket", flat=True))
    assert {"W1", "W2", "L2", "GF"} <= labels
    # a round after the end is refused; decks are unlocked
    with pytest.raises(services.Conflict):
        services.pair_round(t.pk, t.current_round + 1, user=org)
    assert not DeckVersion.objects.filter(locked_at__isnull=False).exists()


def test_double_elimination_drop_ends_a_decided_bracket(org):
    t, users = field(org, 2, format="double_elimination")
    services.start_tournament(t.pk, org)
    m = current_matches(t)[0]
    services.record_result(m.pk, {"result": "french"}, source="online")
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.current_round == 1
    # the loser of the only winners' match drops before the grand final: the event is decided
    loser = Entry.objects.get(pk=m.allied_id)
    services.drop(t.pk, loser.user, loser.pk)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    rows = StandingSnapshot.objects.get(tournament=t, round_number=1).rows
    assert rows[0]["player"] == str(m.french_id) and rows[0]["finish"] == 1


@pytest.mark.parametrize("bad", ["x", "", None, "1.5", [1]])
def test_drop_with_a_malformed_player_id_is_not_found(running, org, bad):
    t, _users = running
    with pytest.raises(services.NotFound, match="no such player"):
        services.drop(t.pk, org, bad)
    assert not Entry.objects.filter(tournament=t, dropped_at__isnull=False).exists()


# --- deck formats: dealt (2.0) or custom (15.0) -----------------------------------------------

def test_2_0_dealt_tournament_registers_no_deck(org):
    t = tournament(org, deck_kind="dealt", deal_pool="set", deal_historical=True,
                   scale="1/2")
    assert (t.deck_kind, t.deal_pool, t.deal_historical, t.scale) == ("dealt", "set", True,
                                                                      "1/2")
    user, versions = player("ney")
    with pytest.raises(services.TournamentError,
                       match="french_version: this tournament deals the decks .2.0.: no deck "
                             "is chosen at registration; each battle deals D x scale 1/2 "
                             "cards from the whole set") as exc:
        register(t, user, versions)
    assert exc.value.status == 400 and not t.entries.exists()
    entry = services.register(t.pk, user)
    assert entry.versions() == [] and entry.seed == 1
    second, _ = player("soult")
    services.register(t.pk, second)
    services.start_tournament(t.pk, org)  # no deck to lock, nobody dropped
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.entries.filter(dropped_at__isnull=True).count() == 2


def test_2_0_dealt_from_the_collection_needs_enough_cards(org):
    t = tournament(org, deck_kind="dealt", deal_pool="collection")
    poor = User.objects.create_user("poor", "", "pw")
    with pytest.raises(services.TournamentError,
                       match="you cannot register: 2.0: your collection has 0 French cards "
                             "for Quatre Bras; a deal at scale 1 needs 14") as exc:
        services.register(t.pk, poor)
    assert len(exc.value.extra["problems"]) == 2  # French and British
    rich, _ = player("ney")  # owns one deck per army: exactly D cards each
    assert services.register(t.pk, rich).versions() == []


def test_2_0_dealt_tournament_scale_keeps_every_deck_whole(org):
    with pytest.raises(services.TournamentError, match="multiple of 1/12"):
        tournament(org, battle="waterloo", deck_kind="dealt", scale="1/5")
    with pytest.raises(services.TournamentError, match="deal_pool"):
        tournament(org, deck_kind="dealt", deal_pool="attic")
    with pytest.raises(services.TournamentError, match="deal_historical must be true or false"):
        tournament(org, deck_kind="dealt", deal_historical="yes")
    assert tournament(org, deck_kind="custom", scale="1/5").scale == "1/5"  # custom: BP x 1/5


def test_15_0_custom_tournament_needs_custom_decks_at_its_scale(org):
    from decks import services as deck_services

    from .tournament_helpers import valid_entries

    t = tournament(org, deck_kind="custom", scale="1/2")
    user, at_one = player("ney")  # custom decks at scale 1
    with pytest.raises(services.TournamentError, match="these decks cannot be registered") as exc:
        register(t, user, at_one)
    assert any("is at scale 1; the tournament plays 1/2" in p
               for p in exc.value.extra["problems"])
    custom = {}
    for army in ("french", "british"):
        deck = deck_services.create_deck(user, name=f"c {army}", battle="quatre-bras",
                                         army=army, kind="custom", scale="1",
                                         entries=valid_entries(army, "quatre-bras")[:4])
        custom[army] = deck.latest
    with pytest.raises(services.TournamentError) as exc:
        register(t, user, custom)
    assert any("is at scale 1; the tournament plays 1/2" in p for p in exc.value.extra["problems"])
    for army, version in custom.items():
        custom[army] = deck_services.save_version(version.deck, scale="1/2")
    assert register(t, user, custom).french_version == custom["french"]


def test_2_0_tournaments_of_saved_standard_decks_become_custom(org):
    """Saved standard decks became custom drafts (decks 0003); their tournaments follow
    (tournaments 0006), so nothing is left asking for a kind that no longer exists."""
    import importlib

    from django.apps import apps

    from tournaments.models import Tournament

    migration = importlib.import_module(
        "tournaments.migrations.0006_standard_tournaments_become_custom")
    old, dealt = tournament(org), tournament(org, name="Dealt", deck_kind="dealt")
    Tournament.objects.filter(pk=old.pk).update(deck_kind="standard")
    migration.standard_to_custom(apps, None)
    kinds = dict(Tournament.objects.values_list("pk", "deck_kind"))
    assert kinds == {old.pk: "custom", dealt.pk: "dealt"}
