"""Issue 28, "the site serves within 60 s of `make run`": each app's migrations up to
tournaments 0010 / battles 0015 / ... are squashed into one migration holding the final state
(`<app>/migrations/0001_squashed_<last>.py`, `replaces` = every old migration of the app), so a
fresh database runs 34 migrations instead of 81 (migrate: about 9 -> 4 s CPU on SQLite).

The old files stay: a database that applied only some of them goes on through them (Django
uses the squash only when none or all of the replaced migrations are applied), and tests that
migrate back to an old migration still find it. What is proved here: a database migrated
through the old chain and a fresh one migrated through the squashes end with the same schema
(tables, columns, indexes, constraints, foreign keys), and the graph's shape (every squash
replaces all of its app's old migrations and is a leaf)."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SQUASHES = {
    "decks": "0001_squashed_0003_standard_becomes_custom",
    "battles": "0001_squashed_0015_battle_shown",
    "belle_alliance": "0001_squashed_0004_bellealliancematch_shown",
    "campaigns": "0001_squashed_0011_campaign_shown",
    "notifications": "0001_squashed_0003_notification_email_by_worker",
    "ratings": "0001_squashed_0003_rating_pools_rated_matches",
    "stratego": "0001_squashed_0006_strategomatch_shown",
    "tournaments": "0001_squashed_0010_standing_rows",
}

# Migrate a fresh SQLite file in a child process (its own settings and connection): through
# the squashes (Django's default) or through the old chain (the squashes' nodes removed).
MIGRATE = """
import django, sys
django.setup()
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
how, targets = sys.argv[1], [tuple(t.split(":")) for t in sys.argv[2:]]
executor = MigrationExecutor(connection)
loader = executor.loader
if how == "old":  # the graph as it was before the squashes: their nodes out, the old ones in
    loader.replace_migrations = False
    loader.build_graph()
    for key, squash in loader.replacements.items():
        loader.graph.remove_replacement_node(key, squash.replaces)
executor.migrate(targets or executor.loader.graph.leaf_nodes())
"""


def _migrate(path: Path, how: str, *targets: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", SQLITE_PATH=str(path))
    done = subprocess.run([sys.executable, "-c", MIGRATE, how, *targets], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]


def _schema(path: Path) -> dict[str, dict]:
    """Every table's columns, indexes (with their columns), foreign keys and named CHECK
    constraints, as sets: column order is not part of the comparison."""
    db = sqlite3.connect(path)
    out: dict[str, dict] = {}
    tables = db.execute("SELECT name, sql FROM sqlite_master WHERE type='table' "
                        "AND name NOT LIKE 'sqlite_%' AND name != 'django_migrations'").fetchall()
    for table, sql in tables:
        indexes = set()
        for _, name, unique, origin, partial in db.execute(f'PRAGMA index_list("{table}")'):
            columns = tuple(r[2] for r in db.execute(f'PRAGMA index_xinfo("{name}")') if r[5])
            where = db.execute("SELECT sql FROM sqlite_master WHERE name=?", (name,)).fetchone()
            # auto-indexes (UNIQUE in the table) are named by position: keep their columns only
            shown = name if not name.startswith("sqlite_autoindex") else "auto"
            indexes.add((shown, unique, origin, partial, columns, where[0] if where else None))
        checks = set(re.findall(r'CONSTRAINT "([^"]+)" (CHECK|UNIQUE) \((.*?)\)(?:,|\)$)',
                                sql.replace("\n", " ")))
        out[table] = {
            "columns": {r[1:] for r in db.execute(f'PRAGMA table_info("{table}")')},
            "indexes": indexes,
            "foreign keys": {r[2:] for r in db.execute(f'PRAGMA foreign_key_list("{table}")')},
            "constraints": checks,
        }
    db.close()
    return out


def test_the_squashes_end_with_the_schema_of_the_old_chain(tmp_path):
    """Three databases: the old chain; a fresh one through the squashes; and one half-way
    through the old chain (battles at 0013, tournaments at 0008, campaigns at 0009) that is
    then migrated as `make run` does, with the squashes on: Django takes it on through the
    old files. All three end with the same schema."""
    old, new, half = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3", tmp_path / "half.sqlite3"
    _migrate(old, "old")
    _migrate(new, "squashed")
    _migrate(half, "old", "battles:0013_card_sets", "tournaments:0008_online_play",
             "campaigns:0009_card_sets")
    _migrate(half, "squashed")
    before, after, halfway = _schema(old), _schema(new), _schema(half)
    assert sorted(before) == sorted(after) == sorted(halfway)
    assert len(before) > 40
    for table in before:
        assert before[table] == after[table], table
        assert before[table] == halfway[table], table
    # The same migrations recorded: the fresh database records every old name too (so a
    # migration added later that depends on an old name applies to it), and once every old
    # file is applied Django records the squash (check_replacements) on the others.
    assert rows_of(old) == rows_of(new) == rows_of(half)
    assert set(SQUASHES.items()) < rows_of(new)
    assert ("battles", "0015_battle_shown") in rows_of(new)


def rows_of(path: Path) -> set[tuple[str, str]]:
    db = sqlite3.connect(path)
    try:
        return set(db.execute("SELECT app, name FROM django_migrations"))
    finally:
        db.close()


def test_each_squash_replaces_its_apps_whole_history_and_the_old_files_stay():
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    for app, name in SQUASHES.items():
        squash = loader.disk_migrations[(app, name)]
        old = sorted(n for a, n in loader.disk_migrations if a == app and n != name)
        assert [n for _, n in squash.replaces] == old[:len(squash.replaces)]
        assert old[len(squash.replaces) - 1] == name.split("squashed_")[1]
        assert all(loader.disk_migrations[(app, n)] for n in old)  # kept for old databases
        # a fresh database needs none of the old data steps: the squash has no RunPython
        assert not any(type(op).__name__ == "RunPython" for op in squash.operations)
        # with nothing applied (a fresh database) the plan uses the squash, no old file
        assert (app, name) in loader.graph.nodes
        assert not any(key in loader.graph.nodes for key in squash.replaces)
