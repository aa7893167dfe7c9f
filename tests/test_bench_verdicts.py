"""The benches measure what they say (issue 31): a verdict on the figure as printed (3.00
against 3 is met), none when the batches disagree; ``bench/engine.py --compare`` archives
only the paths an older revision has; ``bench/tournament.py --help`` answers."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_verdict_is_on_the_printed_figure_and_only_when_stable():
    verdict = bench("request_cpu").verdict
    assert verdict("cpu", [3.0, 3.001, 2.999, 3.004, 3.0], 3) == "cpu <= 3 ms: met"
    assert verdict("cpu", [3.1, 3.2, 3.3, 3.2, 3.1], 3) == "cpu <= 3 ms: NOT met"
    assert "not judged" in verdict("cpu", [1, 3, 5, 7, 9], 3)


def test_engine_compare_archives_only_what_an_old_revision_has():
    engine = bench("engine")
    added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%h", "--",
                            "game/__init__.py"], cwd=ROOT, capture_output=True, text=True)
    if added.returncode != 0 or not added.stdout.split():
        pytest.skip("needs the git history (a shallow clone has none)")
    try:
        old = engine.paths_at(f"{added.stdout.split()[-1]}~1", engine.ENGINE_PATHS)
    except subprocess.CalledProcessError:
        pytest.skip("needs the git history (a shallow clone has none)")
    assert "battles/engine" in old and "game" not in old
    assert "game" in engine.paths_at("HEAD", engine.ENGINE_PATHS)


def test_the_tournament_bench_answers_help():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "tournament.py"), "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "players" in done.stdout


def test_online_bench_spreads_each_side_over_the_web_processes():
    """Each battle's two players on different processes, and each process as many French
    players as Allied ones (one side makes most actions: French all on one process left it
    doing nearly all the acting)."""
    seat = bench("online").seat_port
    for n in (2, 3):
        for i in range(12):
            assert seat(i, 0, n) != seat(i, 1, n)
        french = [seat(i, 0, n) for i in range(12)]
        allied = [seat(i, 1, n) for i in range(12)]
        assert all(french.count(p) == allied.count(p) == 12 // n for p in range(n))
    assert seat(5, 0, 1) == seat(5, 1, 1) == 0
