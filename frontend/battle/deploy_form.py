"""Deploy several cards from one form (4.1), on the battle page and the campaign page: each
card the player may deploy now, with the Positions it may go to (a select), filled in with
a suggestion they can change: one troop card in each of their Positions still empty (what
4.1 asks before the deployment can end: infantry or cavalry first, else artillery). One
submit places them all (``play.turns.act_many``: each placement checked by the engine after
the one before; one illegal, nothing placed), and, from the second button, ends the
deployment. The one-card buttons stay for what the form does not offer (formations, terrain,
specials, decoys).

Only the player's own legal actions and their own pieces are read: nothing hidden."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

TROOPS = ("infantry", "cavalry")
POSITION_WORDS = {"left": "Left", "center": "Centre", "right": "Right"}  # the site says Centre


def _plain_deploys(legal: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The deploy actions the form offers: a card to a Position, Line (no formation, no
    other option)."""
    return [a for a in legal if a.get("type") == "deploy"
            and set(a) <= {"type", "side", "card", "to", "board"}]


def _kind(cards: Any, num: Any) -> str:
    card = cards.get(num) if isinstance(cards, Mapping) else None
    return str(getattr(card, "kind", "") or "")


def _positions_held(board: Mapping[str, Any], side: str) -> set[str]:
    """The places where ``side`` has a card on ``board`` (its own view)."""
    return {str(p.get("place")) for p in board.get("pieces") or () if p.get("side") == side}


def suggested(legal: Sequence[Mapping[str, Any]], board: Mapping[str, Any], side: str,
              cards: Any) -> dict[int, str]:
    """card -> Position: one troop card (infantry or cavalry first, else artillery) in each
    of ``side``'s Positions with none of their cards yet, in the order the engine lists
    them; the rest stays in the Reserve."""
    taken = _positions_held(board, side)
    plain = _plain_deploys(legal)
    out: dict[int, str] = {}
    for kinds in (TROOPS, ("artillery",)):
        for a in plain:
            num, to = a.get("card"), str(a.get("to"))
            if (isinstance(num, int) and num not in out and to not in taken
                    and _kind(cards, num) in kinds):
                out[num] = to
                taken.add(to)
    return out


def deploy_form(kind: str, match: Any, legal: Sequence[Mapping[str, Any]],
                board: Mapping[str, Any], side: str | None, cards: Any,
                seq: int) -> dict[str, Any]:
    """The form's context (``deploy_many``), or {} when the player deploys nothing now."""
    plain = _plain_deploys(legal)
    if side is None or not plain:
        return {}
    pick = suggested(legal, board, side, cards)
    rows: dict[int, dict[str, Any]] = {}
    for a in plain:
        num = a["card"]
        row = rows.setdefault(num, {
            "card": num, "name": getattr(cards.get(num), "name", f"card {num}")
            if isinstance(cards, Mapping) else f"card {num}",
            "kind": _kind(cards, num), "places": [], "chosen": pick.get(num, "")})
        to = str(a["to"])
        row["places"].append({"key": to, "label": POSITION_WORDS.get(to.split("_")[-1], to),
                              "selected": to == row["chosen"]})
    # Troops first: the form posts in its order, and a general (or a card that must join
    # troops) is placed after them (4.1's placements are simultaneous at the table).
    order = sorted(rows.values(), key=lambda r: (r["kind"] not in (*TROOPS, "artillery")))
    return {"deploy_many": {
        "url": reverse(f"{kind}-deploy", args=[match.pk]), "seq": seq, "side": side,
        "board": str(plain[0].get("board") or ""), "rows": order,
        "can_finish": any(a.get("type") == "deployment_done" for a in legal)
        or len(_positions_held(board, side) | set(pick.values())) >= 3}}  # 4.1: each one


def posted_actions(post: Mapping[str, Any], order: Sequence[str]) -> list[dict[str, Any]]:
    """The actions a submitted form asks for, in the form's order (``order``: its field
    names ``place-<card>``): a deploy for each card given a Position, then the end of the
    deployment if the second button was pressed. A card number that is not a whole number
    is sent on as it is (the service names it in its 400)."""
    side, board = str(post.get("side") or ""), str(post.get("board") or "")
    actions: list[dict[str, Any]] = []
    for name in order:
        if not name.startswith("place-") or not post.get(name):
            continue
        raw = name[len("place-"):]
        num: Any = int(raw) if raw.isdigit() else raw
        a: dict[str, Any] = {"type": "deploy", "side": side, "card": num,
                             "to": str(post.get(name))}
        if board:
            a["board"] = board
        actions.append(a)
    if post.get("done"):
        end: dict[str, Any] = {"type": "deployment_done", "side": side}
        if board:
            end["board"] = board
        actions.append(end)
    return actions
