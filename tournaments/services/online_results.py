"""Online tournaments' results (issue 12), every game (``Tournament.game``: battles and any
other kind seated through ``play.seating``): a finished game reports at once, and at the
round's deadline a player who never acted is a no-show. Both go through
``lifecycle.record_result``, the one way a result enters a match. A tournament's games are
its ``MatchGame`` links (kind, played id); the played matches are read through
``play.registry.get(kind).model`` (``attach_played``).

* ``match_finished`` (``play.signals``, inside the transaction that ends the played match)
  -> ``on_match_finished`` finds the link by (kind, id) (on PostgreSQL read in the ending
  statement itself: ``link_at_end``) and, once the end commits, sends the task
  ``tournaments.record_online`` (issue 31: the result off the ending action's path, done by
  a worker; ``tasks.tick`` sweeps what a lost broker left: ``unreported``) ->
  ``record_online``: once every game of the match is finished (a two-game
  match: after the second), the winners (``outcome["winner"]``) become the match's result
  (source ``online``). Any end counts the same: the game's own, a resignation, a flag fall
  (reason ``time``: a loss like any other), an absence claim. Idempotent: a match already
  settled (a second signal, a no-show, the organiser) is left alone; the organiser corrects
  through the usual correction. A result the tournament refuses (a draw in an elimination
  round) leaves the match disputed for the organiser, and the game still ends.
* ``no_shows_at_deadline`` (called by ``results.time_limit`` at the round's ``ends_at``,
  under the tournament lock): in an unsettled match, a player who never acted in any of its
  games although it was their move in one of them is a no-show: the tournament's no-show
  rule (a game loss per game; both: a double loss; source ``no_show``). Their unfinished
  games end with reason ``absent`` (won by the player who was there; both absent: no
  winner). Games another transaction holds right now are skipped (never waited for: the
  match -> tournament lock order of a finishing game is never reversed); they end later
  and, the match being settled, change nothing. Matches where both players acted get the
  ordinary time-limit rule; their games stay as they are. A two-game match with one game
  over keeps that game's result, the unfinished game drawn.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from battles.models import EndReason
from battles.services import finish_battle
from game import SIDES
from play import enqueue, registry, turns
from play.alongside import Part
from play.models import MatchStatus

from .. import enqueue as by_name
from ..models import (
    BATTLE,
    STARTED,
    Match,
    MatchGame,
    ResultLog,
    Round,
    Tournament,
    attach_played,
)
from .common import lock_match
from .errors import TournamentError
from .lifecycle import record_result
from .online import result_from_games

log = logging.getLogger(__name__)

FINISHED = MatchStatus.FINISHED
RECORD = "tournaments.record_online"  # the task (``tasks.record_online``), sent by name
# The sweep leaves a match whose last game ended this recently to the task sent at its end.
GRACE = timedelta(seconds=30)
SEATS = ("french_player", "allied_player")


LINK = "tournament_game"  # the name of ``link_at_end``'s part (``written``)


def link_at_end(kind, match, by: str) -> Part | None:
    """``play.alongside`` writer: in the statement that ends ``match`` (finished), read its
    tournament link (the tournament's match id, or no row), so that ``on_match_finished``
    of a match that is no tournament's game costs no query (issue 31: an ending action in 4
    round trips)."""
    if match.status != FINISHED:
        return None
    table = connection.ops.quote_name(MatchGame._meta.db_table)
    return Part(LINK, ((LINK, f"SELECT match_id FROM {table} WHERE kind = %s "
                              "AND played_id = %s"),), (kind.kind, match.pk))


def on_match_finished(sender=None, kind: str | None = None, match=None,
                      written: dict | None = None, **kwargs) -> None:
    """``play.signals.match_finished`` receiver, every kind: a tournament's game reports its
    match (the link found by the kind and the played match's id; read in the ending
    statement when ``written`` has it, ``link_at_end``)."""
    if kind is None or match is None:
        return
    if written is not None and LINK in written:
        match_id = (written[LINK] or {}).get("match_id")
    else:
        match_id = (MatchGame.objects.filter(kind=kind, played_id=match.pk)
                    .values_list("match_id", flat=True).first())
    if match_id is not None:  # the result is a worker's, once the end commits
        enqueue.after_commit(RECORD, [match_id], options=by_name.options())


on_battle_finished = on_match_finished  # the name the receiver had when only battles played


def unreported(now=None, limit: int = 500) -> list[int]:
    """The tournament's matches (of started tournaments, pending or reported) whose every
    game finished more than ``GRACE`` ago: the sweep's (``tasks.tick``), for a result whose
    task was lost (a broker down at the end, a worker that died). A disputed one is the
    organiser's."""
    before = (now or timezone.now()) - GRACE
    links: dict[int, list[tuple[str, int]]] = {}
    for match_id, kind, played_id in (
            MatchGame.objects.filter(match__tournament__status__in=STARTED,
                                     match__state__in=(Match.State.PENDING,
                                                       Match.State.REPORTED))
            .values_list("match_id", "kind", "played_id")):
        links.setdefault(match_id, []).append((kind, played_id))
    by_kind: dict[str, set[int]] = {}
    for games in links.values():
        for kind, played_id in games:
            by_kind.setdefault(kind, set()).add(played_id)
    over = {(kind, pk) for kind, ids in by_kind.items()
            for pk in registry.get(kind).model.objects.filter(
                pk__in=ids, status=FINISHED, finished_at__lte=before)
            .values_list("pk", flat=True)}
    return sorted(m for m, games in links.items() if all(g in over for g in games))[:limit]


