"""Where the machine's CPU goes during a bench, read from outside the processes (``/proc``):
the web servers' threads by kind, the PostgreSQL backends of one database, Redis, any other
process (issue 31). Nothing runs inside the servers, so the figures cost them nothing.

A web server's threads are told apart as its main thread (the event loop: websocket frames,
Redis, the consumers) and the others: on PostgreSQL nearly all of those are the sockets'
database threads (``play/live/threads.py``: the service's act, the messages built, the
poll), with the live sender loop and asgiref's threads if any (Python 3.13 gives the
operating system no thread names to tell them apart by). PostgreSQL backends are
found by their process title (``postgres: USER DATABASE HOST ...``); a backend that exits
during the measure takes its CPU with it (the web servers' pool keeps theirs open).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
EVENT_LOOP, THREADS = "event loop", "database (and other) threads"


def _stat_cpu(stat: str) -> float:
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (0 if it is gone)."""
    try:
        return _stat_cpu(Path(f"/proc/{pid}/stat").read_text())
    except (OSError, IndexError, ValueError):
        return 0.0


def threads_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of ``pid``'s live threads so far: its main thread's and the others'."""
    out = {EVENT_LOOP: 0.0, THREADS: 0.0}
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return out
    for task in tasks:
        try:
            cpu = _stat_cpu((task / "stat").read_text())
        except (OSError, IndexError, ValueError):
            continue  # the thread ended meanwhile
        out[EVENT_LOOP if int(task.name) == pid else THREADS] += cpu
    return out


def _processes() -> Iterable[tuple[int, str]]:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                yield int(entry.name), (entry / "cmdline").read_bytes().decode(
                    errors="replace").replace("\0", " ")
            except OSError:
                continue


def database_backends(database: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend connected to ``database``."""
    return {pid: process_cpu(pid) for pid, title in _processes()
            if title.startswith("postgres: ") and f" {database} " in f"{title} "}


def named_processes(fragment: str) -> dict[int, float]:
    """CPU seconds so far of each process whose command line contains ``fragment``."""
    return {pid: process_cpu(pid) for pid, title in _processes() if fragment in title}


def grown(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU used between two readings of a set of processes (new ones count whole)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())
