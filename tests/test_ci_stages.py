"""CI's two stages (.ci/run, tests/conftest.py) select tests by flag and mark: the first
(`--no-browser`, SQLite) runs everything but the browser tests, the second (`--backend-only`,
PostgreSQL and Redis) the tests that use a backend, browser tests among them. So every test
runs in at least one stage and a browser test in exactly one, while a run with no flag (the
README's `make test`) runs everything. Checked on real collections (pytest --collect-only)
of three files: a browser test, a database test and a pure one; the three collections in one
process (one start of Python and Django, not three: this test runs in CI too)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BROWSER = "tests/browser/test_csp_browser.py"
DATABASE = "tests/test_accounts.py"
PURE = "tests/test_glicko2.py"
FLAGS = {"none": [], "first stage": ["--no-browser"], "backend stage": ["--backend-only"]}

# pytest.main once per set of flags, each collection's output captured; prints
# {name: [exit code, [the files of the selected tests]]}.
COLLECT = """
import contextlib, io, json, sys
import pytest
flags, files = json.loads(sys.argv[1]), sys.argv[2:]
seen = {}
for name, extra in flags.items():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = pytest.main(["--collect-only", "-q", "-n0", "-p", "no:cacheprovider",
                            *extra, *files])
    seen[name] = [int(code), sorted({line.split("::")[0] for line in out.getvalue().splitlines()
                                     if "::" in line}), out.getvalue()[-2000:]]
print(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def collected() -> dict[str, set[str]]:
    """The files of the tests each set of FLAGS selects (of the three files above)."""
    run = subprocess.run([sys.executable, "-c", COLLECT, json.dumps(FLAGS),
                          BROWSER, DATABASE, PURE],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    seen = json.loads(run.stdout.splitlines()[-1])
    for name, (code, _, output) in seen.items():
        assert code == 0, (name, output)
    return {name: set(files) for name, (_, files, _) in seen.items()}


def test_a_run_with_no_flag_selects_every_test(collected):
    assert collected["none"] == {BROWSER, DATABASE, PURE}


def test_the_first_stage_leaves_out_only_the_browser_tests(collected):
    assert collected["first stage"] == {DATABASE, PURE}


def test_the_backend_stage_runs_the_browser_tests_and_the_database_ones(collected):
    assert collected["backend stage"] == {BROWSER, DATABASE}
