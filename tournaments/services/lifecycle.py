# Over 500 lines on purpose: one idea, a tournament's lifecycle (start, pair, record_result,
# finish) in one module, so that no other service reaches into its steps.
"""The tournament's lifecycle: start, pair a round, settle a result (``record_result``, the
ONE way a result enters a match), finish a round and the event, pause and resume - every
step under the tournament's row lock. The other services call into this module; it imports
none of them (only the shared ``common``, ``wake``, ``outcomes``, ``coverage``,
``standings``, ``webhooks`` and ``errors``), so there is no import cycle.

A round is paired once: ``pair_round`` checks under ``select_for_update`` that round N is the
next one and not there yet, and the unique constraint (tournament, number) backs it up, so a
retried or doubled task changes nothing.
"""

from __future__ import annotations

import logging
import math
import time
from datetime import timedelta
from fractions import Fraction

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from decks.models import DeckVersion
from play import sql

from ..models import (
    BEFORE_START,
    STARTED,
    Entry,
    Format,
    Match,
    PairingMode,
    ResultLog,
    Round,
    Status,
    Tournament,
)
from ..pairing import NoValidPairing, Player, elimination_round, pair_swiss, round_robin_round
from ..pairing import top_cut as top_cut_pairs
from ..pairing.double_bracket import double_elimination_max_rounds, double_elimination_round
from ..signals import round_paired
from .common import lock_match, lock_tournament, require_organiser
from .coverage import uncovered
from .errors import Conflict, TournamentError
from .online import (
    create_match_games,
    lock_running_games,
    pause_games,
    resume_games,
    running_games,
)
from .outcomes import ELIMINATION_STAGES, apply_result, clean_result, result_dict, stored_result
from .standings import (
    bracket_dropped,
    bracket_games,
    bracket_seeds,
    bracket_state,
    compute_rows,
    resnapshot_from,
    snapshot,
)
from .wake import schedule_wake
from .webhooks import emit

logger = logging.getLogger(__name__)


def _active_ids(entries: list[Entry], number: int) -> list[Entry]:
    """Entries paired in round ``number``: not dropped before it (a no-show is dropped after
    round 1, so it is paired in round 1 and takes its game loss there)."""
    return [e for e in entries
            if e.dropped_after_round is None or e.dropped_after_round >= number]


def recommended_rounds(players: int) -> int:
    """Swiss: ceil(log2 n) rounds (at least 1) find a single undefeated player."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


def planned_rounds(t: Tournament, players: int) -> int:
    """All rounds of the event for ``players`` entrants (fixed when it starts)."""
    if t.format == Format.ROUND_ROBIN:
        return players - 1 if players % 2 == 0 else players
    if t.format == Format.SINGLE_ELIMINATION:
        return recommended_rounds(players)
    if t.format == Format.DOUBLE_ELIMINATION:  # the longest case: the final needs a reset
        return double_elimination_max_rounds(players)
    swiss = t.rounds or recommended_rounds(players)
    if t.format == Format.SWISS_TOP_CUT:
        return swiss + int(math.log2(t.top_cut or 2))
    return swiss


# --- start -----------------------------------------------------------------------------------

def start_tournament(tournament_id, user=None, now=None) -> Round:
    """Start now (the organiser, or the clock at ``starts_at``): close check-in (no-shows
    take a game loss in round 1 and are dropped after it), lock every deck, pair round 1."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if user is not None:
            require_organiser(t, user)
        return start(t, now or timezone.now())


def start(t: Tournament, now) -> Round:
    if t.status not in BEFORE_START:
        raise Conflict("the tournament has already started" if t.status in STARTED
                       else "the tournament is over")
    entries = list(t.entries.select_related("user"))
    if len(entries) < 2:
        raise Conflict("a tournament needs at least 2 players to start")
    entries = _drop_uncovered(t, entries, now)
    if len(entries) < 2:
        raise Conflict("fewer than 2 players whose collections still cover their decks")
    if t.check_in_opens_at is not None:
        absent = [e.pk for e in entries if e.checked_in_at is None]
        if len(entries) - len(absent) < 2:
            raise Conflict("fewer than 2 players checked in")
        Entry.objects.filter(pk__in=absent).update(no_show=True, dropped_at=now,
                                                   dropped_after_round=1)
    versions = [v for e in entries for v in (e.french_version_id, e.british_version_id,
                                             e.prussian_version_id) if v is not None]
    DeckVersion.objects.filter(pk__in=versions).update(locked_at=now)
    t.status = Status.RUNNING
    t.started_at = now
    t.planned_rounds = planned_rounds(t, len(entries))
    t.save()
    return pair(t, 1, now)


