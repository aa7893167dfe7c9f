"""Online tournaments (issue 12): the time control's shape, each match's games when its
round is paired, and a match's result read from its finished games. Below ``lifecycle``
(which calls ``create_match_games`` from ``pair``); what needs ``record_result`` (the
match-finished listener, no-shows at the deadline) is in ``online_results``.

A tournament's games are matches of its ``game`` (a kind of ``play.registry`` that can be
seated: "battle", or any other). A one-game match is one played match (the sides as
paired); a two-game match two, game 1 with the match's French player on the French side,
game 2 with the sides swapped; each linked by a ``MatchGame`` (kind, played id). Every kind is
seated through the game service (``play.seating``, the kind's ``seat``), unrated, public,
with the tournament's time control, and paused and resumed by it (``play.pausing``). A
battle gets the EAGLES options (decks: the entries' registered versions, custom or
historical, or a deal from the tournament's pool; its battle and scale: ``battles.seated``);
another kind the tournament's ``game_options``, passed through as they are: its ``seat``
checks them (a ``ServiceError`` there refuses the pairing with a 400 naming the game).
"""

from __future__ import annotations

from collections.abc import Iterable

from battles.setup import catalogue_now, table
from config.errors import ServiceError
from game import SIDES, other_side
from play import clock, pausing, registry, seating
from play.models import MatchStatus

from ..models import BATTLE, DeckKind, Match, MatchGame, Round, Tournament
from .errors import TournamentError


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


def _battle_options(t: Tournament, fr, al, shared: dict) -> dict:
    return {"battle": t.battle, "scale": t.scale,
            "french_choice": _side_choice(t, fr, "french"),
            "allied_choice": _side_choice(t, al, "allied"), **shared}


def create_match_games(t: Tournament, rnd: Round) -> list[MatchGame]:
    """Every open (not bye, not already settled) match of ``rnd``: its game(s) of the
    tournament's kind, both players seated (inside the caller's pairing transaction: all of
    them or none). A kind's refusal (its ``seat`` raising a ``ServiceError``: options it does
    not take) is a ``TournamentError`` naming the game, and nothing is paired."""
    made = []
    kind = t.game or BATTLE
    shared: dict = {"time_control": t.time_control or {}, "rated": False, "public": True}
    if kind == BATTLE:
        catalogue = catalogue_now()  # read once for the round's battles
        shared.update(catalogue=catalogue, cards=table(catalogue[1]))
    matches = (Match.objects.filter(round=rnd, allied__isnull=False)
               .exclude(state=Match.State.SETTLED)
               .select_related("french__user", "allied__user"))
    for m in matches:
        seats = [(m.french, m.allied)]
        if t.games_per_match == 2:
            seats.append((m.allied, m.french))
        for game, (fr, al) in enumerate(seats, start=1):
            options = (_battle_options(t, fr, al, shared) if kind == BATTLE
                       else {**(t.game_options or {}), **shared})
            try:
                played = seating.seat(kind, fr.user, al.user, **options)
            except ServiceError as exc:
                if kind == BATTLE:
                    raise
                raise TournamentError(f"the {kind} tournament's games cannot be seated: "
                                      f"{exc.message} (game_options: "
                                      f"{t.game_options or {}})") from None
            made.append(MatchGame(match=m, game=game, kind=kind, played_id=played.pk))
    return MatchGame.objects.bulk_create(made)


def game_outcome(match: Match, game: int, winner: str | None) -> str:
    """A finished game's winner (a side, or None: drawn) as the game's outcome named by
    the match's listing: ``french`` = won by the player listed as French (who plays the
    Allies in game 2), ``allied``, or ``draw``."""
    if winner not in SIDES:
        return "draw"
    if game == 2:  # the sides are swapped in game 2
        return other_side(winner)
    return winner


def result_from_games(match: Match, games: list[tuple[int, str | None]]) -> dict:
    """``[(game, winner side or None)]`` of every played game of the match -> ``record_result``'s
    result: ``{"result": ...}`` (one game) or ``{"games": [game 1, game 2]}``."""
    outcomes = [game_outcome(match, game, winner) for game, winner in sorted(games)]
    if len(outcomes) == 1:
        return {"result": outcomes[0]}
    return {"games": outcomes}


# --- Pausing (tournaments/README.md, *Pausing an online tournament*) -------------------------

def running_games(tournament_id: int) -> dict[str, list[int]]:
    """The tournament's played matches still under way (any round: a game may outlive its
    round's deadline), by kind (kinds in name order), ids in pk order: the order their rows
    are locked in."""
    links: dict[str, list[int]] = {}
    for kind, played_id in (MatchGame.objects.filter(match__round__tournament_id=tournament_id)
                            .values_list("kind", "played_id")):
        links.setdefault(kind, []).append(played_id)
    running = {}
    for kind in sorted(links):
        ids = list(registry.get(kind).model.objects.filter(
            pk__in=links[kind], status=MatchStatus.ACTIVE).order_by("pk")
            .values_list("pk", flat=True))
        if ids:
            running[kind] = ids
    return running


def lock_running_games(tournament_id: int) -> dict[str, list[int]]:
    """Lock the tournament's running games (before its own row: a finishing match locks its
    row, then the tournament's, so this order never deadlocks with one); their ids by kind."""
    locked = {}
    for kind, ids in running_games(tournament_id).items():
        locked[kind] = list(registry.get(kind).model.objects.select_for_update()
                            .filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
    return {kind: ids for kind, ids in locked.items() if ids}


def pause_games(running: dict[str, Iterable[int]], now) -> dict[str, list[int]]:
    """Stop the clocks of these (locked) games, each through its kind; no action is taken
    until the resume."""
    return {kind: pausing.pause(kind, ids, now) for kind, ids in running.items()}


def resume_games(running: dict[str, Iterable[int]], now) -> dict[str, list[int]]:
    """Restart their clocks with the time they had; the flag falls are booked again."""
    return {kind: pausing.resume(kind, ids, now) for kind, ids in running.items()}
