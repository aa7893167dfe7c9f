"""JSON in/out (see README.md for the format) with precise errors for malformed input."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .double_bracket import Game, double_elimination_round
from .elimination import double_elimination, elimination_round, top_cut
from .model import SIDES, PairingError, Player, ranked
from .round_robin import round_robin_round
from .swiss import pair_swiss

SYSTEMS = ("swiss", "round_robin", "single_elimination", "double_elimination", "top_cut")


def _type(value: Any, types: tuple[type, ...], where: str, what: str) -> Any:
    """``value`` once it is an instance of one of ``types`` (a bool only where bool is)."""
    if isinstance(value, bool) and bool not in types:
        raise PairingError(f"{where}: {what} must be {_names(types)}, got a boolean")
    if not isinstance(value, types):
        raise PairingError(f"{where}: {what} must be {_names(types)}, got {type(value).__name__}")
    return value


def _names(types: tuple[type, ...]) -> str:
    if set(types) == {int, float}:
        return "a number"
    names = {
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
        bool: "true or false",
    }
    return " or ".join(names.get(t, t.__name__) for t in types)


def parse_players(data: dict) -> list[Player]:
    raw = data.get("players")
    if raw is None:
        raise PairingError('missing key "players"')
    _type(raw, (list,), "top level", '"players"')
    players, seen = [], set()
    for k, item in enumerate(raw):
        where = f"players[{k}]"
        _type(item, (dict,), where, "a player")
        for key in ("id", "points", "opponents", "sides"):
            if key not in item:
                raise PairingError(f'{where}: missing key "{key}"')
        pid = _type(item["id"], (str,), where, '"id"')
        where = f'player "{pid}"'
        if pid in seen:
            raise PairingError(f'duplicate player id "{pid}"')
        seen.add(pid)
        points = _type(item["points"], (int, float), where, '"points"')
        if points < 0:
            raise PairingError(f'{where}: "points" must not be negative')
        rating = _type(item.get("rating", 0), (int, float), where, '"rating"')
        opponents = _type(item["opponents"], (list,), where, '"opponents"')
        sides = _type(item["sides"], (list,), where, '"sides"')
        if len(opponents) != len(sides):
            raise PairingError(
                f'{where}: "opponents" has {len(opponents)} entries but "sides" has {len(sides)}'
            )
        for r, (opp, side) in enumerate(zip(opponents, sides, strict=True), start=1):
            if opp is not None and not isinstance(opp, str):
                raise PairingError(f"{where}: opponent in round {r} must be an id or null")
            if opp == pid:
                raise PairingError(f"{where}: plays itself in round {r}")
            if side is not None and side not in SIDES:
                raise PairingError(
                    f'{where}: side in round {r} is {side!r}; use "french", "allied" or null'
                )
            if opp is None and side is not None:
                raise PairingError(f"{where}: round {r} has a side but no opponent")
        seed = item.get("seed")
        if seed is not None:
            _type(seed, (int,), where, '"seed"')
        tiebreaks = _type(item.get("tiebreaks", []), (list,), where, '"tiebreaks"')
        for t in tiebreaks:
            _type(t, (int, float), where, '"tiebreaks" entries')
        players.append(
            Player(
                id=pid,
                rating=rating,
                points=Fraction(str(points)) if isinstance(points, float) else Fraction(points),
                opponents=list(opponents),
                sides=list(sides),
                had_bye=_type(item.get("had_bye", False), (bool,), where, '"had_bye"'),
                dropped=_type(item.get("dropped", False), (bool,), where, '"dropped"'),
                seed=seed,
                tiebreaks=tuple(tiebreaks),
            )
        )
    ids = {p.id for p in players}
    for p in players:
        for r, opp in enumerate(p.opponents, start=1):
            if opp is not None and opp not in ids:
                raise PairingError(f'player "{p.id}": unknown opponent "{opp}" in round {r}')
    met = {(p.id, o) for p in players for o in p.opponents if o is not None}
    for a, b in sorted(met):
        if (b, a) not in met:
            raise PairingError(f'player "{a}" lists "{b}" as an opponent but "{b}" does not')
    return players


def parse_rules(data: dict) -> dict:
    rules = data.get("rules", {"system": "swiss"})
    _type(rules, (dict,), "top level", '"rules"')
    system = rules.get("system", "swiss")
    if system not in SYSTEMS:
        raise PairingError(f"unknown system {system!r}; use one of {', '.join(SYSTEMS)}")
    games = rules.get("match_games", 1)
    if games not in (1, 2) or isinstance(games, bool):
        raise PairingError('"match_games" must be 1 or 2')
    last = rules.get("last_round", False)
    if not isinstance(last, bool):
        raise PairingError('"last_round" must be true or false')
    if "rounds" in rules:
        total = rules["rounds"]
        if not isinstance(total, int) or isinstance(total, bool) or total < 1:
            raise PairingError('"rounds" must be a positive integer (the rounds planned)')
        last = last or data.get("round") == total
    keep = _type(rules.get("keep_apart", []), (list,), "rules", '"keep_apart"')
    for group in keep:
        _type(group, (list,), "rules", '"keep_apart" entries')
        for pid in group:
            _type(pid, (str,), "rules", '"keep_apart" ids')
    return {**rules, "system": system, "match_games": games, "keep_apart": keep,
            "last_round": last}


def _objective_json(value: tuple[Fraction, int, int] | None) -> dict | None:
    if value is None:
        return None
    sq, unmet, strong = value
    return {"score_sq_sum": int(sq) if sq == int(sq) else float(sq), "unmet": unmet,
            "unmet_strong": strong}


def pair_round_json(data: dict) -> dict:
    """Pair one round from the documented JSON shape; raises :class:`PairingError`."""
    _type(data, (dict,), "file", "the top level")
    if "round" in data:
        rnd = _type(data["round"], (int,), "top level", '"round"')
        if rnd < 1:
            raise PairingError('"round" must be at least 1')
    else:
        rnd = None
    rules = parse_rules(data)
    if rules["system"] == "double_elimination":
        return _double_elimination_json(data, rnd)
    players = parse_players(data)
    ids = {p.id for p in players}
    for group in rules["keep_apart"]:
        for pid in group:
            if pid not in ids:
                raise PairingError(f'rules: unknown player "{pid}" in "keep_apart"')
    system = rules["system"]
    if system == "swiss":
        res = pair_swiss(players, rules["keep_apart"], use_sides=rules["match_games"] == 1,
                         last_round=rules["last_round"])
        out: dict[str, Any] = {
            "pairings": [{"french": f, "allied": a} for f, a in res.pairings], "bye": res.bye,
            "optimal": res.optimal,
            "objective": _objective_json(res.objective),
            "lower_bound": _objective_json(res.lower_bound)}
        if rules["match_games"] == 2:
            out["games"] = 2  # game 2 is played with sides swapped
        return out
    if rnd is None:
        raise PairingError(f'missing key "round" (needed by {system})')
    seeds = [p.id for p in _seeded(players)]
    if system == "round_robin":
        # the schedule keeps every entrant; games against dropped players are not played
        pairs, bye = round_robin_round(seeds, rnd, bool(rules.get("double", False)))
        dropped = {p.id for p in players if p.dropped}
        played = [(f, a) for f, a in pairs if f not in dropped and a not in dropped]
        unpaired = sorted(
            {x for f, a in pairs for x in (f, a) if x not in dropped}
            - {x for f, a in played for x in (f, a)}
        )
        return {
            "pairings": [{"french": f, "allied": a} for f, a in played],
            "bye": bye,
            "unpaired": unpaired,
        }
    if system == "single_elimination":
        alive = {p.id for p in players if not p.dropped and len(p.opponents) - p.points == 0}
        pairs, walkovers = elimination_round(seeds, alive, rnd)
        return {
            "pairings": [{"french": f, "allied": a} for f, a in pairs],
            "bye": walkovers[0] if len(walkovers) == 1 else None,
            "byes": walkovers,
        }
    # top cut
    cut = rules.get("cut")
    if not isinstance(cut, int) or isinstance(cut, bool) or cut < 2:
        raise PairingError('rules: "cut" must be an integer of at least 2 for a top cut')
    standing = [p.id for p in ranked([p for p in players if not p.dropped])]
    if cut > len(standing):
        raise PairingError(f"rules: cut {cut} is larger than the {len(standing)} active players")
    matches = top_cut(standing, cut)
    return {
        "pairings": [{"french": a, "allied": b} for a, b in matches if b is not None],
        "bye": None,
        "byes": [a for a, b in matches if b is None],
    }


def _seeded(players: list[Player]) -> list[Player]:
    if all(p.seed is not None for p in players):
        return sorted(players, key=lambda p: p.seed or 0)  # every seed is set here
    return sorted(players, key=lambda p: (-p.rating, p.id))


def _de_players(data: dict) -> tuple[list[str], dict[str, int], set[str]]:
    """Double elimination players: ``id``, optional ``seed`` (else rating order),
    ``dropped_after`` (last round paired) or ``dropped``. Returns (seeds, dropped_after,
    dropped without a round)."""
    raw = data.get("players")
    if raw is None:
        raise PairingError('missing key "players"')
    _type(raw, (list,), "top level", '"players"')
    rows: list[tuple[str, int | None, int | float]] = []
    seen: set[str] = set()
    dropped_after: dict[str, int] = {}
    dropped: set[str] = set()
    for k, item in enumerate(raw):
        _type(item, (dict,), f"players[{k}]", "a player")
        if "id" not in item:
            raise PairingError(f'players[{k}]: missing key "id"')
        pid = _type(item["id"], (str,), f"players[{k}]", '"id"')
        where = f'player "{pid}"'
        if pid in seen:
            raise PairingError(f'duplicate player id "{pid}"')
        seen.add(pid)
        seed = item.get("seed")
        if seed is not None:
            _type(seed, (int,), where, '"seed"')
        rating = _type(item.get("rating", 0), (int, float), where, '"rating"')
        if item.get("dropped_after") is not None:
            after = _type(item["dropped_after"], (int,), where, '"dropped_after"')
            if after < 0:
                raise PairingError(f'{where}: "dropped_after" must not be negative')
            dropped_after[pid] = after
        elif _type(item.get("dropped", False), (bool,), where, '"dropped"'):
            dropped.add(pid)
        rows.append((pid, seed, rating))
    if len(rows) < 2:
        raise PairingError("a double elimination needs at least 2 players")
    seeded = [r for r in rows if r[1] is not None]
    if seeded and len(seeded) != len(rows):
        raise PairingError('give every player a "seed", or none (rating order)')
    if seeded:
        if len({r[1] for r in rows}) != len(rows):
            raise PairingError("seeds must be distinct")
        order = sorted(rows, key=lambda r: r[1] or 0)  # every seed is set here
    else:
        order = sorted(rows, key=lambda r: (-r[2], r[0]))
    return [r[0] for r in order], dropped_after, dropped


def _de_games(data: dict, ids: set[str]) -> list[tuple[Game, str | None]]:
    raw = data.get("games", [])
    _type(raw, (list,), "top level", '"games"')
    games = []
    for k, item in enumerate(raw):
        where = f"games[{k}]"
        _type(item, (dict,), where, "a game")
        for key in ("round", "french", "allied", "winner"):
            if key not in item:
                raise PairingError(f'{where}: missing key "{key}"')
        rnd = _type(item["round"], (int,), where, '"round"')
        if rnd < 1:
            raise PairingError(f'{where}: "round" must be at least 1')
        french = _type(item["french"], (str,), where, '"french"')
        allied = _type(item["allied"], (str,), where, '"allied"')
        for pid in (french, allied):
            if pid not in ids:
                raise PairingError(f'{where}: unknown player "{pid}"')
        if french == allied:
            raise PairingError(f'{where}: "{french}" plays itself')
        winner = item["winner"]
        if winner is not None and winner not in (french, allied):
            raise PairingError(f'{where}: "winner" must be "{french}", "{allied}" or null '
                               "(a double loss)")
        label = item.get("bracket")
        if label is not None:
            _type(label, (str,), where, '"bracket"')
        games.append((Game(rnd, french, allied, winner), label))
    return games


def _double_elimination_json(data: dict, rnd: int | None) -> dict:
    """Round ``rnd`` (default: the round after the last game) of a double elimination from
    the games played so far; every bracket match of the earlier rounds needs its game."""
    seeds, dropped_after, dropped = _de_players(data)
    games = _de_games(data, set(seeds))
    last = max((g.round for g, _ in games), default=0)
    if rnd is None:
        rnd = last + 1
    elif last >= rnd:
        raise PairingError(f'games[]: a game of round {last} is not before "round" {rnd}')
    for pid in dropped:
        dropped_after[pid] = rnd - 1
    plain = [g for g, _ in games]
    try:
        for k in range(1, rnd):  # every earlier round: exactly its open matches were played
            state = double_elimination_round(seeds, plain, k, dropped_after)
            if state.finished:
                raise PairingError(f"the bracket was decided after round {k - 1}; "
                                   f"there is no round {k}")
            played = {frozenset((g.french, g.allied)): label
                      for g, label in games if g.round == k}
            open_now = {frozenset((p.french, p.allied)) for p in state.pairings}
            for g, _label in games:
                if g.round == k and frozenset((g.french, g.allied)) not in open_now:
                    raise PairingError(f"round {k}: {g.french} v {g.allied} is not an open "
                                       "match of the bracket")
            for p in state.pairings:
                key = frozenset((p.french, p.allied))
                if key not in played:
                    raise PairingError(f"round {k}: no result for bracket match {p.label} "
                                       f"({p.french} v {p.allied})")
                if played[key] not in (None, p.label):
                    raise PairingError(f"round {k}: {p.french} v {p.allied} is bracket match "
                                       f"{p.label}, not {played[key]}")
        state = double_elimination_round(seeds, plain, rnd, dropped_after)
    except ValueError as exc:
        raise PairingError(str(exc)) from None
    return {
        "round": rnd,
        "pairings": [{"french": p.french, "allied": p.allied, "bracket": p.label}
                     for p in state.pairings],
        "bye": state.byes[0] if len(state.byes) == 1 else None,
        "byes": state.byes,
        "finished": state.finished,
        "champion": state.champion,
        "losses": {p: state.losses.get(p, 0) for p in seeds},
        "out": state.out,
        "bracket": double_elimination(seeds),
    }