def _drop_uncovered(t: Tournament, entries: list[Entry], now) -> list[Entry]:
    """Re-check at the start that each player's collection still backs their decks, net of
    the copies held by started tournaments (a trade or an edit since registration can break
    it). A player it no longer backs is dropped before round 1 (``dropped_after_round=0``:
    never paired, decks not locked) with ``drop_reason`` saying which cards are missing.
    Returns the entries that start. The player's deck versions are locked (row locks, pk
    order) first, so two starts or a start and a registration sharing a player run one
    after the other."""
    users = {e.user_id for e in entries}
    list(DeckVersion.objects.select_for_update().filter(deck__owner_id__in=users)
         .order_by("pk").values_list("pk", flat=True))
    versions = {v.pk: v for v in DeckVersion.objects.select_related("deck").filter(
        pk__in=[pk for e in entries for pk in (e.french_version_id, e.british_version_id,
                                                e.prussian_version_id) if pk])}
    starting = []
    for e in entries:
        for side in ("french_version", "british_version", "prussian_version"):
            pk = getattr(e, f"{side}_id")
            if pk is not None:
                setattr(e, side, versions[pk])
        problems = uncovered(e, t)
        if not problems:
            starting.append(e)
            continue
        e.dropped_at, e.dropped_after_round = now, 0
        e.drop_reason = ("not started: the collection no longer covers the decks - "
                         + " | ".join(problems))[:1000]
        e.save(update_fields=["dropped_at", "dropped_after_round", "drop_reason"])
        logger.warning("tournament %s: entry %s (%s) dropped at the start: %s", t.pk, e.pk,
                       e.user.username, e.drop_reason)
    return starting


# --- pairing ---------------------------------------------------------------------------------

def pair_round(tournament_id, number: int, *, user=None, strict: bool = True, now=None):
    """Pair round ``number`` if it is the next one and the previous one is complete.

    ``strict`` (organiser/API): a round already paired or not pairable yet is a ``Conflict``.
    Not strict (Celery tasks): the same cases return the existing round or None, unchanged.
    """
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if user is not None:
            require_organiser(t, user)
        existing = t.round_set.filter(number=number).first()
        if existing is not None:
            if strict:
                raise Conflict(f"round {number} is already paired")
            return existing
        problem = not_pairable(t, number)
        if problem:
            if strict:
                raise Conflict(problem)
            return None
        return pair(t, number, now or timezone.now())


def pair_next_round(tournament_id, user, now=None) -> Round:
    """Organiser: pair the next round now (e.g. in scheduled mode, before its time)."""
    t = Tournament.objects.filter(pk=getattr(tournament_id, "pk", tournament_id)).first()
    number = (t.current_round + 1) if t else 1
    return pair_round(tournament_id, number, user=user, strict=True, now=now)


def not_pairable(t: Tournament, number: int) -> str | None:
    if t.status != Status.RUNNING:
        return f"the tournament is {t.get_status_display().lower()}; no round can be paired"
    if number != t.current_round + 1:
        return f"round {t.current_round + 1} is the next round, not round {number}"
    if t.planned_rounds and number > t.planned_rounds:
        return f"the tournament has {t.planned_rounds} rounds"
    if t.round_set.filter(number=t.current_round).exclude(state=Round.State.FINISHED).exists():
        return f"round {t.current_round} is not complete"
    return None


def pairings_for(t: Tournament, number: int, entries: list[Entry]
                 ) -> tuple[str, list[tuple[int, int]], list[int], dict]:
    """(stage, [(french id, allied id)], [bye ids], {(french, allied): bracket label}) for
    round ``number``: the pairing core's answer, nothing written yet."""
    if t.format == Format.DOUBLE_ELIMINATION:
        return _double_elimination(t, number)
    stage, pairs, byes = _pairings(t, number, entries, _active_ids(entries, number))
    return stage, pairs, byes, {}


