"""CI's two stages (.ci/run, tests/conftest.py) select tests by flag and mark: the first
(`--no-browser`, SQLite) runs everything but the browser tests, the second (`--backend-only`,
PostgreSQL and Redis) the tests that use a backend, browser tests among them. So every test
runs in at least one stage and a browser test in exactly one, while a run with no flag (the
README's `make test`) runs everything. Checked on real collections (pytest --collect-only)
of three files: a browser test, a database test and a pure one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSER = "tests/browser/test_csp_browser.py"
DATABASE = "tests/test_accounts.py"
PURE = "tests/test_glicko2.py"


def collected(*flags: str) -> set[str]:
    """The files of the tests a run with ``flags`` selects (the files above only)."""
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n0",
                          "-p", "no:cacheprovider", *flags, BROWSER, DATABASE, PURE],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return {line.split("::")[0] for line in run.stdout.splitlines() if "::" in line}


def test_a_run_with_no_flag_selects_every_test():
    assert collected() == {BROWSER, DATABASE, PURE}


def test_the_first_stage_leaves_out_only_the_browser_tests():
    assert collected("--no-browser") == {DATABASE, PURE}


def test_the_backend_stage_runs_the_browser_tests_and_the_database_ones():
    assert collected("--backend-only") == {BROWSER, DATABASE}
