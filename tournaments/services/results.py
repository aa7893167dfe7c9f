"""Results by players and organisers: reports, disputes, corrections and the time limit.
Each goes through ``lifecycle.record_result``, the ONE way a result enters a match (it logs
every result and finishes the round when its last match settles); the shape of a result is
``outcomes.clean_result``."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..models import Match, Report, ResultLog, Round, Status
from .common import lock_match, lock_tournament, require_organiser
from .errors import Conflict, NotAllowed, TournamentError
from .lifecycle import record_result
from .online_results import no_shows_at_deadline
from .outcomes import (
    ELIMINATION_STAGES,
    apply_result,
    clean_result,
    games_from_totals,
    stored_result,
)


def _entry_in(match: Match, user):
    for entry_id in match.players():
        if match.tournament.entries.filter(pk=entry_id, user_id=getattr(user, "pk", None)
                                           ).exists():
            return entry_id
    return None


def report_result(match_id, user, result: dict) -> Match:
    """A player reports their match. Both reports agreeing settles it (through
    ``record_result``); disagreeing makes a dispute for the organiser."""
    with transaction.atomic():
        t, match = lock_match(match_id)
        entry_id = _entry_in(match, user)
        if entry_id is None:
            raise NotAllowed("this is not your match")
        if match.is_bye:
            raise Conflict("a bye has no result to report")
        if t.status != Status.RUNNING and t.status != Status.PAUSED:
            raise Conflict("the tournament is not running")
        if match.state == Match.State.SETTLED:
            raise Conflict("this match already has a result")
        if t.online:
            raise Conflict("this tournament is played on the site: the match's battles "
                           "report the result themselves")
        if match.reports.filter(entry_id=entry_id).exists():
            raise Conflict("you have already reported this match")
        clean = clean_result(t, match.round, result)
        report = Report(match=match, entry_id=entry_id)
        apply_result(report, clean)
        report.save()
        reports = list(match.reports.values_list("french_games", "allied_games", "draws",
                                                 "game1", "game2"))
        if len(reports) == 2 and reports[0] == reports[1]:
            return record_result(match.pk, clean, source=ResultLog.Source.AGREEMENT)
        match.state = Match.State.DISPUTED if len(reports) == 2 else Match.State.REPORTED
        match.save(update_fields=["state"])
    return match


def settle_dispute(match_id, user, result: dict, reason: str = "") -> Match:
    """Organiser: give an unsettled match (disputed, or left open at time) its result."""
    with transaction.atomic():
        t, match = lock_match(match_id)
        require_organiser(t, user)
        return record_result(match.pk, result, source=ResultLog.Source.ORGANISER, by=user,
                             reason=reason)


def correct_result(match_id, user, result: dict, reason: str) -> Match:
    """Organiser: change a settled result; logged with who and why (a reason is required).
    Standings snapshots from that round on are recomputed; pairings already made stay."""
    if not str(reason or "").strip():
        raise TournamentError("a correction needs a reason")
    with transaction.atomic():
        t, match = lock_match(match_id)
        require_organiser(t, user)
        return record_result(match.pk, result, source=ResultLog.Source.CORRECTION, by=user,
                             reason=str(reason).strip())


def time_limit(round_id, now=None) -> int:
    """At time, every unsettled match of the round gets the time-limit result (README):
    one report only -> that report (with its per-game outcomes in two-game matches); no
    report -> every game drawn (elimination: left to the organiser, disputed); two different
    reports, or a single old two-game report whose totals do not say who won which game ->
    disputed, for the organiser. Returns matches settled."""
    now = now or timezone.now()
    settled = 0
    with transaction.atomic():
        rnd = Round.objects.filter(pk=getattr(round_id, "pk", round_id)).first()
        if rnd is None:
            return 0
        t = lock_tournament(rnd.tournament_id)
        rnd.refresh_from_db()
        if (t.status != Status.RUNNING or rnd.state != Round.State.PLAYING
                or rnd.ends_at is None or now < rnd.ends_at):
            return 0
        rnd.timed_out = True
        rnd.save(update_fields=["timed_out"])
        if t.online:  # a player who never acted: the no-show rule (online_results)
            settled += no_shows_at_deadline(t, rnd, now)
        games = t.games_per_match
        open_matches = list(Match.objects.filter(round=rnd).exclude(state=Match.State.SETTLED)
                            .prefetch_related("reports"))
        for m in open_matches:
            reports = list(m.reports.all())
            result = None
            if len(reports) == 1:
                r = reports[0]
                result = {"french_games": r.french_games, "allied_games": r.allied_games,
                          "draws": r.draws}
                if games == 2:
                    per_game = r.games or games_from_totals(r.french_games, r.allied_games,
                                                            r.draws)
                    result = {**result, "games": per_game} if per_game else None
            elif not reports and t.draws_allowed and rnd.stage not in ELIMINATION_STAGES:
                result = {"french_games": 0, "allied_games": 0, "draws": games}
                if games == 2:
                    result["games"] = ["draw", "draw"]
            if result is None:
                if m.state != Match.State.DISPUTED:
                    m.state = Match.State.DISPUTED
                    m.save(update_fields=["state"])
                continue
            record_result(m.pk, result, source=ResultLog.Source.TIME_LIMIT, now=now,
                          reason="unfinished at time")
            settled += 1
    return settled


__all__ = ["clean_result", "correct_result", "games_from_totals", "record_result",
           "report_result", "settle_dispute", "stored_result", "time_limit"]
