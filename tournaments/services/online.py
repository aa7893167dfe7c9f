"""Online tournaments (issue 12): the time control's shape, each match's battles when its
round is paired, and a match's result read from its finished battles. Below ``lifecycle``
(which calls ``create_match_battles`` from ``pair``); what needs ``record_result`` (the
battle-finished listener, no-shows at the deadline) is in ``online_results``.

A one-game match is one battle (the sides as paired); a two-game match two battles, game 1
with the match's French player on the French side, game 2 with the sides swapped. Decks:
the entries' registered versions (custom, historical) or a deal from the tournament's pool
(dealt); the tournament's scale and time control; unrated, public. The battles are seated
through the game service (``play.seating``, the battle kind's ``seat``: its decks dealt by
``battles.seated``) and paused and resumed by it (``play.pausing``).
"""

from __future__ import annotations

from battles.models import Battle
from battles.models import Status as BattleStatus
from battles.setup import catalogue_now, table
from config.errors import ServiceError
from game import SIDES, other_side
from play import clock, pausing, seating

from ..models import DeckKind, Match, MatchBattle, Round, Tournament
from .errors import TournamentError

BATTLE = "battle"  # the kind of match a tournament's games are (``tournaments.MatchBattle``)


def clean_time_control(value) -> dict:
    """The tournament's time control, checked as a battle's is (``play.clock.validate``:
    ``{}`` untimed, live base + increment, correspondence days), since its battles get it;
    "" (an empty form field) is untimed. A ``TournamentError`` names the problem."""
    if value == "":
        return {}
    try:
        return clock.validate(value)
    except ServiceError as exc:
        raise TournamentError(exc.message) from None


def _choice(t: Tournament, entry) -> dict | None:
    if t.deck_kind == DeckKind.DEALT:
        return {"deal": {"pool": t.deal_pool, "historical": t.deal_historical}}
    return {"versions": [v for v in (entry.french_version_id, entry.british_version_id,
                                     entry.prussian_version_id) if v is not None]}


def _side_choice(t: Tournament, entry, side: str) -> dict | None:
    """The entry's choice for ``side``: its versions of that side's armies, or the deal."""
    choice = _choice(t, entry)
    if "versions" in choice:
        fields = ("french_version_id",) if side == "french" else (
            "british_version_id", "prussian_version_id")
        choice = {"versions": [getattr(entry, f) for f in fields if getattr(entry, f)]}
    return choice


def create_match_battles(t: Tournament, rnd: Round) -> list[MatchBattle]:
    """Every open (not bye, not already settled) match of ``rnd``: its battle(s), both players
    seated (inside the caller's pairing transaction: all of them or none)."""
    made = []
    catalogue = catalogue_now()  # read once for the round's battles
    cards = table(catalogue[1])
    matches = (Match.objects.filter(round=rnd, allied__isnull=False)
               .exclude(state=Match.State.SETTLED)
               .select_related("french__user", "allied__user"))
    for m in matches:
        seats = [(m.french, m.allied)]
        if t.games_per_match == 2:
            seats.append((m.allied, m.french))
        for game, (fr, al) in enumerate(seats, start=1):
            battle = seating.seat(
                BATTLE, fr.user, al.user, battle=t.battle, scale=t.scale,
                french_choice=_side_choice(t, fr, "french"),
                allied_choice=_side_choice(t, al, "allied"),
                time_control=t.time_control or {}, rated=False, public=True,
                catalogue=catalogue, cards=cards)
            made.append(MatchBattle(match=m, game=game, battle=battle))
    return MatchBattle.objects.bulk_create(made)


def game_outcome(match: Match, game: int, winner: str | None) -> str:
    """A finished battle's winner (a side, or None: drawn) as the game's outcome named by
    the match's listing: ``french`` = won by the player listed as French (who plays the
    Allies in game 2), ``allied``, or ``draw``."""
    if winner not in SIDES:
        return "draw"
    if game == 2:  # the sides are swapped in game 2
        return other_side(winner)
    return winner


def result_from_battles(match: Match, games: list[tuple[int, str | None]]) -> dict:
    """``[(game, winner side or None)]`` of every battle of the match -> ``record_result``'s
    result: ``{"result": ...}`` (one game) or ``{"games": [game 1, game 2]}``."""
    outcomes = [game_outcome(match, game, winner) for game, winner in sorted(games)]
    if len(outcomes) == 1:
        return {"result": outcomes[0]}
    return {"games": outcomes}


# --- Pausing (tournaments/README.md, *Pausing an online tournament*) -------------------------

def running_battle_ids(tournament_id: int) -> list[int]:
    """The ids of the tournament's battles still under way (any round: a battle may outlive
    its round's deadline), in pk order: the order their rows are locked in."""
    return list(Battle.objects.filter(tournament_game__match__round__tournament_id=tournament_id,
                                      status=BattleStatus.ACTIVE)
                .order_by("pk").values_list("pk", flat=True))


def lock_running_battles(tournament_id: int) -> list[int]:
    """Lock the tournament's running battles (before its own row: a finishing battle locks
    its row, then the tournament's, so this order never deadlocks with one); their ids."""
    ids = running_battle_ids(tournament_id)
    return list(Battle.objects.select_for_update().filter(pk__in=ids).order_by("pk")
                .values_list("pk", flat=True))


def pause_battles(ids: list[int], now) -> list[int]:
    """Stop the clocks of these (locked) battles; no action is taken until the resume."""
    return pausing.pause(BATTLE, ids, now)


def resume_battles(ids: list[int], now) -> list[int]:
    """Restart their clocks with the time they had; the flag falls are booked again."""
    return pausing.resume(BATTLE, ids, now)