def pair(t: Tournament, number: int, now) -> Round:
    """Pair round ``number`` of ``t`` (locked; the caller checked ``not_pairable``): its
    matches, the byes settled, round-1 no-shows' losses, the webhook, the next wake."""
    started = time.perf_counter()
    entries = list(t.entries.select_related("user"))
    stage, pairs, byes, labels = pairings_for(t, number, entries)
    rnd = Round.objects.create(tournament=t, number=number, stage=stage,
                               ends_at=now + timedelta(seconds=t.round_seconds))
    games = t.games_per_match
    matches = [Match(tournament=t, round=rnd, table=k, french_id=f, allied_id=a,
                     bracket=labels.get((f, a), ""))
               for k, (f, a) in enumerate(pairs, start=1)]
    for k, pid in enumerate(byes, start=len(pairs) + 1):
        matches.append(Match(tournament=t, round=rnd, table=k, french_id=pid, allied_id=None,
                             state=Match.State.SETTLED, french_games=games, allied_games=0,
                             draws=0, source=ResultLog.Source.BYE, settled_at=now,
                             bracket=labels.get((pid, None), "")))
    Match.objects.bulk_create(matches, batch_size=500)
    bye_matches = list(Match.objects.filter(round=rnd, allied__isnull=True))
    ResultLog.objects.bulk_create(
        [ResultLog(match=m, source=ResultLog.Source.BYE, after=result_dict(m))
         for m in bye_matches], batch_size=500)
    t.current_round = number
    t.next_round_at = (now + timedelta(seconds=t.round_seconds + t.break_seconds)
                       if t.pairing_mode == PairingMode.SCHEDULED else None)
    t.save(update_fields=["current_round", "next_round_at"])
    rnd.pairing_seconds = time.perf_counter() - started
    rnd.save(update_fields=["pairing_seconds"])
    _no_shows(t, rnd, entries)
    if t.online:  # each open match's game(s) of its kind, in this transaction (issue 12)
        create_match_games(t, rnd)
    names = {str(e.pk): e.user.username for e in entries}
    emit(t, "round.paired", f"round.paired:{number}", {
        "round": number, "stage": stage,
        "pairings": [{"table": k, "french": names[str(f)], "allied": names[str(a)]}
                     for k, (f, a) in enumerate(pairs, start=1)],
        "byes": [names[str(b)] for b in byes],
        "ends_at": rnd.ends_at.isoformat()})
    maybe_finish_round(t, rnd, now)
    schedule_wake(t, now)
    _announce_paired(rnd)
    return rnd


def _announce_paired(rnd: Round) -> None:
    """``signals.round_paired`` once the pairing commits (notifications); never raises."""
    def send():
        for receiver, error in round_paired.send_robust(
                sender=Round, round_id=rnd.pk, tournament_id=rnd.tournament_id,
                number=rnd.number):
            if isinstance(error, Exception):
                logger.error("round %s: round_paired listener %r failed: %r", rnd.pk,
                             receiver, error)

    transaction.on_commit(send)


def _no_shows(t: Tournament, rnd: Round, entries: list[Entry]) -> None:
    """Round 1 after check-in: a no-show loses its game (both absent: a double loss)."""
    absent = {e.pk for e in entries if e.no_show}
    if rnd.number != 1 or not absent:
        return
    games = t.games_per_match
    for m in Match.objects.filter(round=rnd, allied__isnull=False).filter(
            Q(french_id__in=absent) | Q(allied_id__in=absent)):
        f_out, a_out = m.french_id in absent, m.allied_id in absent
        record_result(m.pk, {"french_games": 0 if f_out else games,
                            "allied_games": 0 if a_out else games, "draws": 0,
                            "double_loss": f_out and a_out},
                     source=ResultLog.Source.NO_SHOW, reason="did not check in")


