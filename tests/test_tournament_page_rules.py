"""What the tournament pages offer, decided in ``tournaments.selectors`` (the views only
call these): reporting, settling, correcting, registering, pairing the next round. Plain
unsaved rows: no database."""

from tournaments import selectors
from tournaments.models import Match, Report, Round, Status, Tournament


def _match(state=Match.State.PENDING, bye=False) -> Match:
    return Match(state=state, french_id=1, allied_id=None if bye else 2)


def test_a_player_may_report_an_open_match_of_a_started_event_once():
    running, paused = Tournament(status=Status.RUNNING), Tournament(status=Status.PAUSED)
    assert selectors.can_report(running, _match(), None)
    assert selectors.can_report(paused, _match(Match.State.REPORTED), None)
    assert selectors.can_report(running, _match(Match.State.DISPUTED), None)
    assert not selectors.can_report(running, _match(), Report())  # already reported
    assert not selectors.can_report(running, _match(bye=True), None)
    assert not selectors.can_report(running, _match(Match.State.SETTLED), None)
    for status in (Status.REGISTRATION, Status.CHECK_IN, Status.FINISHED, Status.CANCELLED):
        assert not selectors.can_report(Tournament(status=status), _match(), None)


def test_the_organiser_settles_open_matches_and_corrects_settled_ones():
    running, finished = Tournament(status=Status.RUNNING), Tournament(status=Status.FINISHED)
    assert selectors.can_settle(running, _match(Match.State.DISPUTED))
    assert not selectors.can_settle(running, _match(Match.State.SETTLED))
    assert not selectors.can_settle(finished, _match(Match.State.DISPUTED))
    assert selectors.can_correct(_match(Match.State.SETTLED))
    assert not selectors.can_correct(_match(Match.State.SETTLED, bye=True))
    assert not selectors.can_correct(_match(Match.State.REPORTED))


def test_registration_and_the_next_round():
    assert selectors.registration_open(Tournament(status=Status.REGISTRATION))
    assert not selectors.registration_open(Tournament(status=Status.CLOSED))
    assert selectors.round_complete(None)
    assert selectors.round_complete(Round(state=Round.State.FINISHED))
    assert not selectors.round_complete(Round(state=Round.State.PLAYING))
    assert selectors.rounds_left(Tournament(planned_rounds=0, current_round=0))
    assert selectors.rounds_left(Tournament(planned_rounds=3, current_round=2))
    assert not selectors.rounds_left(Tournament(planned_rounds=3, current_round=3))