def _winner(link: MatchGame) -> str | None:
    return (link.played.outcome or {}).get("winner")


def _reason(links: list[MatchGame]) -> str:
    words = []
    for link in links:
        played = link.played
        outcome = played.outcome or {}
        winner = outcome.get("winner")
        who = (played.player(winner).username if winner in SIDES
               else "nobody (drawn)")
        noun = registry.get(link.kind).noun
        words.append(f"game {link.game}: {noun} {link.played_id} won by {who} "
                     f"({outcome.get('reason', '?')})")
    return "; ".join(words)


def record_online(match_id) -> Match | None:
    """Settle the match from its games if they are all finished and it has no result."""
    with transaction.atomic():
        t, match = lock_match(match_id)
        if match.state == Match.State.SETTLED or t.status not in STARTED:
            return None
        links = attach_played(list(MatchGame.objects.filter(match=match)), *SEATS)
        if not links or any(link.played.status != FINISHED for link in links):
            return None
        result = result_from_games(match, [(link.game, _winner(link)) for link in links])
        try:
            return record_result(match.pk, result, source=ResultLog.Source.ONLINE,
                                 reason=_reason(links))
        except TournamentError as exc:  # e.g. a draw where the round allows none
            log.warning("tournament %s match %s: online result %s refused (%s); left to the "
                        "organiser", t.pk, match.pk, result, exc.message)
            match.state = Match.State.DISPUTED
            match.save(update_fields=["state"])
            return None


def _acted(links: list[MatchGame]) -> set[int]:
    """The users who acted in any of these games (any action row, per kind)."""
    users: set[int] = set()
    by_kind: dict[str, list[MatchGame]] = {}
    for link in links:
        by_kind.setdefault(link.kind, []).append(link)
    for kind_name, group in by_kind.items():
        kind = registry.get(kind_name)
        column = f"{kind.match_field}_id"
        played = {link.played_id: link.played for link in group}
        for pk, side in (kind.action_model.objects.filter(**{f"{column}__in": list(played)})
                         .values_list(column, "side").distinct()):
            users.add(played[pk].player_id(side))
    return users


