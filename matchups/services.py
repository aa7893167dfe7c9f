"""The matchup lab's use cases: ask a question (or get its stored answer) and run its chunks.

``ask`` checks the decks (the asker's own versions: someone else's answers as a missing one),
the bots, N and the seed, records the plan and sends one ``matchups.run_chunk`` task per chunk
after commit. Asking the same question again returns the stored matchup. A user may have at
most ``settings.EAGLES_MATCHUPS_ACTIVE`` matchups queued or running (429 ``too_many_matchups``).

``run_chunk`` is idempotent: a chunk's games are stored once (unique per matchup and chunk);
a repeated or late task changes nothing. The chunk that completes the set aggregates.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from battles import dealing
from battles.bots import BOTS
from battles.engine.board import ARMY_SIDE
from cards.catalogue import file as catalogue_file
from config.errors import BadInput, ServiceError
from decks.rules.chart import BATTLES_CHART
from decks.selectors import own_version
from game import other_side, side_of

from . import enqueue as by_name  # `ask` has an `enqueue` argument
from . import lab, stats
from .models import ACTIVE, Matchup, MatchupChunk, Status

log = logging.getLogger(__name__)

HISTORICAL = "historical"
DEFAULT_BOTS = ("greedy", "greedy")
DEFAULT_SEED = 1815
MAX_SEED = 2**53


class TooManyMatchups(ServiceError):
    status = 429
    code = "too_many_matchups"


def max_games() -> int:
    return int(getattr(settings, "EAGLES_MATCHUP_MAX_GAMES", 1000))


def max_active() -> int:
    return int(getattr(settings, "EAGLES_MATCHUPS_ACTIVE", 2))


def clean_bots(value: Any) -> tuple[str, str]:
    """Two bot names (deck A's, deck B's): a list or "search,greedy"; one name plays both."""
    if value is None or value == "":
        return DEFAULT_BOTS
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise BadInput('bots must be two bot names, e.g. ["greedy", "random"] or '
                       '"greedy,random"')
    if len(value) == 1:
        value = [value[0], value[0]]
    if len(value) != 2:
        raise BadInput(f"bots must name two bots (deck A's, deck B's), not {len(value)}")
    for name in value:
        if name not in BOTS:
            raise BadInput(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}")
    return value[0], value[1]


def _whole(value: Any, name: str, low: int, high: int, default: int | None = None) -> int:
    if value is None and default is not None:
        return default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if type(value) is not int:
        raise BadInput(f"{name} must be a whole number from {low} to {high}")
    if not low <= value <= high:
        raise BadInput(f"{name} must be from {low} to {high}, not {value}")
    return value


def _version_id(value: Any, name: str) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if type(value) is not int:
        raise BadInput(f"{name} must be a deck version id (a whole number)")
    return value


def _plan(user, deck_a: int, deck_b: int | None, bots: tuple[str, str]) -> dict[str, Any]:
    """What every game needs; the decks checked as a battle would check them."""
    version = own_version(user, deck_a)  # someone else's and none: one answer
    if version.battle not in BATTLES_CHART or version.army not in ARMY_SIDE:
        raise BadInput(f"deck version {version.pk} is for {version.battle}: a matchup is "
                       f"played at one of the four battles")
    side_a = side_of(version.army)
    side_b = other_side(side_a)
    choices_a, _ = dealing.choose(user, version.battle, side_a, version.scale, deck_a)
    if deck_b is not None:
        own_version(user, deck_b)  # the same 404 before any other word about deck B
    choices_b, _ = dealing.choose(user, version.battle, side_b, version.scale, deck_b)
    return {"battle": version.battle, "scale": version.scale,
            "sides": {"a": side_a, "b": side_b}, "army_a": version.army,
            "choices": {**choices_a, **choices_b}, "bots": {"a": bots[0], "b": bots[1]}}


def ask(user, deck_a: Any, deck_b: Any = None, bots: Any = None, games: Any = None,
        seed: Any = None, *, enqueue: bool = True, limit: bool = True) -> tuple[Matchup, bool]:
    """The matchup answering this question, and whether it was new (its chunks are sent
    after commit when ``enqueue``). A failed one asked again is queued again."""
    a = _version_id(deck_a, "deck_a")
    b = None if deck_b in (None, "", HISTORICAL) else _version_id(deck_b, "deck_b")
    bot_a, bot_b = clean_bots(bots)
    n = _whole(games, "games", 1, max_games(), 100)
    s = _whole(seed, "seed", 0, MAX_SEED, DEFAULT_SEED)
    key = Matchup.question_key(a, b, bot_a, bot_b, n, s)
    with transaction.atomic():
        # One asker at a time per user: the limit counts what is already queued or running.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        found = Matchup.objects.filter(question=key, created_by=user).first()
        if found is not None and found.status != Status.FAILED:
            return found, False
        plan = _plan(user, a, b, (bot_a, bot_b))
        active = Matchup.objects.filter(created_by=user, status__in=ACTIVE).count()
        if limit and active >= max_active():
            raise TooManyMatchups(
                f"you have {active} matchups queued or running (at most {max_active()}); "
                f"ask again when one is done", active=active, limit=max_active())
        if found is not None:  # failed: asked again, its missing chunks are played again
            found.status, found.error, found.finished_at = Status.QUEUED, "", None
            found.save(update_fields=["status", "error", "finished_at"])
            stored = set(found.chunks.values_list("index", flat=True))
            missing = [c for c in range(lab.chunk_count(n, found.chunk_size))
                       if c not in stored]
            if enqueue:
                transaction.on_commit(lambda: [by_name.send_chunk(found.pk, c) for c in missing])
            return found, False
        try:
            with transaction.atomic():
                m = Matchup.objects.create(
                    deck_a_id=a, deck_b_id=b, battle=plan["battle"], scale=plan["scale"],
                    bot_a=bot_a, bot_b=bot_b, games=n, seed=s, question=key, plan=plan,
                    chunk_size=lab.chunk_size((bot_a, bot_b)), created_by=user)
        except IntegrityError:
            return Matchup.objects.get(question=key), False
        if enqueue:
            chunks = lab.chunk_count(n, m.chunk_size)
            transaction.on_commit(lambda: [by_name.send_chunk(m.pk, c) for c in range(chunks)])
    return m, True


def card_names() -> dict[int, str]:
    return {int(c["number"]): c["name"] for c in catalogue_file.catalogue_records()}


def run_chunk(matchup_id: int, chunk: int, *, cards=None,
              progress: Callable[[int], None] | None = None) -> int:
    """Play and store chunk ``chunk`` of a matchup once; the number of games it stored (0: it
    was stored already, or the matchup is gone, finished or has no such chunk)."""
    m = Matchup.objects.filter(pk=matchup_id).first()
    if (m is None or m.status in (Status.DONE, Status.FAILED)
            or not 0 <= chunk < lab.chunk_count(m.games, m.chunk_size)
            or MatchupChunk.objects.filter(matchup=m, index=chunk).exists()):
        return 0
    Matchup.objects.filter(pk=m.pk, status=Status.QUEUED).update(status=Status.RUNNING,
                                                                 updated_at=timezone.now())
    try:
        games = lab.play(m.plan, m.seed, lab.chunk_games(chunk, m.games, m.chunk_size),
                         cards=cards, progress=progress)
    except Exception:
        log.exception("matchup %s chunk %s failed", m.pk, chunk)
        Matchup.objects.filter(pk=m.pk, status__in=ACTIVE).update(
            status=Status.FAILED, error=f"chunk {chunk} could not be played",
            finished_at=timezone.now())
        return 0
    with transaction.atomic():
        m = Matchup.objects.select_for_update().get(pk=m.pk)
        if m.status in (Status.DONE, Status.FAILED) or MatchupChunk.objects.filter(
                matchup=m, index=chunk).exists():
            return 0
        MatchupChunk.objects.create(matchup=m, index=chunk, games=games)
        m.progress += len(games)
        m.status = Status.RUNNING
        fields = ["progress", "status", "updated_at"]
        if (MatchupChunk.objects.filter(matchup=m).count()
                == lab.chunk_count(m.games, m.chunk_size)):
            every = [g for c in MatchupChunk.objects.filter(matchup=m).order_by("index")
                     for g in c.games]
            m.results = stats.summarize(every, card_names())
            m.status, m.finished_at = Status.DONE, timezone.now()
            fields += ["results", "finished_at"]
        m.save(update_fields=fields)
    return len(games)


def stalled_chunks() -> list[tuple[int, int]]:
    """(matchup, chunk) of the queued or running matchups without progress for
    ``EAGLES_MATCHUP_STALL_SECONDS`` (a lost message, a worker that died): sent again by the
    tick (a chunk stored meanwhile is not played twice)."""
    since = timezone.now() - timedelta(seconds=float(getattr(
        settings, "EAGLES_MATCHUP_STALL_SECONDS", 600)))
    out = []
    for m in Matchup.objects.filter(status__in=ACTIVE, updated_at__lt=since):
        stored = set(m.chunks.values_list("index", flat=True))
        out += [(m.pk, c) for c in range(lab.chunk_count(m.games, m.chunk_size))
                if c not in stored]
        Matchup.objects.filter(pk=m.pk).update(updated_at=timezone.now())
    return out


def run_inline(m: Matchup, progress: Callable[[int], None] | None = None) -> Matchup:
    """Play every chunk still missing in this process (the CLI)."""
    cards = lab.card_table()
    for chunk in range(lab.chunk_count(m.games, m.chunk_size)):
        run_chunk(m.pk, chunk, cards=cards, progress=progress)
    m.refresh_from_db()
    return m


def matchup_of(user, matchup_id: int) -> Matchup:
    """The user's matchup; someone else's answers as a missing one."""
    from config.errors import NotFound

    m = (Matchup.objects.select_related("deck_a__deck", "deck_b__deck")
         .filter(pk=matchup_id, created_by_id=getattr(user, "pk", None)).first())
    if m is None:
        raise NotFound(f"no matchup {matchup_id}")
    return m


def as_dict(m: Matchup) -> dict[str, Any]:
    """The API's view of a matchup (progress, and results once done)."""
    def deck(v):
        if v is None:
            return {"id": None, "name": "the historical deal", "historical": True}
        return {"id": v.pk, "name": f"{v.deck.name} v{v.number}", "army": v.army,
                "historical": False}

    return {
        "id": m.pk, "status": m.status, "battle": m.battle, "scale": m.scale,
        "deck_a": {**deck(m.deck_a), "side": m.plan["sides"]["a"]},
        "deck_b": {**deck(m.deck_b), "side": m.plan["sides"]["b"]},
        "bots": [m.bot_a, m.bot_b], "games": m.games, "seed": m.seed,
        "progress": m.progress, "chunks": lab.chunk_count(m.games, m.chunk_size),
        "results": m.results or None, "error": m.error or None,
        "created_at": m.created_at.isoformat(),
        "finished_at": m.finished_at.isoformat() if m.finished_at else None,
    }
