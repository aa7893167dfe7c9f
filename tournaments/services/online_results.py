"""Online tournaments' results (issue 12): a finished battle reports at once, and at the
round's deadline a player who never acted is a no-show. Both go through
``lifecycle.record_result``, the one way a result enters a match.

* ``match_finished`` (``play.signals``, inside the transaction that ends the battle:
  the result is written with the end or not at all) -> ``record_online``: once every battle
  of the match is finished (a two-game match: after the second), the winners become the
  match's result (source ``online``). Any end counts the same: the engine's (morale,
  positions), a resignation, a flag fall (reason ``time``: a loss like any other), an
  absence claim. Idempotent: a match already settled (a second signal, a no-show, the
  organiser) is left alone; the organiser corrects through the usual correction.
  A result the tournament refuses (a drawn battle in an elimination round) leaves the match
  disputed for the organiser, and the battle still ends.
* ``no_shows_at_deadline`` (called by ``results.time_limit`` at the round's ``ends_at``,
  under the tournament lock): in an unsettled match, a player who never acted in any of its
  battles although it was their move in one of them is a no-show: the tournament's no-show
  rule (a game loss per game; both: a double loss; source ``no_show``). Their unfinished
  battles end with reason ``absent`` (won by the player who was there; both absent: no
  winner). Battles another transaction holds right now are skipped (never waited for: the
  battle -> tournament lock order of a finishing battle is never reversed); they end later
  and, the match being settled, change nothing. Matches where both players acted get the
  ordinary time-limit rule; their battles stay as they are. A two-game match with one
  battle over keeps that game's result, the unfinished game drawn.
"""

from __future__ import annotations

import logging

from django.db import transaction

from battles.models import Battle, BattleAction, EndReason
from battles.models import Status as BattleStatus
from battles.services import finish_battle
from game import SIDES

from ..models import STARTED, Match, MatchBattle, ResultLog, Round, Tournament
from .common import lock_match
from .errors import TournamentError
from .lifecycle import record_result
from .online import result_from_battles

log = logging.getLogger(__name__)


def on_battle_finished(sender=None, kind: str | None = None, match: Battle | None = None,
                       **kwargs) -> None:
    """``play.signals.match_finished`` receiver: a tournament's battle reports its match."""
    battle = match
    if kind != "battle" or battle is None:
        return
    match_id = (MatchBattle.objects.filter(battle_id=battle.pk)
                .values_list("match_id", flat=True).first())
    if match_id is not None:
        record_online(match_id)


def _reason(links: list[MatchBattle]) -> str:
    words = []
    for link in links:
        outcome = link.battle.outcome or {}
        winner = outcome.get("winner")
        who = (link.battle.player(winner).username if winner in SIDES
               else "nobody (drawn)")
        words.append(f"game {link.game}: battle {link.battle_id} won by {who} "
                     f"({outcome.get('reason', '?')})")
    return "; ".join(words)


def record_online(match_id) -> Match | None:
    """Settle the match from its battles if they are all finished and it has no result."""
    with transaction.atomic():
        t, match = lock_match(match_id)
        if match.state == Match.State.SETTLED or t.status not in STARTED:
            return None
        links = list(MatchBattle.objects.filter(match=match)
                     .select_related("battle__french_player", "battle__allied_player"))
        if not links or any(link.battle.status != BattleStatus.FINISHED for link in links):
            return None
        result = result_from_battles(
            match, [(link.game, (link.battle.outcome or {}).get("winner")) for link in links])
        try:
            return record_result(match.pk, result, source=ResultLog.Source.ONLINE,
                                 reason=_reason(links))
        except TournamentError as exc:  # e.g. a draw where the round allows none
            log.warning("tournament %s match %s: online result %s refused (%s); left to the "
                        "organiser", t.pk, match.pk, result, exc.message)
            match.state = Match.State.DISPUTED
            match.save(update_fields=["state"])
            return None


def _absent(match: Match, links: list[MatchBattle]) -> tuple[bool, bool]:
    """(French player absent, Allied player absent): never acted in any battle of the match
    although it was their move in an unfinished one."""
    acted = {(b, side) for b, side in BattleAction.objects.filter(
        battle_id__in=[link.battle_id for link in links]).values_list("battle_id", "side")}
    acted_users = {link.battle.player_id(side) for link in links for b, side in acted
                   if b == link.battle_id}
    waited_for = {link.battle.player_id(link.battle.to_move) for link in links
                  if link.battle.status == BattleStatus.ACTIVE and link.battle.to_move}
    users = (match.french.user_id, match.allied.user_id)
    return tuple(u not in acted_users and u in waited_for for u in users)


def _part_played(m: Match, links: list[MatchBattle], now) -> int:
    """A two-game match with one battle over at the deadline: that game's result stands and
    the unfinished one is drawn (source ``time_limit``). Where the round allows no draw the
    match is left to the ordinary rule (a dispute for the organiser)."""
    finished = [link for link in links if link.battle.status == BattleStatus.FINISHED]
    if not finished:
        return 0  # the ordinary time-limit rule: a draw (elimination: a dispute)
    result = result_from_battles(m, [
        (link.game, (link.battle.outcome or {}).get("winner")
         if link.battle.status == BattleStatus.FINISHED else None) for link in links])
    unfinished = ", ".join(f"game {link.game}" for link in links if link not in finished)
    try:
        record_result(m.pk, result, source=ResultLog.Source.TIME_LIMIT, now=now,
                      reason=f"unfinished at time: {unfinished} drawn")
    except TournamentError:
        return 0
    return 1


def no_shows_at_deadline(t: Tournament, rnd: Round, now) -> int:
    """The round's deadline (the tournament row locked by the caller): no-shows of online
    matches take the no-show rule; returns the matches settled."""
    settled = 0
    games = t.games_per_match
    for m in (Match.objects.filter(round=rnd, allied__isnull=False)
              .exclude(state=Match.State.SETTLED).select_related("french", "allied")):
        links = list(MatchBattle.objects.filter(match=m).select_related("battle"))
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
                      reason="never acted in the online battle by the round's deadline")
        settled += 1
        absent_users = {u for u, out in ((m.french.user_id, f_out), (m.allied.user_id, a_out))
                        if out}
        ids = [link.battle_id for link in links]
        for battle in Battle.objects.select_for_update(skip_locked=True).filter(
                pk__in=ids, status=BattleStatus.ACTIVE):
            present = [s for s in SIDES
                       if battle.player_id(s) not in absent_users]
            finish_battle(battle, {"winner": present[0] if len(present) == 1 else None,
                                   "reason": EndReason.ABSENT.value, "turn": battle.turn})
    return settled
