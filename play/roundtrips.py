"""Counting the database round trips of some code on PostgreSQL, BEGIN and COMMIT included
(issue 31: "<= 4 database round trips per action"; ``bench/profile_action.py --queries`` and
``tests/test_hot_path_round_trips.py``).

Django's ``execute_wrapper`` sees the statements a cursor runs, but not the BEGIN psycopg sends
before a transaction's first statement, nor the COMMIT, nor a savepoint's own round trips: the
count here is libpq's, from its protocol trace. The client waits for the server after each
simple ``Query`` message and after each ``Sync`` that ends an extended-protocol exchange (no
pipeline mode here), so each of those it sends is one round trip.
"""

from __future__ import annotations

import os
import re
import tempfile
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

# A line of libpq's trace (PQTRACE_SUPPRESS_TIMESTAMPS): direction, length, message, ...
_LINE = re.compile(r"^F\t\d+\t(Query|Sync)\b(.*)$")
# An exchange that begins with Parse of a NAMED statement prepares it (an unnamed one, "",
# is the extended protocol's run of an unprepared statement; Bind begins a prepared run)
_PREPARE = re.compile(r'^Parse\s+"[^"]+" ')


class RoundTrips:
    """``with RoundTrips() as trips: ...`` then ``trips.count`` (and ``trips.messages``: what
    each round trip began with, for a reader). Only on PostgreSQL (``supported``)."""

    def __init__(self, using: str = DEFAULT_DB_ALIAS) -> None:
        self.using = using
        self.count = 0
        # of them, those that only prepared a statement (psycopg's Parse of a named statement,
        # once per connection and statement: ``play.sql.planned_cursor``), not run one
        self.preparing = 0
        self.messages: list[str] = []
        self._file: Any = None
        self._pgconn: Any = None

    @staticmethod
    def supported(using: str = DEFAULT_DB_ALIAS) -> bool:
        return connections[using].vendor == "postgresql"

    def __enter__(self) -> RoundTrips:
        connection = connections[self.using]
        connection.ensure_connection()
        from psycopg import pq

        self._pgconn = connection.connection.pgconn
        self._file = tempfile.TemporaryFile(mode="w+b")
        # psycopg closes the descriptor it was given on untrace: give it a copy
        self._pgconn.trace(os.dup(self._file.fileno()))
        self._pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._pgconn.untrace()  # flushes and closes the copy
        self._file.seek(0)
        text = self._file.read().decode("utf-8", "replace")
        self._file.close()
        pending = ""  # the extended exchange's first message (Parse ... "SQL")
        first = ""  # that message with its type
        for line in text.splitlines():
            found = _LINE.match(line)
            if found is None:
                if line.startswith("F\t") and not pending:
                    first = line.split("\t", 2)[-1]
                    pending = line.split("\t", 3)[-1][:120]
                continue
            what = found.group(2).strip()[:120] if found.group(1) == "Query" else pending
            self.messages.append(what)
            self.count += 1
            if found.group(1) == "Sync" and _PREPARE.match(first):
                self.preparing += 1
            pending = first = ""

    @property
    def running(self) -> int:
        """The round trips that ran statements (a one-time prepare left out)."""
        return self.count - self.preparing
