"""Choosing the mypyc-compiled engine or the pure one (battles/engine/native.py).

A build is used only when it was compiled from the exact current sources; the default and a
stale or absent build give the pure engine; ``compiled`` without a build is an error. When
``make test`` has built the engine (``python -m battles.engine.build``), the compiled engine
must replay the golden digests and pass the bots' tests (hidden identities: State.copy)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from battles.engine import native

ROOT = Path(__file__).resolve().parents[2]


def fake_build(builds: Path, stamp: str) -> Path:
    """A build directory with every compiled module's file present (empty)."""
    engine = builds / stamp / "battles" / "engine"
    engine.mkdir(parents=True)
    for m in native.MODULES:
        (engine / f"{m}{native.ext_suffix()}").touch()
    bots = builds / stamp / "battles" / "bots"
    bots.mkdir()
    for m in native.BOT_MODULES:
        (bots / f"{m}{native.ext_suffix()}").touch()
    return builds / stamp


def test_modes_choose_the_build_of_the_current_sources_only(tmp_path):
    stamp = native.source_stamp()
    assert native.choose("pure", tmp_path, stamp) is None
    assert native.choose("auto", tmp_path, stamp) is None  # absent: pure
    with pytest.raises(ImportError, match="no build of the current engine sources"):
        native.choose("compiled", tmp_path, stamp)
    with pytest.raises(ImportError, match="one of pure, auto, compiled"):
        native.choose("fast", tmp_path, stamp)
    fake_build(tmp_path, "0" * 20)  # another (stale) source's build
    assert native.choose("auto", tmp_path, stamp) is None
    build = fake_build(tmp_path, stamp)
    assert native.choose("auto", tmp_path, stamp) == build
    assert native.choose("compiled", tmp_path, stamp) == build
    assert native.choose("pure", tmp_path, stamp) is None
    (build / "battles" / "bots" / f"greedy{native.ext_suffix()}").unlink()  # half-built
    assert native.choose("auto", tmp_path, stamp) is None
    (build / "battles" / "bots" / f"greedy{native.ext_suffix()}").touch()
    (build / "battles" / "engine" / f"legal{native.ext_suffix()}").unlink()
    assert native.choose("auto", tmp_path, stamp) is None


def test_the_stamp_follows_every_source_byte(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(native.HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert native.source_stamp(copy) == native.source_stamp()
    legal = copy / "legal.py"
    legal.write_bytes(legal.read_bytes() + b"\n")
    assert native.source_stamp(copy) != native.source_stamp()
    legal.write_bytes((native.HERE / "legal.py").read_bytes())
    (copy / "extra.py").write_text("X = 1\n")  # a new module changes it too
    assert native.source_stamp(copy) != native.source_stamp()


def test_the_stamp_follows_the_compiled_bots_sources(tmp_path, monkeypatch):
    bots = tmp_path / "bots"
    shutil.copytree(native.BOTS, bots, ignore=shutil.ignore_patterns("__pycache__"))
    stamp = native.source_stamp()
    monkeypatch.setattr(native, "BOTS", bots)
    assert native.source_stamp() == stamp
    greedy = bots / "greedy.py"
    greedy.write_bytes(greedy.read_bytes() + b"\n")  # greedy is compiled with the engine
    assert native.source_stamp() != stamp


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=600)


WHICH = ("import battles.engine as e, battles.engine.legal as l, battles.engine.dice as d;"
         "import battles.bots.greedy as g, battles.bots.search as s;"
         "print(e.BUILD, l.__file__, d.__file__, g.__file__, s.__file__)")


def test_without_a_build_every_mode_but_compiled_imports_the_sources(tmp_path):
    for mode in ("", "pure", "auto"):
        run = run_python(WHICH, EAGLES_ENGINE=mode, EAGLES_ENGINE_BUILD=str(tmp_path))
        assert run.returncode == 0, run.stderr
        build, legal, dice, greedy, search = run.stdout.split()
        assert build == "pure"
        assert legal == str(native.HERE / "legal.py")
        assert dice == str(native.HERE / "dice.py")
        assert greedy == str(native.BOTS / "greedy.py")
        assert search == str(native.BOTS / "search.py")
    run = run_python(WHICH, EAGLES_ENGINE="compiled", EAGLES_ENGINE_BUILD=str(tmp_path))
    assert run.returncode != 0
    assert "EAGLES_ENGINE=compiled but no build" in run.stderr


BUILT = native.is_complete(native.builds_dir() / native.source_stamp())


@pytest.mark.skipif(not BUILT, reason="no build of the current engine sources "
                    "(python -m battles.engine.build; make test does it)")
def test_the_compiled_build_replays_the_golden_digests():
    run = run_python(WHICH, EAGLES_ENGINE="compiled")
    assert run.returncode == 0, run.stderr
    build, legal, dice, greedy, search = run.stdout.split()
    assert build == "compiled"
    assert legal.startswith(str(native.builds_dir())) and legal.endswith(native.ext_suffix())
    assert dice == str(native.HERE / "dice.py")  # not compiled: from the sources
    # greedy (the search's rollout policy) is compiled with the engine; search is not
    assert greedy.startswith(str(native.builds_dir())) and greedy.endswith(native.ext_suffix())
    assert search == str(native.BOTS / "search.py")
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "tests/engine/test_golden_replays.py",
                            "tests/engine/test_native.py::test_piece_copy_keeps_every_field",
                            "tests/test_bots.py", "tests/test_greedy_identity.py"], cwd=ROOT,
                           capture_output=True, text=True, timeout=900,
                           env={**os.environ, "EAGLES_ENGINE": "compiled"})
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-3000:]
    assert " passed" in tests.stdout


def test_piece_copy_keeps_every_field():
    """State.copy copies each Piece field by field (through __init__: compiled, a native
    class's __new__ runs __init__); a field added to _PIECE_FIELDS must be copied too."""
    from battles.engine.state import _PIECE_FIELDS, Piece

    p = Piece(1, 2, 1, 3, False)
    # Every field away from its initial value (a bool flipped, an int made unique): the
    # compiled class keeps the annotated types.
    values = [not getattr(p, n) if isinstance(getattr(p, n), bool) else 100 + i
              for i, n in enumerate(_PIECE_FIELDS)]
    for name, value in zip(_PIECE_FIELDS, values, strict=True):
        setattr(p, name, value)
    q = p.copy()
    assert q is not p
    assert [getattr(q, n) for n in _PIECE_FIELDS] == values


def test_a_build_that_cannot_compile_is_optional_for_make_test(tmp_path):
    """``make test`` runs ``battles.engine.build --optional``: without mypy (here: no such
    Python) it says so and succeeds, leaving no build; without --optional it fails."""
    cmd = [sys.executable, "-m", "battles.engine.build", "--python", str(tmp_path / "none")]
    # EAGLES_ENGINE=pure as the Makefile says: the package is imported before the build runs
    env = {**os.environ, "EAGLES_ENGINE_BUILD": str(tmp_path / "builds"), "EAGLES_ENGINE": "pure"}
    optional = subprocess.run([*cmd, "--optional"], cwd=ROOT, capture_output=True, text=True,
                              env=env, timeout=120)
    assert optional.returncode == 0
    assert "engine build failed, the pure engine will be used" in optional.stderr
    assert not native.is_complete(tmp_path / "builds" / native.source_stamp())
    strict = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert strict.returncode == 1
