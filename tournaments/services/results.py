"""Results. ``record_result`` is the ONE way a result enters a match: players' agreement,
the organiser settling a dispute or correcting, the time limit, no-shows and (later) online
battles all call it. It logs every result (who, how, why, the result it replaced)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..models import STARTED, Match, Report, ResultLog, Round, Status
from .common import is_organiser, lock_tournament, require_organiser
from .errors import Conflict, NotAllowed, NotFound, TournamentError
from .rounds import _maybe_finish_round, result_dict
from .standings import resnapshot_from

SINGLE = {"french": (1, 0, 0), "allied": (0, 1, 0), "draw": (0, 0, 1)}
ELIMINATION_STAGES = (Round.Stage.ELIMINATION, Round.Stage.TOP_CUT)


def _count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TournamentError(f"{what} must be a whole number")
    try:
        number = int(value)
    except ValueError:
        raise TournamentError(f"{what} must be a whole number") from None
    if number < 0:
        raise TournamentError(f"{what} must not be negative")
    return number


def games_from_totals(fg: int, ag: int, d: int) -> list[str] | None:
    """The per-game outcomes of a two-game match when its totals say how each game went (a
    sweep, or both games drawn: the same outcome twice); None for a 1-1 split or a win and a
    draw, where the totals do not say which player won which game."""
    return {(2, 0, 0): ["french", "french"], (0, 2, 0): ["allied", "allied"],
            (0, 0, 2): ["draw", "draw"]}.get((fg, ag, d))


def _games(value) -> list[str]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise TournamentError('games must list the outcome of game 1 and game 2, e.g. '
                              '["french", "allied"]')
    for number, outcome in enumerate(value, start=1):
        if outcome not in SINGLE:
            raise TournamentError(f'game {number} must be "french", "allied" or "draw" '
                                  "(the player listed as French won, the player listed as "
                                  "Allied won, or a draw)")
    return list(value)


def clean_result(t, rnd: Round, data: dict, *, allow_double_loss: bool = False) -> dict:
    """A result as given -> the stored shape ``{"french_games", "allied_games", "draws",
    "double_loss"}``, plus ``"games"`` (game 1 and game 2 outcomes, None for a double loss)
    for two-game matches.

    One-game matches: ``{"result": "french"|"allied"|"draw"}`` or the totals
    ``{"french_games": n, "allied_games": n, "draws": n}``. Two-game matches:
    ``{"games": [game 1, game 2]}``, each ``"french"`` (won by the player listed as French,
    who plays French in game 1 and Allied in game 2), ``"allied"`` or ``"draw"``; the totals
    follow from them (given as well, they must agree). Totals alone are accepted only when
    they say how each game went (2-0, 0-2, both drawn); a 1-1 split or a win and a draw must
    say which player won which game. ``games`` for a one-game match is refused."""
    if not isinstance(data, dict):
        raise TournamentError("a result is an object")
    games = t.games_per_match
    double = bool(data.get("double_loss", False))
    if double:
        if not allow_double_loss:
            raise TournamentError("only the organiser can record a double loss")
        clean = {"french_games": 0, "allied_games": 0, "draws": 0, "double_loss": True}
        return {**clean, "games": None} if games == 2 else clean
    per_game = None
    if "games" in data:
        if games != 2:
            raise TournamentError("games (per-game outcomes) are only for two-game matches; "
                                  'this match is one game: send "result"')
        if "result" in data:
            raise TournamentError('send "games" or "result", not both')
        per_game = _games(data["games"])
        fg, ag, d = (per_game.count(x) for x in ("french", "allied", "draw"))
        given = {k: _count(data[k], k) for k in ("french_games", "allied_games", "draws")
                 if k in data}
        derived = {"french_games": fg, "allied_games": ag, "draws": d}
        if any(derived[k] != v for k, v in given.items()):
            raise TournamentError(
                f"the totals contradict the games: game 1 {per_game[0]}, game 2 "
                f"{per_game[1]} make {fg}-{ag}-{d} (French-listed wins, Allied-listed wins, "
                "draws)")
    elif "result" in data:
        if games != 1:
            raise TournamentError('two-game matches are reported game by game: "games": '
                                  '[game 1, game 2], each "french", "allied" or "draw"')
        if data["result"] not in SINGLE:
            raise TournamentError('result must be "french", "allied" or "draw"')
        fg, ag, d = SINGLE[data["result"]]
    else:
        for key in ("french_games", "allied_games"):
            if key not in data:
                raise TournamentError(f'missing "{key}" (or "result")' if games == 1 else
                                      f'missing "games" (or "{key}")')
        fg = _count(data["french_games"], "french_games")
        ag = _count(data["allied_games"], "allied_games")
        d = _count(data.get("draws", 0), "draws")
    if fg + ag + d != games:
        raise TournamentError(f"a match has {games} game{'s' if games > 1 else ''}: "
                              f"{fg} + {ag} + {d} games reported")
    if d and not t.draws_allowed or rnd.stage in ELIMINATION_STAGES and fg == ag:
        raise TournamentError("an elimination match needs a winner")
    clean = {"french_games": fg, "allied_games": ag, "draws": d, "double_loss": False}
    if games == 1:
        return clean
    per_game = per_game or games_from_totals(fg, ag, d)
    if per_game is None:
        score = f"{fg}-{ag}-{d}" if d else f"{fg}-{ag}"
        raise TournamentError(
            f"{score} does not say which player won which game: report it game by game, "
            '"games": [game 1, game 2], each "french", "allied" or "draw"')
    return {**clean, "games": per_game}


def stored_result(t, match: Match) -> dict | None:
    """A settled match's result in ``clean_result``'s shape (for the log's ``before``)."""
    before = result_dict(match)
    if before is not None and t.games_per_match == 2:
        before["games"] = match.games
    return before


def _apply(obj, clean: dict) -> None:
    """Write a clean result's totals and per-game outcomes onto a Match or Report."""
    for key in ("french_games", "allied_games", "draws"):
        setattr(obj, key, clean[key])
    obj.game1, obj.game2 = clean.get("games") or ("", "")


def _locked_match(match_id):
    pk = getattr(match_id, "pk", match_id)
    tid = Match.objects.filter(pk=pk).values_list("tournament_id", flat=True).first() if (
        str(pk).isdigit()) else None
    if tid is None:
        raise NotFound("no such match")
    t = lock_tournament(tid)
    match = Match.objects.select_for_update().select_related("round").get(pk=pk)
    return t, match


def record_result(match_id, result: dict, *, source: str, by=None, reason: str = "",
                  now=None) -> Match:
    """Settle (or, with ``source="correction"``, change) a match's result.

    ``result``: see ``clean_result``. ``source``: a ``ResultLog.Source``. Refused
    (``Conflict``) for a bye, an already settled match (unless correcting), or a tournament
    that is not running (corrections are also allowed after the end). Completing the round's
    last match finishes the round (standings snapshot, webhook, next step of the clock).
    """
    if source not in ResultLog.Source.values or source == ResultLog.Source.BYE:
        raise TournamentError(f"unknown result source {source!r}")
    now = now or timezone.now()
    with transaction.atomic():
        t, match = _locked_match(match_id)
        correcting = source == ResultLog.Source.CORRECTION
        if match.is_bye:
            raise Conflict("a bye has no result to record")
        if t.status not in STARTED and not (correcting and t.status == Status.FINISHED):
            raise Conflict("the tournament is not running")
        if correcting and match.state != Match.State.SETTLED:
            raise Conflict("this match has no result to correct yet; settle it instead")
        if not correcting and match.state == Match.State.SETTLED:
            raise Conflict("this match already has a result")
        clean = clean_result(t, match.round, result,
                             allow_double_loss=source in (ResultLog.Source.ORGANISER,
                                                          ResultLog.Source.CORRECTION,
                                                          ResultLog.Source.NO_SHOW))
        before = stored_result(t, match)
        if correcting and match.round.stage in ELIMINATION_STAGES and before != clean and \
                t.round_set.filter(number__gt=match.round.number).exists():
            raise Conflict("the next elimination round is already paired; this result can "
                           "no longer change")
        _apply(match, clean)
        match.double_loss = clean["double_loss"]
        match.state = Match.State.SETTLED
        match.source = source
        match.settled_at = now
        match.save()
        ResultLog.objects.create(match=match, source=source, by=by, reason=reason[:500],
                                 before=before, after=clean)
        if match.round.state == Round.State.FINISHED:
            resnapshot_from(t, match.round.number)
        else:
            _maybe_finish_round(t, match.round, now)
    return match


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
        t, match = _locked_match(match_id)
        entry_id = _entry_in(match, user)
        if entry_id is None:
            raise NotAllowed("this is not your match")
        if match.is_bye:
            raise Conflict("a bye has no result to report")
        if t.status != Status.RUNNING and t.status != Status.PAUSED:
            raise Conflict("the tournament is not running")
        if match.state == Match.State.SETTLED:
            raise Conflict("this match already has a result")
        if match.reports.filter(entry_id=entry_id).exists():
            raise Conflict("you have already reported this match")
        clean = clean_result(t, match.round, result)
        report = Report(match=match, entry_id=entry_id)
        _apply(report, clean)
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
        t, match = _locked_match(match_id)
        require_organiser(t, user)
        return record_result(match.pk, result, source=ResultLog.Source.ORGANISER, by=user,
                             reason=reason)


def correct_result(match_id, user, result: dict, reason: str) -> Match:
    """Organiser: change a settled result; logged with who and why (a reason is required).
    Standings snapshots from that round on are recomputed; pairings already made stay."""
    if not str(reason or "").strip():
        raise TournamentError("a correction needs a reason")
    with transaction.atomic():
        t, match = _locked_match(match_id)
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


def can_see_match(match: Match, user) -> bool:
    return is_organiser(match.tournament, user) or _entry_in(match, user) is not None


__all__ = ["clean_result", "correct_result", "games_from_totals", "record_result",
           "report_result", "settle_dispute", "stored_result", "time_limit"]