def _history(t: Tournament, entries: list[Entry], upto: int) -> dict[int, Player]:
    """The pairing core's view: points (3 match points = 1), opponents and sides per round
    (None: no game), byes, drops; ranking tiebreaks from the current standings."""
    players = {e.pk: Player(id=str(e.pk), rating=e.rating, points=Fraction(0),
                            opponents=[None] * upto, sides=[None] * upto)
               for e in entries}
    rows = compute_rows(t, upto) if upto else []
    for row in rows:
        p = players[int(row["player"])]
        p.points = Fraction(row["match_points"], 3)
        p.tiebreaks = tuple(row["tiebreaks"].values())
    for rnd, f, a in Match.objects.filter(tournament=t, round__number__lte=upto).values_list(
            "round__number", "french_id", "allied_id"):
        if a is None:
            players[f].had_bye = True
            continue
        players[f].opponents[rnd - 1], players[f].sides[rnd - 1] = str(a), "french"
        players[a].opponents[rnd - 1], players[a].sides[rnd - 1] = str(f), "allied"
    return players


def _keep_apart(entries: list[Entry]) -> list[list[str]]:
    clubs: dict[str, list[str]] = {}
    for e in entries:
        if e.club:
            clubs.setdefault(e.club.strip().lower(), []).append(str(e.pk))
    return [ids for ids in clubs.values() if len(ids) > 1]


def _losers(t: Tournament, from_round: int = 1) -> set[int]:
    lost = set()
    for f, a, fg, ag, dl in Match.objects.filter(
            tournament=t, round__number__gte=from_round, allied__isnull=False,
            state=Match.State.SETTLED).values_list("french_id", "allied_id", "french_games",
                                                   "allied_games", "double_loss"):
        if dl:
            lost |= {f, a}
        elif fg > ag:
            lost.add(a)
        elif ag > fg:
            lost.add(f)
    return lost


def _double_elimination(t: Tournament, number: int):
    """(stage, pairs, byes, {(french, allied): bracket label}) for round ``number`` of a
    double elimination, replayed from the results so far (``pairing/double_bracket.py``)."""
    try:
        state = double_elimination_round(bracket_seeds(t), bracket_games(t, number - 1),
                                         number, bracket_dropped(t))
    except ValueError as exc:  # results that do not fit the bracket (never by the services)
        raise Conflict(f"round {number} cannot be paired: {exc}") from None
    if state.finished or not (state.pairings or state.byes):
        raise Conflict("the double elimination is over")
    pairs = [(int(p.french), int(p.allied)) for p in state.pairings]
    labels = {(int(p.french), int(p.allied)): p.label for p in state.pairings}
    byes = [int(b) for b in state.byes]
    labels.update({(b, None): "W1" for b in byes})
    return Round.Stage.ELIMINATION, pairs, byes, labels


def _pairings(t: Tournament, number: int, entries: list[Entry], active: list[Entry]):
    """(stage, [(french id, allied id)], [bye ids]) for round ``number``."""
    active_ids = {e.pk for e in active}
    # entries dropped at the start (``dropped_after_round=0``) are in no schedule or bracket
    seeds = [e.pk for e in sorted(entries, key=lambda e: (e.seed, e.pk))
             if e.dropped_after_round != 0]
    if t.format == Format.ROUND_ROBIN:
        pairs, _sits_out = round_robin_round([str(s) for s in seeds], number)
        played = [(int(f), int(a)) for f, a in pairs
                  if int(f) in active_ids and int(a) in active_ids]
        return Round.Stage.ROUND_ROBIN, played, []
    if t.format == Format.SINGLE_ELIMINATION:
        alive = {str(e.pk) for e in active} - {str(x) for x in _losers(t)}
        pairs, walkovers = elimination_round([str(s) for s in seeds], alive, number)
        return (Round.Stage.ELIMINATION, [(int(f), int(a)) for f, a in pairs],
                [int(w) for w in walkovers])
    swiss_rounds = t.planned_rounds - int(math.log2(t.top_cut)) if (
        t.format == Format.SWISS_TOP_CUT) else None
    if swiss_rounds is not None and number > swiss_rounds:
        snap = t.snapshots.filter(round_number=swiss_rounds).first()
        rows = (snap.rows if snap is not None else None) or compute_rows(t, swiss_rounds)
        standing = [r["player"] for r in rows if int(r["player"]) in active_ids]
        cut = min(t.top_cut, 2 ** int(math.log2(max(len(standing), 2))))
        cut_seeds = standing[:cut]
        if number == swiss_rounds + 1:
            matches = top_cut_pairs(cut_seeds, cut)
            return (Round.Stage.TOP_CUT, [(int(a), int(b)) for a, b in matches if b],
                    [int(a) for a, b in matches if b is None])
        alive = set(cut_seeds) - {str(x) for x in _losers(t, swiss_rounds + 1)}
        alive &= {str(i) for i in active_ids}
        pairs, walkovers = elimination_round(cut_seeds, alive, number - swiss_rounds)
        return (Round.Stage.TOP_CUT, [(int(f), int(a)) for f, a in pairs],
                [int(w) for w in walkovers])
    players = _history(t, entries, number - 1)
    for e in entries:
        players[e.pk].dropped = e.pk not in active_ids
    try:
        # the event's final round: topscorers may break the side limits (FIDE C.04.3 A.7)
        result = pair_swiss(list(players.values()), _keep_apart(active),
                            use_sides=t.format != Format.SWISS_TWO_GAME,
                            last_round=swiss_rounds is None and number == t.planned_rounds)
    except NoValidPairing as exc:
        raise Conflict(f"round {number} cannot be paired: {exc}") from None
    return (Round.Stage.SWISS, [(int(f), int(a)) for f, a in result.pairings],
            [int(result.bye)] if result.bye else [])


