"""A player's standing choices to pass, for every game whose module honours them
(``protocol.PassChoices``): stored per match and side on the match (``Match.pass_choices``:
``{side: {"skip": [kinds], "turn": key}}``), read only by the game module when auto-play
asks it (``autoplay.extend``).

- ``choose_kinds(kind, match_id, user, kinds)``: the kinds of response window (the module's
  ``response_kinds``) the player does NOT want to be asked in: each such window is passed
  for them from then on, in this match.
- ``pass_and_skip_kind(kind, match_id, user, seq)``: pass now (the player's own click) and
  add the kind of this window to those they are not asked in (the button beside Pass).
- ``pass_rest_of_turn(kind, match_id, user, seq)``: pass now (the player's own click, a row
  like any other) and every further response window of this enemy turn (the module's
  ``enemy_turn`` key): the next turn asks again.

- ``end_for_me(kind, match_id, user, seq, on)``: the player's setting (``accounts``
  ``Preferences.end_for_me``, for all their games) "end my phase or turn for me when that is
  all that is left"; switched on from the page's button beside such a lone ending, which
  also plays that ending now (the player's own click); ``on=False`` switches it off.

- ``fire_order(kind, match_id, user, seq, on)``: the standing order "Fire with every ready
  card (each at its suggested target)" for the player's current Combat Phase (the module's
  ``fire_order_key`` and ``suggested_fires``; kept as ``pass_choices[side]["fire"]``, the
  key of that phase, so it lapses by itself after it): on, it also plays the first
  suggested fire now (the player's own click); off ("Stop firing for me") forgets it.

What these choices play is recorded as the player's own actions, flagged ``auto`` with the
module's reason (``auto_reason``), so the log says it was their choice, and undo and replays
read those rows as ordinary actions (a replay never reads the choices).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from config.errors import BadInput, Conflict

from . import turns
from .registry import MatchKind


def kinds_of(kind: MatchKind) -> tuple[str, ...]:
    """The kinds of response window a player of this game may choose not to be asked in
    (none for a game without ``PassChoices``)."""
    return tuple(getattr(kind.game, "response_kinds", ()))


def choices_of(match: Any, side: str | None) -> dict[str, Any]:
    """``side``'s standing choices in ``match`` ({} for a spectator or none set)."""
    if side is None:
        return {}
    return dict((getattr(match, "pass_choices", None) or {}).get(side) or {})


def _save(match: Any, side: str, mine: dict[str, Any]) -> None:
    match.pass_choices = {**(match.pass_choices or {}), side: mine}
    match.save(update_fields=["pass_choices"])


def choose_kinds(kind: MatchKind, match_id: Any, user: Any, kinds: Iterable[str]
                 ) -> dict[str, Any]:
    """Set the kinds of response window ``user`` passes without being asked; returns their
    choices. 400 for a kind the game does not have."""
    known = kinds_of(kind)
    kinds = list(kinds)
    unknown = [k for k in kinds if k not in known]
    if unknown:
        raise BadInput(f"no such kind of response window: {unknown[0]!r}")
    with transaction.atomic():
        match, side = kind.lock(user, match_id)
        mine = choices_of(match, side)
        mine["skip"] = [k for k in known if k in kinds]
        _save(match, side, mine)
    return mine


def _locked_at(kind: MatchKind, match_id: Any, user: Any, seq: Any) -> tuple[Any, str, Any]:
    """Inside the caller's transaction: ``user``'s match locked, under way and still at
    ``seq`` (409 ``stale_seq`` otherwise), with its side and position (None before the
    start)."""
    match, side = kind.lock(user, match_id)
    turns.require_under_way(kind, match)
    if seq != match.seq:
        raise Conflict(f"the {kind.noun} has moved on: reload", code="stale_seq",
                       seq=match.seq)
    state = kind.game.from_json(match.state, kind.cards(match)) if match.state else None
    return match, side, state


def pass_rest_of_turn(kind: MatchKind, match_id: Any, user: Any, seq: Any) -> list[dict]:
    """Pass in the response window ``user`` must answer now (at ``seq``) and in every
    further one of this enemy turn; returns the pass's events as ``turns.act`` does. 409
    unless they are in a response window of an enemy turn (the choice is not kept then)."""
    game = kind.game
    enemy_turn = getattr(game, "enemy_turn", None)
    response_kind = getattr(game, "response_kind", None)
    with transaction.atomic():
        match, side, state = _locked_at(kind, match_id, user, seq)
        key = None
        if (state is not None and enemy_turn is not None and response_kind is not None
                and match.to_move == side and response_kind(state, side) is not None):
            key = enemy_turn(state, side)
        action = next((a for a in game.legal_actions(state, side) if a.get("type") == "pass"),
                      None) if key is not None else None
        if action is None:
            raise Conflict("there is no enemy fire, attack or roll to let pass now",
                           seq=match.seq)
        mine = choices_of(match, side)
        mine["turn"] = key
        _save(match, side, mine)
        return turns.act(kind, match_id, user, seq, action)


def pass_and_skip_kind(kind: MatchKind, match_id: Any, user: Any, seq: Any) -> list[dict]:
    """Pass in the response window ``user`` must answer now (at ``seq``) and add its kind
    to the kinds they are not asked in (``choose_kinds``' choice, from the button beside
    Pass: "Pass, and do not ask me about enemy fire again"); returns the pass's events as
    ``turns.act`` does. 409 unless they are in such a window (nothing is kept then)."""
    game = kind.game
    response_kind = getattr(game, "response_kind", None)
    with transaction.atomic():
        match, side, state = _locked_at(kind, match_id, user, seq)
        window = response_kind(state, side) \
            if state is not None and response_kind is not None and match.to_move == side \
            else None
        action = next((a for a in game.legal_actions(state, side) if a.get("type") == "pass"),
                      None) if window in kinds_of(kind) else None
        if action is None:
            raise Conflict("there is no enemy fire, attack or roll to let pass now",
                           seq=match.seq)
        mine = choices_of(match, side)
        skip = set(mine.get("skip") or ()) | {window}
        mine["skip"] = [k for k in kinds_of(kind) if k in skip]
        _save(match, side, mine)
        return turns.act(kind, match_id, user, seq, action)


