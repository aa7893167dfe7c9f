"""Run the web server and a real Celery worker together; Ctrl-C stops both."""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Start the web server (daphne, ASGI) and a Celery worker; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--host", default="127.0.0.1")

    def handle(self, *args, port: int, host: str, **options):
        # Ctrl-C (SIGINT) or SIGTERM stops both children, even when started from a script
        # that set SIGINT to be ignored.
        def stop(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        python = sys.executable
        env = os.environ.copy()
        subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                       check=True, env=env)
        # One worker with an embedded beat: the tournament clock's periodic tick runs too.
        schedule = settings.VAR_DIR / "celerybeat-schedule"
        worker = subprocess.Popen(
            [python, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
             "--pool", "threads", "--concurrency", "2", "--hostname", f"eagles@{host}",
             "--beat", "--schedule", str(schedule)],
            env=env)
        web = subprocess.Popen([python, "-m", "daphne", "-b", host, "-p", str(port),
                                "config.asgi:application"], env=env)
        backend = "PostgreSQL" if settings.DATABASE_URL else "SQLite"
        broker = "Redis" if settings.REDIS_URL else "filesystem broker"
        self.stdout.write(self.style.SUCCESS(
            f"Eagles Online is running at http://{host}:{port}/  ({backend}, Celery on {broker})."
            " Press Ctrl-C to stop."))
        children = [web, worker]
        try:
            while all(p.poll() is None for p in children):
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            for p in children:
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            deadline = time.time() + 10
            for p in children:
                try:
                    p.wait(timeout=max(0.1, deadline - time.time()))
                except subprocess.TimeoutExpired:
                    p.kill()
            self.stdout.write("Stopped the web server and the worker.")