# --- round end, finish -----------------------------------------------------------------------

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
        t, match = lock_match(match_id)
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
        apply_result(match, clean)
        match.double_loss = clean["double_loss"]
        match.state = Match.State.SETTLED
        match.source = source
        match.settled_at = now
        # the ORM's statements compiled once per connection (``play.sql``, issue 31)
        sql.update(match, ["french_games", "allied_games", "draws", "game1", "game2",
                           "double_loss", "state", "source", "settled_at"])
        sql.insert([ResultLog(match=match, source=source, by=by, reason=reason[:500],
                              before=before, after=clean)])
        if match.round.state == Round.State.FINISHED:
            resnapshot_from(t, match.round.number)
        else:
            # both rows were read under the tournament's lock in this transaction: fresh
            maybe_finish_round(t, match.round, now, fresh=True)
    return match


# a match of the round without its result (asked after every result: compiled once)
_OPEN_MATCH = sql.Prepared(lambda rnd: Match.objects.filter(round_id=rnd).exclude(
    state=Match.State.SETTLED).order_by().only("pk"))


def maybe_finish_round(t: Tournament, rnd: Round, now, *, fresh: bool = False) -> bool:
    """Close the round when every match has its result: snapshot, webhook, next step.
    ``fresh``: ``t`` and ``rnd`` were read under the lock already (no reread)."""
    if not fresh:
        rnd.refresh_from_db(fields=["state"])
        t.refresh_from_db()
    if rnd.state == Round.State.FINISHED:
        return False
    if _OPEN_MATCH.first(rnd.pk) is not None:
        return False
    rnd.state = Round.State.FINISHED
    rnd.finished_at = now
    rnd.save(update_fields=["state", "finished_at"])
    snap = snapshot(t, rnd.number)
    emit(t, "round.finished", f"round.finished:{rnd.number}", {
        "round": rnd.number, "timed_out": rnd.timed_out,
        "standings": [{"rank": r["rank"], "player": r["name"], "match_points": r["match_points"]}
                      for r in snap.rows]})
    if t.planned_rounds and rnd.number >= t.planned_rounds or elimination_over(t):
        finish(t, now, snap)
    schedule_wake(t, now)
    return True


def elimination_over(t: Tournament) -> bool:
    if t.format == Format.DOUBLE_ELIMINATION:
        return bracket_state(t).finished
    if t.format != Format.SINGLE_ELIMINATION:
        return False
    alive = t.entries.filter(dropped_at__isnull=True).exclude(pk__in=_losers(t)).count()
    return alive <= 1


def finish(t: Tournament, now, snap=None) -> None:
    t.status = Status.FINISHED
    t.finished_at = now
    t.next_round_at = None
    t.save(update_fields=["status", "finished_at", "next_round_at"])
    unlock_decks(t)
    rows = snap.rows if snap is not None else []
    emit(t, "tournament.finished", "tournament.finished", {
        "rounds": t.current_round,
        "standings": [{"rank": r["rank"], "player": r["name"], "match_points": r["match_points"],
                       "tiebreaks": r["tiebreaks"]} for r in rows]})