def window_now(kind: MatchKind, match: Any, side: str | None) -> str | None:
    """The kind of response window ``side`` must answer now (the module's
    ``response_kind``), or None."""
    response_kind = getattr(kind.game, "response_kind", None)
    if side is None or response_kind is None or not match.state or match.to_move != side:
        return None
    window = response_kind(kind.game.from_json(match.state, kind.cards(match)), side)
    return window if window in kinds_of(kind) else None


def own_endings(kind: MatchKind) -> frozenset[str]:
    """The actions ending one's own phase or turn this game may play for a player who asked
    (``autoplay``; none for a game without ``own_endings``)."""
    return frozenset(getattr(kind.game, "own_endings", ()))


def end_for_me(kind: MatchKind, match_id: Any, user: Any, seq: Any, on: bool) -> list[dict]:
    """Switch ``user``'s setting "end my phase or turn for me when that is all that is
    left" on or off. On: they are at such a lone ending now (at ``seq``), and it is played
    as their own action (409 otherwise: nothing changes); returns its events as
    ``turns.act`` does. Off: returns []."""
    from accounts.models import preferences_of

    endings = own_endings(kind)
    if not endings:
        raise BadInput(f"a {kind.noun} has no phase or turn the site could end for you")
    if not on:
        with transaction.atomic():
            kind.lock(user, match_id)  # a player of this match (404 otherwise)
            prefs = preferences_of(user)
            prefs.end_for_me = False
            prefs.save(update_fields=["end_for_me"])
        return []
    with transaction.atomic():
        match, side, state = _locked_at(kind, match_id, user, seq)
        legal = kind.game.legal_actions(state, side) \
            if state is not None and match.to_move == side else []
        if len(legal) != 1 or legal[0].get("type") not in endings:
            raise Conflict("ending your phase or turn is not all that is left to do now",
                           seq=match.seq)
        prefs = preferences_of(user)
        prefs.end_for_me = True
        prefs.save(update_fields=["end_for_me"])
        return turns.act(kind, match_id, user, seq, legal[0])


ORDER = "fire"  # the standing order's key in pass_choices[side] (battles.fire_order)


def fire_order_now(kind: MatchKind, match: Any, side: str | None, legal: list[dict]
                   ) -> dict[str, Any]:
    """What the page shows of the order for ``side`` (a player; {} otherwise), ``legal``
    their legal actions now (the page's): ``key`` (their Combat Phase now, or None),
    ``in_force`` (the order stands for it) and ``suggested`` (each ready card's fire at its
    suggested target: empty unless one can fire now)."""
    game = kind.game
    key_of, suggest = _fire_orders(kind)
    if side is None or key_of is None or suggest is None or not match.state:
        return {}
    mine = choices_of(match, side).get(ORDER)
    fires = [a for a in legal if a.get("type") == "fire"]
    if not fires and mine is None:  # nothing to show: the position is not read
        return {"key": None, "in_force": False, "suggested": []}
    state = game.from_json(match.state, kind.cards(match))
    key = key_of(state, side)
    fires = fires if key is not None else []
    return {"key": key, "in_force": key is not None and mine == key,
            "suggested": suggest(state, side, fires) if fires else []}


def _fire_orders(kind: MatchKind) -> tuple[Any, Any]:
    """The module's ``fire_order_key`` and ``suggested_fires`` (``protocol.FireOrders``),
    None for a game without them."""
    return (getattr(kind.game, "fire_order_key", None),
            getattr(kind.game, "suggested_fires", None))


def fire_order(kind: MatchKind, match_id: Any, user: Any, seq: Any, on: bool) -> list[dict]:
    """Give (``on``) or cancel the order "Fire with every ready card" for ``user``'s
    current Combat Phase. On: 409 unless it is their move in their own Combat Phase (at
    ``seq``) with a card that can fire; the order is kept and the first suggested fire is
    played now, as their own action (``turns.act``: its events); the next ones are played
    for them by ``autoplay`` (reason "order") while it is their move in that phase. Off:
    forgotten (the fires already played stand: they rolled dice); returns []."""
    game = kind.game
    key_of, suggest = _fire_orders(kind)
    if key_of is None or suggest is None:
        raise BadInput(f"a {kind.noun} has no Combat Phase to fire in for you")
    with transaction.atomic():
        if not on:
            match, side = kind.lock(user, match_id)
            mine = choices_of(match, side)
            if mine.pop(ORDER, None) is not None:
                _save(match, side, mine)
            return []
        match, side, state = _locked_at(kind, match_id, user, seq)
        key = key_of(state, side) if state is not None else None
        fires = suggest(state, side, game.legal_actions(state, side)) \
            if key is not None and match.to_move == side else []
        if not fires:
            raise Conflict("there is no card of yours to fire now: an order to fire is "
                           "given in your own Combat Phase, when a card can fire",
                           seq=match.seq)
        mine = choices_of(match, side)
        mine[ORDER] = key
        _save(match, side, mine)
        return turns.act(kind, match_id, user, seq, fires[0])
