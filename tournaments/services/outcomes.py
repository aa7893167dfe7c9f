"""What a result is: a result as given -> its stored shape (``clean_result``), the shape of a
match's stored result, and writing one onto a Match or Report. No locking, no state changes:
``lifecycle.record_result`` (the one way a result enters) and ``results`` use it."""

from __future__ import annotations

from ..models import Match, Round
from .errors import TournamentError

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


def result_dict(m: Match) -> dict | None:
    if m.state != Match.State.SETTLED:
        return None
    return {"french_games": m.french_games, "allied_games": m.allied_games, "draws": m.draws,
            "double_loss": m.double_loss}


def stored_result(t, match: Match) -> dict | None:
    """A settled match's result in ``clean_result``'s shape (for the log's ``before``)."""
    before = result_dict(match)
    if before is not None and t.games_per_match == 2:
        before["games"] = match.games
    return before


def apply_result(obj, clean: dict) -> None:
    """Write a clean result's totals and per-game outcomes onto a Match or Report."""
    for key in ("french_games", "allied_games", "draws"):
        setattr(obj, key, clean[key])
    obj.game1, obj.game2 = clean.get("games") or ("", "")
