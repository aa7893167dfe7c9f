"""``manage.py check_restore``: is a restored database whole? (issue 30, docs/backup.md)

Every match of every kind is replayed from its setup and its action log (``play.undo.rebuild``,
each action's events checked against those recorded) and must arrive at its stored position
(the ``state`` snapshot, which is only a cache of the log) at its stored ``seq``; every
tournament's stored standings (one snapshot per finished round) must be what its results
recompute. Prints one line per problem and a summary; exits 1 if anything disagrees.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from play import registry
from play.undo import rebuild
from tournaments.models import StandingSnapshot
from tournaments.services.standings import compute_rows


def _same(a: Any, b: Any) -> bool:
    """Equal as stored JSON (tuples and lists alike, key order aside)."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True,
                                                                     default=str)


def match_problems(kind: registry.MatchKind, match: Any) -> str | None:
    """Why ``match`` does not replay to its stored position, or None."""
    actions = list(kind.action_model.objects.filter(**{kind.match_field: match})
                   .order_by("seq"))
    last = actions[-1].seq if actions else 0
    if last != match.seq:
        return f"its last action is seq {last}, its stored seq {match.seq}"
    try:
        state = rebuild(kind, match, kind.setup(match), actions)
    except Exception as exc:  # noqa: BLE001 - any failure to replay is the finding
        return f"does not replay: {exc}"
    if not _same(kind.game.to_json(state), match.state):
        return "replays to a position other than the stored one"
    return None


def standings_problems(snap: StandingSnapshot) -> str | None:
    rows = compute_rows(snap.tournament, snap.round_number)
    if not _same(rows, snap.rows):
        return f"the standings after round {snap.round_number} recompute differently"
    return None


class Command(BaseCommand):
    help = ("Check a restored database: every match replays from its log to its stored "
            "position, every tournament's standings recompute.")

    def handle(self, *args, **options):
        problems: list[str] = []
        counts = {"matches": 0, "standings": 0}
        for kind in registry.kinds():
            for match in kind.model.objects.exclude(state=None).order_by("pk").iterator():
                counts["matches"] += 1
                found = match_problems(kind, match)
                if found:
                    problems.append(f"{kind.kind} {match.pk}: {found}")
        for snap in (StandingSnapshot.objects.select_related("tournament")
                     .order_by("tournament_id", "round_number").iterator()):
            counts["standings"] += 1
            found = standings_problems(snap)
            if found:
                problems.append(f"tournament {snap.tournament_id}: {found}")
        for line in problems:
            self.stdout.write(line)
        summary = (f"{counts['matches']} matches replayed, {counts['standings']} standings "
                   f"recomputed: {len(problems)} problems")
        if problems:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))
