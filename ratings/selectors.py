"""Reading ratings: a player's page and the leaderboard, per game (a rating pool:
``MatchKind.rating_pool``; "eagles" where a single rating was read before). Public: a rated
match's players, game, sides, result and rating change; nothing of its position."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Q

from config.errors import BadInput, NotFound
from game import BATTLES, SIDES
from play import registry

from . import glicko2
from .models import (
    EAGLES,
    PendingRating,
    RatedBattle,
    RatedCampaign,
    RatedMatch,
    Rating,
    SideRecord,
)
from .services import current

PROVISIONAL_RD = 110.0  # an RD above this: the rating is still a rough guess ("?")
LEADERBOARD_MIN_GAMES = 1
PER_PAGE = 50
RECENT = 20


def player_named(username) -> object:
    """An active user by username (as they log in: exact, else any case); NotFound else."""
    users = get_user_model().objects.filter(is_active=True)
    if not isinstance(username, str) or not username or len(username) > 150:
        raise NotFound("no such player")
    found = users.filter(username=username).first() or \
        users.filter(username__iexact=username).order_by("pk").first()
    if found is None:
        raise NotFound(f"no player named {username!r}")
    return found


def pools() -> list[tuple[str, str]]:
    """The rating pools the site offers, (pool, title), "eagles" first: each registered
    kind's ``rating_pool`` once, titled by its first kind's game ("EAGLES" for eagles)."""
    found: dict[str, str] = {EAGLES: "EAGLES"}
    for kind in registry.kinds():
        if kind.rating_pool and kind.rating_pool not in found:
            found[kind.rating_pool] = kind.game.title
    return list(found.items())


def pool_named(raw) -> str:
    """A pool from a query string (default "eagles"); BadInput for one the site lacks."""
    if raw in (None, ""):
        return EAGLES
    names = [p for p, _ in pools()]
    if raw not in names:
        raise BadInput(f"game must be one of {', '.join(names)}")
    return str(raw)


def _figures(rating: Rating | None) -> dict:
    now = current(rating) if rating is not None else glicko2.Rating()
    return {"rating": round(now.rating, 1), "rd": round(now.rd, 1),
            "volatility": round(now.volatility, 6),
            "games": rating.games if rating is not None else 0,
            "provisional": now.rd > PROVISIONAL_RD}


def ratings_of(user_ids, pool: str = EAGLES) -> dict[int, dict]:
    """user id -> figures (rating, rd, games, provisional) in ``pool``; a newcomer's for users
    without."""
    ids = set(user_ids)
    found = {r.user_id: r for r in Rating.objects.filter(user_id__in=ids, pool=pool)}
    return {uid: _figures(found.get(uid)) for uid in ids}


def _records(user) -> list[dict]:
    rows = {(r.battle, r.side): r for r in SideRecord.objects.filter(user=user, pool=EAGLES)}
    out = []
    for battle in BATTLES:
        for side in SIDES:
            r = rows.get((battle, side))
            out.append({"battle": battle, "side": side,
                        "played": r.played if r else 0, "won": r.won if r else 0,
                        "lost": r.lost if r else 0, "drawn": r.drawn if r else 0})
    return out


def _recent(user, limit: int = RECENT) -> list[dict]:
    qs = (RatedBattle.objects.filter(Q(french_player=user) | Q(allied_player=user))
          .select_related("battle", "french_player", "allied_player")
          .order_by("-created_at", "-id")[:limit])
    out = []
    for rb in qs:
        side = "french" if rb.french_player_id == user.pk else "allied"
        other = rb.allied_player if side == "french" else rb.french_player
        score = rb.french_score if side == "french" else 1.0 - rb.french_score
        before = getattr(rb, f"{side}_before")
        after = getattr(rb, f"{side}_after")
        out.append({"battle_id": rb.battle_id, "battle": rb.battle.battle, "side": side,
                    "opponent": other.username,
                    "result": "won" if score == 1 else "lost" if score == 0 else "drawn",
                    "reason": (rb.battle.outcome or {}).get("reason"),
                    "rating_before": round(before, 1), "rating_after": round(after, 1),
                    "change": round(after - before, 1), "at": rb.created_at})
    return out


def _campaigns(user, limit: int = RECENT) -> dict:
    """Rated campaigns (16.0): the record per side (both, zeros included) and the last ones
    with the rating change. Public like a battle's: players, sides, result, reason."""
    qs = (RatedCampaign.objects.filter(Q(french_player=user) | Q(allied_player=user))
          .select_related("campaign", "french_player", "allied_player")
          .order_by("-created_at", "-id"))
    records = {s: {"side": s, "played": 0, "won": 0, "lost": 0, "drawn": 0} for s in SIDES}
    recent = []
    for rc in qs:
        side = "french" if rc.french_player_id == user.pk else "allied"
        score = rc.french_score if side == "french" else 1.0 - rc.french_score
        result = "won" if score == 1 else "lost" if score == 0 else "drawn"
        records[side]["played"] += 1
        records[side][result] += 1
        if len(recent) < limit:
            other = rc.allied_player if side == "french" else rc.french_player
            before, after = getattr(rc, f"{side}_before"), getattr(rc, f"{side}_after")
            recent.append({"campaign_id": rc.campaign_id, "side": side,
                           "opponent": other.username, "result": result,
                           "reason": (rc.campaign.outcome or {}).get("reason"),
                           "rating_before": round(before, 1), "rating_after": round(after, 1),
                           "change": round(after - before, 1), "at": rc.created_at})
    return {"records": [records[s] for s in SIDES], "recent": recent}


