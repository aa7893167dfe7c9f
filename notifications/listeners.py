"""What sends notifications: the game service's ``match_changed`` (after commit) and the
tournament service's ``round_paired`` (after commit). Both are sent robustly: an error here
is logged by the sender, and the change it reports is already saved.

* ``your_move``: in a battle between two people, to the player who now has priority
  (``Battle.to_move``) after the other player's action or the start; the computer's battles
  have the badge only (the computer answers in seconds). Coalesced per battle; a "your move"
  that is out of date (the player moved, the battle ended) is marked read.
* ``invitation``: a waiting battle with ``invited`` set, once per battle.
* ``battle_over``: both human players, once per battle, with the outcome.
* ``round_paired``: each player of a match of the round (a bye has no opponent: no message).
"""

from __future__ import annotations

from django.urls import reverse

from battles.models import Battle, BattleAction, Status
from game import SIDES

from . import words
from .models import Kind
from .services import YourMove, mark_stale_your_move, notify, your_move

BATTLE_FIELDS = ("id", "battle", "seq", "status", "to_move", "turn", "bot", "outcome",
                 "time_control", *(f"{who}__{f}" for who in ("french_player", "allied_player",
                                                            "invited")
                                   for f in ("id", "username", "email")))


def _live(battle: Battle) -> bool:
    return (battle.time_control or {}).get("kind") == "live"


def on_match_changed(sender, kind: str, match_id: int, seq: int, status: str, **kwargs
                     ) -> None:
    """``play.signals.match_changed``: each kind of match to its own notices."""
    if kind == "battle":
        on_battle_changed(sender, match_id, seq, status, **kwargs)
    elif kind == "campaign":
        from .campaign_listeners import on_campaign_changed

        on_campaign_changed(sender, match_id, seq, status, **kwargs)


def on_battle_changed(sender, battle_id: int, seq: int, status: str, **kwargs) -> None:
    # ``by``: the side that chose the actions (auto-passes of the other side may follow).
    if status == Status.ACTIVE and kwargs.get("by") and \
            kwargs.get("by") == kwargs.get("to_move"):
        return  # the player still acting in their own turn: nothing changed hands (no query)
    if "your_move" in kwargs.get("written", ()):
        return  # written with the action, in its own statement (``written``)
    if status == Status.FINISHED and "match_over" in kwargs.get("written", ()):
        return  # the end's notices, written with the end (``written.at_end``): no query
    # After actions the signal carries the row as committed (its players read with it): no
    # query. Else only the columns needed: the snapshot and the card records are large JSON.
    battle = kwargs.get("match") or (
        Battle.objects.filter(pk=battle_id)
        .select_related("french_player", "allied_player", "invited")
        .only(*BATTLE_FIELDS).first())
    if battle is None or battle.seq != seq:
        return  # gone, or moved on: the later change's own signal speaks for it
    url = reverse("battle", args=[battle.pk])
    humans = {side: battle.player(side) for side in SIDES if battle.player_id(side)}
    if battle.status == Status.WAITING:
        if battle.invited_id:
            creator = next(iter(humans.values()))
            notify(battle.invited, Kind.INVITATION,
                   words.invitation(battle.battle, battle.pk, creator.username,
                                    battle.free_seat()),
                   reverse("battles"), battle_id=battle.pk, key=f"invitation:{battle.pk}")
        return
    if battle.status == Status.FINISHED:
        mark_stale_your_move([u.pk for u in humans.values()], battle.pk)
        for side, user in humans.items():
            notify(user, Kind.BATTLE_OVER,
                   words.battle_over(battle.battle, battle.pk, battle.outcome, side), url,
                   battle_id=battle.pk, key=f"battle_over:{battle.pk}")
        return
    if battle.status != Status.ACTIVE:
        return
    if battle.bot:
        return  # against the computer: the badge says it
    mover = battle.to_move
    # After actions the signal says who made the last one (and it was not the mover, see the
    # top): no query. Other changes (an undo, a clock event) ask the log.
    if kwargs.get("by") is None and seq > 0 and BattleAction.objects.filter(
            battle_id=battle.pk, seq=seq, side=mover).exists():
        return  # the player still acting in their own turn: nothing changed hands
    notice = battle_your_move(battle)
    if notice is None:  # nobody's move
        mark_stale_your_move([u.pk for side, u in humans.items() if side != mover], battle.pk)
        return
    your_move(notice)  # the stale ones marked with it (one statement on PostgreSQL)


def battle_your_move(battle: Battle) -> YourMove | None:
    """The "your move" of an active battle between two people that changed hands: to the
    player who now has priority, theirs of the other player marked read; None when neither
    player is to move."""
    humans = {side: battle.player(side) for side in SIDES if battle.player_id(side)}
    mover = battle.to_move
    if mover not in humans or len(humans) < 2:
        return None
    opponent = next(u for side, u in humans.items() if side != mover)
    return YourMove(humans[mover],
                    words.your_move(battle.battle, battle.pk, opponent.username, battle.turn),
                    reverse("battle", args=[battle.pk]),
                    stale=tuple(u.pk for side, u in humans.items() if side != mover),
                    battle_id=battle.pk, email_ok=not _live(battle))


def on_round_paired(sender, round_id: int, tournament_id: int, number: int,
                    **kwargs) -> None:
    from tournaments.models import Match, Round

    rnd = Round.objects.filter(pk=round_id).select_related("tournament").first()
    if rnd is None:
        return
    matches = list(Match.objects.filter(round=rnd, allied__isnull=False)
                   .select_related("french__user", "allied__user"))
    url = reverse("tournament-my-match", args=[tournament_id])
    for m in matches:
        for me, them, listed in ((m.french, m.allied, "french"), (m.allied, m.french, "allied")):
            notify(me.user, Kind.ROUND_PAIRED,
                   words.round_paired(rnd.tournament.name, number, m.table, them.user.username,
                                      listed, rnd.ends_at),
                   url, tournament_id=tournament_id, key=f"round_paired:{round_id}")
