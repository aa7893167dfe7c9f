"""Issue 28: a fresh clone's `make run` until the first 200 on / (polled every 0.25 s).

Clones SRC into /tmp/mr/LABEL (removed first), with --venv copies /work/main/.venv in (stamps
touched: no install), runs `make run PORT=PORT` without DATABASE_URL/REDIS_URL, and prints the
wall seconds, the CPU seconds of the site's path (make, pip, migrate, serve and its children)
and of the background job (bytecode + engine build) so far, the load average, and make's output
with a time stamp per line (the phases). Stops what it started (its process groups) after.
    python3 bench/make_run.py /work/main before 18501 [--venv]
    python3 bench/make_run.py . after 18502 [--venv]
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request

CLK = os.sysconf("SC_CLK_TCK")


def procs() -> dict[int, dict]:
    """Every process: parent, group, CPU seconds (its own and its reaped children's), argv."""
    out = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                stat = f.read()
            with open(f"/proc/{p}/cmdline") as f:
                cmd = f.read().replace("\0", " ")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        out[int(p)] = {"ppid": int(fields[1]), "pgid": int(fields[2]), "cmd": cmd,
                       "cpu": sum(int(x) for x in fields[11:15]) / CLK}
    return out


def descendants(ps: dict[int, dict], roots: set[int]) -> set[int]:
    found = set(roots)
    changed = True
    while changed:
        changed = False
        for p, v in ps.items():
            if p not in found and v["ppid"] in found:
                found.add(p)
                changed = True
    return found


def main(src: str, label: str, port: str, with_venv: bool) -> None:
    d = f"/tmp/mr/{label}"
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", src, d], check=True)
    if with_venv:
        subprocess.run(["cp", "-a", "/work/main/.venv", f"{d}/.venv"], check=True)
        for stamp in (".base", ".bytecode", ".test", ".engine"):
            if os.path.exists(f"{d}/.venv/{stamp}"):
                os.utime(f"{d}/.venv/{stamp}")
    with open("/proc/loadavg") as f:
        load0 = f.read().split()[:3]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    t0 = time.monotonic()
    make = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=d, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    log: list[str] = []

    def reader() -> None:
        for line in make.stdout:
            log.append(f"{time.monotonic() - t0:7.2f} {line.rstrip()}")

    threading.Thread(target=reader, daemon=True).start()

    def mine() -> tuple[dict[int, dict], set[int]]:
        ps = procs()  # make's group (the detached background job stays in it) and below
        return ps, descendants(ps, {p for p, v in ps.items() if v["pgid"] == make.pid})

    ok = None
    while time.monotonic() - t0 < 900 and make.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                if r.status == 200:
                    ok = time.monotonic() - t0
                    break
        except OSError:  # not serving yet: poll again
            pass
        time.sleep(0.25)
    ps, ours = mine()
    background = descendants(ps, {p for p in ours if ps[p]["cmd"].startswith("sh")
                                  and "engine VENV=" in ps[p]["cmd"]})
    cpu_all = sum(ps[p]["cpu"] for p in ours)
    cpu_bg = sum(ps[p]["cpu"] for p in background)
    with open("/proc/loadavg") as f:
        load1 = f.read().split()[:3]
    print(f"{label}: first 200 after {ok} s wall; CPU site path {cpu_all - cpu_bg:.1f} s, "
          f"background build so far {cpu_bg:.1f} s; load at start {load0}, at end {load1}")
    for line in log:
        print("   ", line[:150])
    groups = {ps[p]["pgid"] for p in ours} - {os.getpgid(0)}
    for group in groups:
        try:
            os.killpg(group, signal.SIGTERM)
        except ProcessLookupError:  # already gone
            pass
    time.sleep(5)
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:  # already gone
            pass


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], "--venv" in sys.argv)