def _absent(match: Match, links: list[MatchGame]) -> tuple[bool, bool]:
    """(French player absent, Allied player absent): never acted in any game of the match
    although it was their move in an unfinished one."""
    acted_users = _acted(links)
    waited_for = {link.played.player_id(link.played.to_move) for link in links
                  if link.played.status == MatchStatus.ACTIVE and link.played.to_move}
    users = (match.french.user_id, match.allied.user_id)
    f_out, a_out = (u not in acted_users and u in waited_for for u in users)
    return f_out, a_out


def _part_played(m: Match, links: list[MatchGame], now) -> int:
    """A two-game match with one game over at the deadline: that game's result stands and
    the unfinished one is drawn (source ``time_limit``). Where the round allows no draw the
    match is left to the ordinary rule (a dispute for the organiser)."""
    finished = [link for link in links if link.played.status == FINISHED]
    if not finished:
        return 0  # the ordinary time-limit rule: a draw (elimination: a dispute)
    result = result_from_games(m, [
        (link.game, _winner(link) if link.played.status == FINISHED else None)
        for link in links])
    unfinished = ", ".join(f"game {link.game}" for link in links if link not in finished)
    try:
        record_result(m.pk, result, source=ResultLog.Source.TIME_LIMIT, now=now,
                      reason=f"unfinished at time: {unfinished} drawn")
    except TournamentError:
        return 0
    return 1


def _end_absent(kind_name: str, ids: list[int], absent_users: set[int]) -> None:
    """End the still running games among ``ids`` with reason ``absent``, won by the player
    who was there (both absent: no winner). Rows another transaction holds are skipped
    (``skip_locked``): the match -> tournament lock order of a finishing game is never
    reversed. A battle ends as it always has (``{"winner", "reason", "turn"}``,
    ``battles.services.finish_battle``); another kind through ``play.turns.finish`` with the
    kind's off-board outcome (``{"winner", "reason": "absent", "loser"}``)."""
    kind = registry.get(kind_name)
    for played in kind.model.objects.select_for_update(skip_locked=True).filter(
            pk__in=ids, status=MatchStatus.ACTIVE):
        present = [s for s in SIDES if played.player_id(s) not in absent_users]
        winner = present[0] if len(present) == 1 else None
        if kind_name == BATTLE:
            finish_battle(played, {"winner": winner, "reason": EndReason.ABSENT.value,
                                   "turn": played.turn})
            continue
        loser = [s for s in SIDES if s != winner][0] if winner else None
        outcome = {"winner": winner, "reason": "absent", "loser": loser}
        turns.finish(kind, played, kind.off_board_outcome(played, outcome))


def no_shows_at_deadline(t: Tournament, rnd: Round, now) -> int:
    """The round's deadline (the tournament row locked by the caller): no-shows of online
    matches take the no-show rule; returns the matches settled."""
    settled = 0
    games = t.games_per_match
    for m in (Match.objects.filter(round=rnd, allied__isnull=False)
              .exclude(state=Match.State.SETTLED).select_related("french", "allied")):
        links = attach_played(list(MatchGame.objects.filter(match=m)))
        if not links:
            continue
        f_out, a_out = _absent(m, links)
        if not (f_out or a_out):
            settled += _part_played(m, links, now)
            continue
        record_result(m.pk, {"french_games": 0 if f_out else games,
                             "allied_games": 0 if a_out else games, "draws": 0,
                             "double_loss": f_out and a_out},
                      source=ResultLog.Source.NO_SHOW, now=now,
                      reason=f"never acted in the online {registry.get(links[0].kind).noun} "
                             "by the round's deadline")
        settled += 1
        absent_users = {u for u, out in ((m.french.user_id, f_out), (m.allied.user_id, a_out))
                        if out}
        by_kind: dict[str, list[int]] = {}
        for link in links:
            by_kind.setdefault(link.kind, []).append(link.played_id)
        for kind_name, ids in sorted(by_kind.items()):
            _end_absent(kind_name, ids, absent_users)
    return settled
