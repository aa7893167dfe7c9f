"""Reads for the API and the pages. Deck-list visibility lives here (and only here)."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from config.errors import BadInput

from .models import (
    STARTED,
    Entry,
    Match,
    Report,
    ResultLog,
    Round,
    StandingRow,
    StandingSnapshot,
    Status,
    Tournament,
)
from .services.common import is_organiser
from .services.errors import NotAllowed, NotFound
from .services.standings import compute_rows


def tournaments(status: str | None = None) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("organiser").annotate(
        players=Count("entries", distinct=True))
    if status:
        qs = qs.filter(status=status)
    return qs


def tournament(pk) -> Tournament:
    t = tournaments().filter(pk=pk).first() if str(pk).isdigit() else None
    if t is None:
        raise NotFound("no such tournament")
    return t


def entries(t: Tournament) -> QuerySet[Entry]:
    return t.entries.select_related("user").order_by("seed", "pk")


def entry_of(t: Tournament, user) -> Entry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return t.entries.filter(user=user).first()


def opponents_met(entry: Entry) -> set[int]:
    """Entries ``entry`` has been paired against (its match published: lists may show)."""
    rows = Match.objects.filter(Q(french=entry) | Q(allied=entry), allied__isnull=False
                                ).values_list("french_id", "allied_id")
    return {x for pair in rows for x in pair} - {entry.pk}


def can_see_lists(t: Tournament, viewer, entry: Entry) -> bool:
    """Organiser: always. The player: their own. Lists published after the event: everyone.
    An opponent: only once their match is paired (never before)."""
    if is_organiser(t, viewer) or (t.lists_public and t.status == Status.FINISHED):
        return True
    mine = entry_of(t, viewer)
    if mine is None:
        return False
    return mine.pk == entry.pk or entry.pk in opponents_met(mine)


def deck_lists(t: Tournament, viewer, entry: Entry) -> dict:
    if not can_see_lists(t, viewer, entry):
        raise NotAllowed("this player's deck lists are not visible to you (yet)")
    out = {}
    for side in ("french_version", "british_version", "prussian_version"):
        version = getattr(entry, side)
        if version is not None:
            out[side.removesuffix("_version")] = {
                "version": version.pk, "deck": version.deck.name, "number": version.number,
                "army": version.army, "entries": version.entries, "size": version.size}
    return out


def rounds(t: Tournament) -> QuerySet[Round]:
    return t.round_set.annotate(
        matches_total=Count("matches"),
        matches_open=Count("matches", filter=~Q(matches__state=Match.State.SETTLED)))


def round_of(t: Tournament, number) -> Round:
    rnd = t.round_set.filter(number=number).first() if str(number).isdigit() else None
    if rnd is None:
        raise NotFound(f"round {number} is not paired")
    return rnd


def pairings(rnd: Round) -> QuerySet[Match]:
    return rnd.matches.select_related("french__user", "allied__user", "round", "tournament")


def pairings_page(t: Tournament, rnd: Round, start: int, stop: int) -> list[Match]:
    """Tables ``start`` to ``stop`` of a round for the pairings page: only the columns it
    shows, the players' names joined, the round and tournament it already has attached
    rather than joined and built again for every table (issue 31: a page of 200 tables)."""
    page = list(Match.objects.filter(round=rnd).order_by("table")
                .select_related("french__user", "allied__user")
                .only("tournament_id", "round_id", "table", "state", "french_games",
                      "allied_games", "draws", "double_loss", "game1", "game2",
                      "french__user__username", "allied__user__username")[start:stop])
    for m in page:
        m.round, m.tournament = rnd, t
    return page


def current_match(t: Tournament, user) -> Match | None:
    entry = entry_of(t, user)
    if entry is None:
        return None
    return (Match.objects.filter(tournament=t).filter(Q(french=entry) | Q(allied=entry))
            .select_related("round", "french__user", "allied__user")
            .order_by("-round__number").first())


def match(pk) -> Match:
    m = (Match.objects.select_related("round", "tournament", "french__user", "allied__user")
         .filter(pk=pk).first()) if str(pk).isdigit() else None
    if m is None:
        raise NotFound("no such match")
    return m


def disputes(t: Tournament) -> QuerySet[Match]:
    return (Match.objects.filter(tournament=t, state=Match.State.DISPUTED)
            .select_related("round", "french__user", "allied__user").prefetch_related("reports"))


def result_log(m: Match) -> QuerySet[ResultLog]:
    return m.log.select_related("by")


def standings(t: Tournament, round_number=None) -> dict:
    """Which standings (``standings_page`` reads a page of them): a snapshot (after
    ``round_number``, default the latest finished round), or before any round finished, the
    live figures of round 0 (``rows``: every player at 0, computed here)."""
    snaps = StandingSnapshot.objects.filter(tournament=t)
    if round_number not in (None, ""):
        snap = snaps.filter(round_number=round_number).first() if str(round_number).isdigit() \
            else None
        if snap is None:
            raise NotFound(f"no standings after round {round_number}")
    else:
        snap = snaps.order_by("-round_number").first()
    if snap is None:
        rows = compute_rows(t, 0)
        return {"round": 0, "tiebreakers": t.tiebreaker_order, "rows": rows,
                "players": len(rows)}
    return {"round": snap.round_number, "tiebreakers": snap.tiebreakers,
            "computed_at": snap.computed_at, "players": snap.players, "snapshot": snap.pk}


STANDINGS_PAGE = 100  # rows of a standings page unless ?limit= asks for another number
MAX_STANDINGS_PAGE = 500


def _whole(value, name: str, low: int, high: int, default: int) -> int:
    if value in (None, ""):
        return default
    text = str(value)
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise BadInput(f"{name}: a whole number from {low} to {high}")
    return int(text)


def _not_found(find: str) -> BadInput:
    return BadInput(f"find: no player named {find!r} in these standings")


def standings_page(table: dict, page=None, limit=None, find: str = "") -> dict:
    """One page of the standings ``table`` (from ``standings``): ``page`` from 1, ``limit``
    rows (default ``STANDINGS_PAGE``); ``find``: the page where that player's row is (400
    ``bad_input`` if nobody of that name is in the table). A snapshot's page is read by rank
    (ranks are 1..players): one index range of ``StandingRow``, and "find me" one index
    lookup, so a page costs the same for 16 players or 4,096 (issue 31)."""
    size = _whole(limit, "limit", 1, MAX_STANDINGS_PAGE, STANDINGS_PAGE)
    players = table["players"]
    pages = max(1, -(-players // size))
    snap = table.get("snapshot")
    if find:
        if snap is None:
            at = next((i for i, r in enumerate(table["rows"]) if r.get("name") == find), None)
        else:
            rank = (StandingRow.objects.filter(snapshot_id=snap, name=find).order_by("rank")
                    .values_list("rank", flat=True).first())
            at = None if rank is None else rank - 1
        if at is None:
            raise _not_found(find)
        number = at // size + 1
    else:
        number = _whole(page, "page", 1, pages, 1)
    if snap is None:
        rows = table["rows"][(number - 1) * size:number * size]
    else:
        rows = list(StandingRow.objects.filter(
            snapshot_id=snap, rank__gt=(number - 1) * size, rank__lte=number * size)
            .order_by("rank").values_list("data", flat=True))
    shown = {k: v for k, v in table.items() if k != "snapshot"}
    return {**shown, "rows": rows, "page": number, "pages": pages, "players": players}


def chart_rounds(t: Tournament, through_round: int, top: int) -> tuple[list, int]:
    """For the standings chart: ``(round_number, rows)`` for every snapshot up to
    ``through_round``, each with only the rows of the ``top`` players of the last one, and
    how many players the last one has. Never a whole round's rows (issue 31): the top rows
    by rank, then those players' rows of the earlier rounds by name (index lookups)."""
    snaps = list(t.snapshots.filter(round_number__lte=through_round)
                 .order_by("round_number").values_list("pk", "round_number", "players"))
    if not snaps:
        return [], 0
    last_pk, _, players = snaps[-1]
    best = list(StandingRow.objects.filter(snapshot_id=last_pk, rank__lte=top)
                .order_by("rank").values_list("data", flat=True))
    by_snap: dict[int, list] = {last_pk: best}
    for snap_pk, data in StandingRow.objects.filter(
            snapshot_id__in=[pk for pk, _, _ in snaps[:-1]],
            name__in=[row["name"] for row in best]).values_list("snapshot_id", "data"):
        by_snap.setdefault(snap_pk, []).append(data)
    return [(number, by_snap.get(pk, [])) for pk, number, _ in snaps], players


# --- what a page may offer (the services refuse the rest; these only decide what to show) ---

def registration_open(t: Tournament) -> bool:
    """The ordinary registration form is offered (late entry is the service's to allow)."""
    return t.status == Status.REGISTRATION


def can_report(t: Tournament, m: Match, my_report: Report | None) -> bool:
    """A player may report ``m``: the event has started, it is not a bye, they have not
    reported it yet and it has no result."""
    return (t.status in STARTED and not m.is_bye and my_report is None
            and m.state != Match.State.SETTLED)


def can_settle(t: Tournament, m: Match) -> bool:
    """The organiser may give ``m`` its result: unsettled, in a started event."""
    return m.state != Match.State.SETTLED and t.status in STARTED


def can_correct(m: Match) -> bool:
    """The organiser may correct ``m``: it has a result and is not a bye."""
    return m.state == Match.State.SETTLED and not m.is_bye


def round_complete(current: Round | None) -> bool:
    """No round, or the current one finished: the next one may be paired."""
    return current is None or current.state == Round.State.FINISHED


def rounds_left(t: Tournament) -> bool:
    """The event has rounds still to pair (no planned count yet: it has)."""
    return not t.planned_rounds or t.current_round < t.planned_rounds
