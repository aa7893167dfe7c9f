"""A CPU-weighted stack sampler for a whole process, every thread included (issue 31).

cProfile cannot show where a web server's CPU goes: since Python 3.12 it rides ``sys.monitoring``,
which reports every thread's calls into ONE profiler stack, so a database thread's calls
interleave with the event loop's and the cumulative figures are wrong. Here a daemon thread
wakes every ``interval`` s, reads each thread's own CPU clock (``pthread_getcpuclockid``) and
its Python stack (``sys._current_frames``), and charges the CPU that thread used since the
last wake to the stack it is in now: a thread that waited (epoll, a lock, the database's
answer) used no CPU and is charged nothing. Figures are estimates from samples (their share
of the process's CPU), not exact call counts; the overhead is one wake per ``interval``.

Run a program under it (``bench/online.py --profile-web FILE`` does this for the first web
server, uvicorn or daphne):

    python bench/cpu_sampler.py --out FILE [--interval 0.002] -m uvicorn ...

Under uvicorn the event loop is uvloop's C code: the CPU it spends between Python callbacks
(libuv's polling, httptools' parsing) is charged to the Python frame below it, asyncio's
``run`` (``runners.py``), which therefore stands for "the C event loop" in the report.
Threads are grouped by kind: the main thread is the event loop; ``asyncio_N`` / ``uvloop_N``
are the loop's default executor (``loop.run_in_executor(None, ...)``: asgiref's
``sync_to_async(thread_sensitive=False)``, i.e. the ORM work of the consumers), named after
the loop that made it.

SIGUSR1 starts the figures afresh (the bench sends it when its warm-up ends), SIGUSR2 writes
the report now (the bench sends it when its measure ends), and so does the exit. The report:
the CPU per thread kind, then the top entries by self CPU and by inclusive ("cumulative")
CPU.
"""

from __future__ import annotations

import argparse
import atexit
import os
import runpy
import signal
import sys
import threading
import time
from collections import Counter

Key = tuple[str, int, str]  # (file, first line, function)


def _short(path: str) -> str:
    for marker in ("site-packages/", "/lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    root = os.getcwd() + os.sep
    return path.removeprefix(root)


def thread_kind(name: str) -> str:
    """One label per kind of thread (``ThreadPoolExecutor-0_3`` -> ``ThreadPoolExecutor``)."""
    if name == "MainThread":
        return "main (event loop)"
    kind = name.rstrip("0123456789_-") or name
    if kind in ("asyncio", "uvloop"):
        return f"the loop's default executor ({kind}_N: sync_to_async)"
    return kind


class Sampler:
    def __init__(self, interval: float = 0.002) -> None:
        self.interval = interval
        self.self_cpu: Counter[Key] = Counter()
        self.inclusive: Counter[Key] = Counter()
        self.by_thread: Counter[str] = Counter()
        self.total = 0.0
        self.started = time.process_time()
        self._clocks: dict[int, float] = {}
        self._stop = threading.Event()
        self._me = 0

    def start(self) -> None:
        # The sampler needs the GIL to look: at the default 5 ms switch interval a busy
        # thread keeps it until it blocks, so every sample would land on a blocking call
        # (a socket wait, epoll) and be charged the Python work done before it.
        sys.setswitchinterval(min(sys.getswitchinterval(), self.interval / 10))
        thread = threading.Thread(target=self._run, name="cpu-sampler", daemon=True)
        thread.start()

    def stop(self) -> None:
        self._stop.set()

    def reset(self, *_) -> None:
        """Forget what was sampled so far (SIGUSR1: the bench's warm-up is over)."""
        self.self_cpu.clear()
        self.inclusive.clear()
        self.by_thread.clear()
        self.total = 0.0
        self.started = time.process_time()

    def _cpu(self, ident: int) -> float | None:
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(ident))
        except (OSError, ValueError, OverflowError):
            return None

    def _run(self) -> None:
        self._me = threading.get_ident()
        while not self._stop.wait(self.interval):
            self.sample()

    def sample(self) -> None:
        names = {t.ident: t.name for t in threading.enumerate()}
        frames = sys._current_frames()
        for ident, frame in frames.items():
            if ident == self._me:
                continue
            now = self._cpu(ident)
            if now is None:
                continue
            used = now - self._clocks.get(ident, now)
            self._clocks[ident] = now
            if used <= 0:
                continue
            self.total += used
            name = names.get(ident, "?")
            self.by_thread[thread_kind(name)] += used
            seen: set[Key] = set()
            first = True
            while frame is not None:
                code = frame.f_code
                key = (code.co_filename, code.co_firstlineno, code.co_name)
                if first:
                    self.self_cpu[key] += used
                    first = False
                if key not in seen:
                    seen.add(key)
                    self.inclusive[key] += used
                frame = frame.f_back

    def report(self, top: int = 80) -> str:
        total = self.total or 1e-9
        lines = [f"sampled CPU {self.total:.2f} s of the process's "
                 f"{time.process_time() - self.started:.2f} s (every {self.interval * 1000:g} ms)",
                 "", "CPU by thread:"]
        for name, used in self.by_thread.most_common():
            lines.append(f"  {used:8.2f} s {100 * used / total:5.1f} %  {name}")

        def table(title: str, counter: Counter[Key]) -> None:
            lines.extend(["", title])
            for (path, line, func), used in counter.most_common(top):
                lines.append(f"  {used:8.2f} s {100 * used / total:5.1f} %  "
                             f"{func}  {_short(path)}:{line}")

        table("top by self CPU:", self.self_cpu)
        table("top by inclusive (cumulative) CPU:", self.inclusive)
        return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--interval", type=float, default=0.002)
    parser.add_argument("--top", type=int, default=80)
    parser.add_argument("-m", dest="module", required=True)
    args, rest = parser.parse_known_args()
    sampler = Sampler(args.interval)

    def write(*_) -> None:
        with open(args.out + ".part", "w") as out:
            out.write(sampler.report(args.top))
        os.replace(args.out + ".part", args.out)

    atexit.register(write)
    signal.signal(signal.SIGUSR1, sampler.reset)
    signal.signal(signal.SIGUSR2, write)
    sampler.start()
    sys.path[0] = os.getcwd()  # the program's directory, not bench/ (its names would shadow)
    sys.argv = [args.module, *rest]
    runpy.run_module(args.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