def _result(score: float) -> str:
    return "won" if score == 1 else "lost" if score == 0 else "drawn"


def _other_pool(user, pool: str, title: str, rating: Rating | None,
                limit: int = RECENT) -> dict:
    """A player's rating in a pool other than EAGLES: figures, the record per kind and side
    (every kind of the pool, both sides, zeros included) and the last rated matches."""
    kinds = [k.kind for k in registry.kinds() if k.rating_pool == pool]
    rows = {(r.battle, r.side): r for r in SideRecord.objects.filter(user=user, pool=pool)}
    records = []
    for kind in kinds:
        for side in SIDES:
            r = rows.get((kind, side))
            records.append({"kind": kind, "side": side, "played": r.played if r else 0,
                            "won": r.won if r else 0, "lost": r.lost if r else 0,
                            "drawn": r.drawn if r else 0})
    qs = (RatedMatch.objects.filter(Q(french_player=user) | Q(allied_player=user), pool=pool)
          .select_related("french_player", "allied_player")
          .order_by("-created_at", "-id")[:limit])
    recent = []
    for rm in qs:
        side = "french" if rm.french_player_id == user.pk else "allied"
        other = rm.allied_player if side == "french" else rm.french_player
        score = rm.french_score if side == "french" else 1.0 - rm.french_score
        before, after = getattr(rm, f"{side}_before"), getattr(rm, f"{side}_after")
        recent.append({"kind": rm.kind, "match_id": rm.played_id, "side": side,
                       "opponent": other.username, "result": _result(score),
                       "reason": rm.reason or None,
                       "rating_before": round(before, 1), "rating_after": round(after, 1),
                       "change": round(after - before, 1), "at": rm.created_at})
    return {"pool": pool, "title": title, **_figures(rating), "records": records,
            "recent": recent}


def pending_for(user) -> int:
    """The player's finished rated matches whose rating a worker has not written yet (the
    ``PendingRating`` outbox, issue 31: rows live for the moment between the end and the
    worker's rating, so the table holds a handful; a lost broker leaves them to the
    sweep): the pages say "rating pending" rather than show a rating that is about to
    change."""
    by_kind: dict[str, list[int]] = {}
    for kind, played_id in PendingRating.objects.values_list("kind", "played_id")[:1000]:
        by_kind.setdefault(kind, []).append(played_id)
    mine = Q(french_player=user) | Q(allied_player=user)
    total = 0
    for kind, ids in by_kind.items():
        try:
            model = registry.get(kind).model
        except LookupError:
            continue
        total += model.objects.filter(mine, pk__in=ids).count()
    return total


def player_profile(username) -> dict:
    """What anyone may see of a player's ratings: the EAGLES figures, the record per battle
    and side (every battle and side, zeros included), the last rated battles with the
    change, and the same for rated campaigns (``campaigns``: a record per side, the last
    ones); then ``other_games``: the same for each other rated game (``_other_pool``);
    ``rating_pending``: the player's ended rated matches not rated yet (``pending_for``)."""
    user = player_named(username)
    ratings = {r.pool: r for r in Rating.objects.filter(user=user)}
    return {"username": user.username, **_figures(ratings.get(EAGLES)),
            "rating_pending": pending_for(user),
            "records": _records(user), "recent": _recent(user),
            "campaigns": _campaigns(user),
            "other_games": [_other_pool(user, pool, title, ratings.get(pool))
                            for pool, title in pools() if pool != EAGLES]}


def page_number(raw) -> int:
    """A page number from a query string (default 1); BadInput for anything else."""
    if raw in (None, ""):
        return 1
    if isinstance(raw, int) and raw >= 1:
        return raw
    if not (isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 7
            and int(raw) >= 1):
        raise BadInput("page must be a whole number from 1")
    return int(raw)


def leaderboard(page=1, min_games: int = LEADERBOARD_MIN_GAMES,
                per_page: int | None = None, pool=EAGLES) -> dict:
    """Players with at least ``min_games`` rated games in ``pool`` (default EAGLES; BadInput
    for a pool the site lacks), best rating first (ties: the smaller RD, then the name),
    ``per_page`` a page; NotFound past the last page."""
    page, per_page, pool = page_number(page), per_page or PER_PAGE, pool_named(pool)
    qs = (Rating.objects.filter(pool=pool, games__gte=min_games, user__is_active=True)
          .select_related("user").order_by("-rating", "rd", "user__username"))
    paginator = Paginator(qs, per_page)
    count = paginator.count
    pages = max(1, paginator.num_pages)
    if page > pages:
        raise NotFound(f"no page {page}: the leaderboard has {pages}")
    rows = list(paginator.page(page).object_list) if count else []
    first = (page - 1) * per_page
    return {"pool": pool, "pools": [{"pool": p, "title": t} for p, t in pools()],
            "count": count, "page": page, "pages": pages, "per_page": per_page,
            "min_games": min_games, "provisional_rd": PROVISIONAL_RD,
            "results": [{"rank": first + i + 1, "username": r.user.username, **_figures(r)}
                        for i, r in enumerate(rows)]}
