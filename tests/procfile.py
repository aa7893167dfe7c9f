"""The Procfile's process commands as argv lists, so that the tests which start a web process
start the one production runs (issue 31: uvicorn with the Procfile's flags), not a copy of
it that could drift."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def procfile_line(kind: str) -> str:
    """The command of the Procfile's ``kind:`` line (comments skipped)."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{kind}:"):
            return line.removeprefix(f"{kind}:").strip()
    raise LookupError(f"no {kind}: line in the Procfile")


def web_command(port: int, app: str | None = None) -> list[str]:
    """The Procfile's ``web`` line for ``port`` (its ``${PORT:-8001}``), run by this
    interpreter; ``app`` replaces ``config.asgi:application`` (a probe application)."""
    line = re.sub(r"\$\{PORT(:-\d+)?\}", str(port), procfile_line("web"))
    argv = shlex.split(line)
    assert argv[0] == "python", argv
    argv[0] = sys.executable
    if app is not None:
        argv = [app if a == "config.asgi:application" else a for a in argv]
    return argv