def finish_if_decided(t: Tournament) -> None:
    """Double elimination between rounds: a drop that leaves the bracket decided (a finalist
    left, say) ends the event now, since no further round can be paired."""
    if t.round_set.filter(state="playing").exists() or not t.current_round:
        return  # the round's end checks it
    if elimination_over(t):
        finish(t, timezone.now(), snapshot(t, t.current_round))


def unlock_decks(t: Tournament) -> None:
    """Release this tournament's deck versions unless another running tournament holds them."""
    mine = set()
    for row in t.entries.values_list("french_version_id", "british_version_id",
                                     "prussian_version_id"):
        mine |= {v for v in row if v is not None}
    held = set()
    for row in (Entry.objects.filter(tournament__status__in=STARTED)
                .exclude(tournament=t).values_list("french_version_id", "british_version_id",
                                                   "prussian_version_id")):
        held |= {v for v in row if v is not None}
    DeckVersion.objects.filter(pk__in=mine - held).update(locked_at=None)


# --- pause / resume --------------------------------------------------------------------------

class _GamesChanged(Exception):
    """The tournament's running games changed between locking them and its row (a round
    was paired meanwhile): the pause or resume rolls back and starts again."""


def _with_games_locked(tournament_id, user, step):
    """Run ``step(t, game_ids)`` in one transaction with the tournament's running games
    locked first, then the tournament (the order a finishing game takes), retrying if a
    round was paired in between."""
    with transaction.atomic():  # the id and the organiser first: a stranger locks nothing
        t = lock_tournament(tournament_id)
        require_organiser(t, user)
    for _ in range(5):
        try:
            with transaction.atomic():
                ids = lock_running_games(t.pk)
                t = lock_tournament(t.pk)
                require_organiser(t, user)
                if running_games(t.pk) != ids:
                    raise _GamesChanged
                return step(t, ids)
        except _GamesChanged:
            continue
    raise Conflict("the tournament's games keep changing: try again")


def pause(tournament_id, user, now=None) -> Tournament:
    """Stop the clock: the round timer keeps its remaining time, nothing is paired, and
    every game of an online tournament (any kind) stops its clocks and takes no action until the
    resume (``play/pausing.py``)."""
    now = now or timezone.now()

    def step(t: Tournament, game_ids: dict[str, list[int]]) -> Tournament:
        if t.status != Status.RUNNING:
            raise Conflict("only a running tournament can be paused")
        rnd = t.round_set.filter(number=t.current_round, state=Round.State.PLAYING).first()
        if rnd is not None and rnd.ends_at is not None:
            rnd.remaining_seconds = max(0, int((rnd.ends_at - now).total_seconds()))
            rnd.ends_at = None
            rnd.save(update_fields=["remaining_seconds", "ends_at"])
        t.status = Status.PAUSED
        t.paused_at = now
        t.wake_at = None
        t.save(update_fields=["status", "paused_at", "wake_at"])
        pause_games(game_ids, now)
        return t

    return _with_games_locked(tournament_id, user, step)


def resume(tournament_id, user, now=None) -> Tournament:
    """Start the clock again; an online tournament's games restart their clocks with the
    time they had left."""
    now = now or timezone.now()

    def step(t: Tournament, game_ids: dict[str, list[int]]) -> Tournament:
        if t.status != Status.PAUSED:
            raise Conflict("the tournament is not paused")
        rnd = t.round_set.filter(number=t.current_round, state=Round.State.PLAYING).first()
        if rnd is not None and rnd.remaining_seconds is not None:
            rnd.ends_at = now + timedelta(seconds=rnd.remaining_seconds)
            rnd.remaining_seconds = None
            rnd.save(update_fields=["remaining_seconds", "ends_at"])
        if t.next_round_at is not None and t.paused_at is not None:
            t.next_round_at += now - t.paused_at
        t.status = Status.RUNNING
        t.paused_at = None
        t.save(update_fields=["status", "paused_at", "next_round_at"])
        resume_games(game_ids, now)
        schedule_wake(t, now)
        return t

    return _with_games_locked(tournament_id, user, step)
