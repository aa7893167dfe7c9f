"""The "your move" notice written in an action's own statement on PostgreSQL
(``play.alongside``; issue 31: an action that hands a match over in 4 round trips, not 5):
the same rules as the after-commit listeners (``listeners.battle_your_move``,
``campaign_listeners.campaign_your_move``), decided from the match as the action leaves it.
The listener sees ``"your_move"`` in ``written`` and does not send it again; for any other
change (a join, an undo) it does as before. Likewise the end's notices (``at_end``,
``"match_over"``), written in the statement that ends the match (``play.turns.finish``)."""

from __future__ import annotations

from typing import Any

from django.db import connection

from play.alongside import Part

from .services import Over, match_over_part, your_move_part


def with_action(kind: Any, match: Any, by: str) -> Part | None:
    """The your-move part for an action of ``by`` that left ``match`` (active: a finished
    match is the listeners') with the other side to move, between two people."""
    if match.status != "active" or match.bot or not match.to_move or by == match.to_move:
        return None  # the same side still acting, the computer's match: nothing to send
    if kind.kind == "battle":
        from .listeners import battle_your_move

        notice = battle_your_move(match)
    elif kind.kind == "campaign":
        from .campaign_listeners import campaign_your_move

        notice = campaign_your_move(match)
    else:
        return None
    return your_move_part(notice, connection) if notice is not None else None


def at_end(kind: Any, match: Any, by: str) -> Part | None:
    """The end's notices (``battle_over``, the players' "your move" marked read) written in
    the statement that ends ``match`` (finished): the same texts, keys and rules as the
    after-commit listeners (``listeners.on_battle_changed``,
    ``campaign_listeners.on_campaign_changed``), which see ``"match_over"`` in ``written``
    and do not send them again."""
    if match.status != "finished" or kind.kind not in ("battle", "campaign"):
        return None
    from django.urls import reverse

    from game import SIDES

    from . import words

    humans = {side: match.player(side) for side in SIDES if match.player_id(side)}
    if kind.kind == "battle":
        url = reverse("battle", args=[match.pk])
        notices = [Over(user, words.battle_over(match.battle, match.pk, match.outcome, side),
                        url, f"battle_over:{match.pk}") for side, user in humans.items()]
        column = "battle_id"
    else:
        url = reverse("campaign", args=[match.pk])
        notices = [Over(user, words.campaign_over(match.pk, match.outcome, side), url,
                        f"campaign_over:{match.pk}") for side, user in humans.items()]
        column = "campaign_id"
    return match_over_part(notices, tuple(u.pk for u in humans.values()), column=column,
                           match_id=match.pk, connection=connection)
