"""Issue 30, data people can restore: ``manage.py check_restore`` replays every match from its
log to its stored position and recomputes every tournament's standings; on PostgreSQL the
database goes through ``pg_dump``/``pg_restore`` (docs/backup.md) and the restored copy
passes the check."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection

from battles import services
from battles.models import Battle, BattleAction
from tournaments import services as tournament_services
from tournaments.models import StandingRow, StandingSnapshot

from .kinds import battle_tasks
from .tournament_helpers import field, organiser, report_both

ROOT = Path(__file__).resolve().parent.parent


def played_battle(moves: int = 6) -> Battle:
    alice = User.objects.create_user("alice", "", "pw")
    bob = User.objects.create_user("bob", "", "pw")
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    for _ in range(moves):
        b = Battle.objects.get(pk=b.pk)
        mover = alice if b.to_move == "french" else bob
        legal = services.battle_view(b, mover)["legal_actions"]
        services.act(b.pk, mover, b.seq, legal[0])
    return Battle.objects.get(pk=b.pk)


def finished_round():
    org = organiser()
    t, _ = field(org, 4)
    tournament_services.start_tournament(t.pk, org)
    t.refresh_from_db()
    for m in t.matches.filter(round__number=1, allied__isnull=False):
        report_both(m, {"result": "french"})
    assert StandingSnapshot.objects.filter(tournament=t).exists()
    return t


def check(**kwargs) -> str:
    from io import StringIO

    out = StringIO()
    call_command("check_restore", stdout=out, **kwargs)
    return out.getvalue()


@pytest.fixture
def no_broker(monkeypatch):
    battle_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)


@pytest.mark.django_db
def test_a_whole_database_passes_and_any_disagreement_is_found(catalogue, no_broker):
    b = played_battle()
    t = finished_round()
    assert "0 problems" in check() and "1 matches replayed" in check()

    # a snapshot that is not where the log leads
    state = dict(b.state)
    state["turn"] = (state.get("turn") or 0) + 7
    Battle.objects.filter(pk=b.pk).update(state=state)
    with pytest.raises(CommandError, match="1 problems"):
        check()
    Battle.objects.filter(pk=b.pk).update(state=b.state)
    # a log with an action missing
    BattleAction.objects.filter(battle=b, seq=b.seq).delete()
    with pytest.raises(CommandError, match="1 problems"):
        check()
    # standings that are not what the results give
    snap = StandingSnapshot.objects.filter(tournament=t).first()
    row = snap.rows[0]
    row["match_points"] += 3
    StandingRow.objects.filter(snapshot=snap, rank=row["rank"]).update(data=row)
    with pytest.raises(CommandError, match="2 problems"):
        check()


@pytest.mark.django_db(transaction=True)
def test_a_postgresql_dump_restores_and_passes_the_check(catalogue, no_broker, tmp_path):
    if connection.vendor != "postgresql" or not shutil.which("pg_dump"):
        pytest.skip("the round trip runs on PostgreSQL (set DATABASE_URL), with pg_dump")
    played_battle()
    finished_round()
    db = connection.settings_dict
    restored = f"{db['NAME']}_restored"
    env = {**os.environ, "PGHOST": db["HOST"] or "127.0.0.1", "PGPORT": str(db["PORT"] or 5432),
           "PGUSER": db["USER"] or "postgres", "PGPASSWORD": db["PASSWORD"] or ""}
    dump = tmp_path / "eagles.dump"
    subprocess.run(["pg_dump", "--format=custom", "--file", str(dump), db["NAME"]], env=env,
                   check=True, timeout=120)
    subprocess.run(["dropdb", "--if-exists", restored], env=env, check=True, timeout=60)
    subprocess.run(["createdb", restored], env=env, check=True, timeout=60)
    try:
        subprocess.run(["pg_restore", "--no-owner", "--dbname", restored, str(dump)], env=env,
                       check=True, timeout=120)
        url = (f"postgres://{env['PGUSER']}:{env['PGPASSWORD']}@{env['PGHOST']}:"
               f"{env['PGPORT']}/{restored}")
        r = subprocess.run([sys.executable, "manage.py", "check_restore"], cwd=ROOT,
                           env={**env, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE":
                                "config.settings", "SECRET_KEY": "x" * 50},
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "1 matches replayed, 1 standings recomputed: 0 problems" in r.stdout, r.stdout
    finally:
        subprocess.run(["dropdb", "--if-exists", restored], env=env, timeout=60)
