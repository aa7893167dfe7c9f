"""Standings from the database: records for the pure computation, snapshots after rounds."""

from __future__ import annotations

from ..models import (
    BEFORE_START,
    Entry,
    Format,
    Match,
    Round,
    StandingRow,
    StandingSnapshot,
    Tournament,
)
from ..pairing.double_bracket import Game, double_elimination_state
from ..standings import MatchRecord, apply_finish, compute


def match_records(t: Tournament, through_round: int | None = None) -> list[MatchRecord]:
    """Settled matches as pure records (unsettled ones do not count yet), two-game matches
    with their per-game outcomes."""
    qs = Match.objects.filter(tournament=t, state=Match.State.SETTLED)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    return [
        MatchRecord(rnd, str(f), None if a is None else str(a), fg or 0, ag or 0, d or 0, dl,
                    (g1, g2) if g1 and g2 else None)
        for rnd, f, a, fg, ag, d, dl, g1, g2 in qs.values_list(
            "round__number", "french_id", "allied_id", "french_games", "allied_games", "draws",
            "double_loss", "game1", "game2")
    ]


def player_records(t: Tournament, through_round: int | None = None) -> list[dict]:
    rows = Entry.objects.filter(tournament=t).values_list(
        "pk", "user__username", "seed", "dropped_after_round")
    return [{"id": str(pk), "name": name, "seed": seed,
             "dropped": dropped is not None and (through_round is None or dropped <= through_round)}
            for pk, name, seed, dropped in rows]


def compute_rows(t: Tournament, through_round: int | None = None) -> list[dict]:
    rows = compute(player_records(t, through_round), match_records(t, through_round),
                   t.tiebreaker_order, t.games_per_match, through_round)
    if t.format == Format.DOUBLE_ELIMINATION and t.status not in BEFORE_START and \
            len(rows) >= 2:
        state = bracket_state(t, through_round)
        rows = apply_finish(rows, state.places, state.losses, state.out)
    return rows


# --- double elimination ----------------------------------------------------------------------

def bracket_seeds(t: Tournament) -> list[str]:
    """Entries in seed order (the bracket's seeding; no-shows included: they lose round 1;
    entries dropped at the start, ``dropped_after_round=0``, are not in the bracket)."""
    return [str(pk) for pk in Entry.objects.filter(tournament=t).exclude(dropped_after_round=0)
            .order_by("seed", "pk").values_list("pk", flat=True)]


def bracket_games(t: Tournament, through_round: int | None = None) -> list[Game]:
    """Settled games (not byes) as the pure core's ``Game`` records."""
    qs = Match.objects.filter(tournament=t, state=Match.State.SETTLED, allied__isnull=False)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    games = []
    for rnd, f, a, fg, ag, dl in qs.values_list("round__number", "french_id", "allied_id",
                                                "french_games", "allied_games", "double_loss"):
        winner = None if dl or fg == ag else str(f) if fg > ag else str(a)
        games.append(Game(rnd, str(f), str(a), winner))
    return games


def bracket_dropped(t: Tournament) -> dict[str, int]:
    return {str(pk): after for pk, after in Entry.objects.filter(
        tournament=t, dropped_after_round__isnull=False).values_list("pk", "dropped_after_round")}


def bracket_state(t: Tournament, through_round: int | None = None):
    """The double-elimination bracket after ``through_round`` (default: every result)."""
    if through_round is None:
        through_round = t.current_round
    return double_elimination_state(bracket_seeds(t), bracket_games(t, through_round),
                                    through_round, bracket_dropped(t))


def snapshot(t: Tournament, round_number: int) -> StandingSnapshot:
    """(Re)compute and store the standings after ``round_number``: the snapshot row and one
    ``StandingRow`` per player (a recomputation replaces them all)."""
    rows = compute_rows(t, round_number)
    snap, created = StandingSnapshot.objects.update_or_create(
        tournament=t, round_number=round_number,
        defaults={"tiebreakers": t.tiebreaker_order, "players": len(rows)})
    if not created:
        StandingRow.objects.filter(snapshot=snap).delete()
    StandingRow.objects.bulk_create(
        [StandingRow(snapshot=snap, rank=row["rank"], name=row["name"], data=row)
         for row in rows], batch_size=1000)
    snap.__dict__["rows"] = rows  # the cached property: the caller's webhooks read them
    return snap


def resnapshot_from(t: Tournament, round_number: int) -> None:
    """After a correction: every finished round from ``round_number`` on is recomputed."""
    for number in (Round.objects.filter(tournament=t, number__gte=round_number,
                                        state=Round.State.FINISHED)
                   .values_list("number", flat=True)):
        snapshot(t, number)
