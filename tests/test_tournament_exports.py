"""Exports (standings CSV, pairings CSV, FIDE TRF with French as white) and webhooks (signed
JSON, one delivery per event, Celery retries with exponential backoff)."""

import csv
import io
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from tournaments import services, tasks
from tournaments.models import Match, WebhookDelivery
from tournaments.services import exports
from tournaments.services.webhooks import sign, verify

from .test_tournament_helpers import field, organiser, report_both

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(catalogue):
    org = organiser()
    t, _ = field(org, 5, rounds=2)
    services.start_tournament(t.pk, org)
    for m in Match.objects.filter(tournament=t, allied__isnull=False):
        report_both(m, {"result": "french"})
    services.advance(t.pk)
    t.refresh_from_db()
    return t


def test_standings_csv(played):
    rows = list(csv.reader(io.StringIO(exports.standings_csv(played))))
    assert rows[0][:3] == ["rank", "player", "match_points"]
    assert "Opponents' match-win %" in rows[0]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4", "5"]


def test_pairings_csv(played):
    rows = list(csv.reader(io.StringIO(exports.pairings_csv(played))))
    assert rows[0] == ["round", "table", "french", "allied", "result", "state", "source"]
    assert sum(1 for r in rows[1:] if r[3] == "BYE") == 2
    assert any(r[4] == "1-0" for r in rows[1:])


def test_trf_has_fide_columns_and_french_as_white(played):
    text = exports.trf(played)
    lines = text.splitlines()
    assert lines[0].startswith("012 ") and "XXR 2" in lines
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 5
    for line in players:
        assert line[4:8].strip().isdigit()  # starting rank, columns 5-8
        assert float(line[80:84]) >= 0  # points, columns 81-84
        assert line[85:89].strip().isdigit()  # rank, columns 86-89
        first, second = line[91:99], line[101:109]  # round blocks from column 92, 10 apart
        assert len(first) == 8 and first[5] in "wb-"
        assert second[5] in "wb-"  # round 2 is paired, not played yet: no result
    # colours: the French player of table 1 is "w", its opponent "b"
    m = Match.objects.filter(tournament=played, round__number=1, allied__isnull=False).first()
    number = {e.pk: k for k, e in enumerate(played.entries.order_by("seed", "pk"), start=1)}
    french_line = next(x for x in players if int(x[4:8]) == number[m.french_id])
    assert french_line[91:99] == f"{number[m.allied_id]:4d} w 1"
    bye_lines = [x for x in players if "0000 - U" in x]
    assert len(bye_lines) == 2  # one bye per round (5 players)


# --- webhooks --------------------------------------------------------------------------------

def test_signature_is_hmac_sha256_of_the_body():
    body = b'{"event":"round.paired"}'
    sig = sign("s3cret", body)
    assert sig.startswith("sha256=") and len(sig) == 7 + 64
    assert verify("s3cret", body, sig) and not verify("other", body, sig)
    assert not verify("s3cret", body + b" ", sig)


def test_events_are_recorded_once(catalogue, django_capture_on_commit_callbacks):
    org = organiser()
    t, _ = field(org, 4, rounds=1, webhook_url="http://127.0.0.1:9/hook")
    assert len(t.webhook_secret) == 64
    services.start_tournament(t.pk, org)
    for m in Match.objects.filter(tournament=t):
        report_both(m, {"result": "allied"})
    events = list(WebhookDelivery.objects.filter(tournament=t).values_list("event", flat=True))
    assert events == ["round.paired", "round.finished", "tournament.finished"]
    payload = WebhookDelivery.objects.get(tournament=t, event="tournament.finished").payload
    assert payload["tournament"]["id"] == t.pk and len(payload["standings"]) == 4


class _Flaky(BaseHTTPRequestHandler):
    calls: list = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.calls.append((dict(self.headers), body))
        self.send_response(503 if len(self.calls) <= 2 else 204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_delivery_retried_until_the_server_accepts(catalogue, monkeypatch):
    """In-process (eager) run of the Celery task: two failures, then success; the backoff
    doubles (countdowns recorded); the real-worker version is in test_tournament_worker."""
    _Flaky.calls = []
    server = HTTPServer(("127.0.0.1", 0), _Flaky)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        org = organiser()
        t, _ = field(org, 2, webhook_url=f"http://127.0.0.1:{server.server_port}/")
        d = WebhookDelivery.objects.create(tournament=t, event="round.paired", key="k",
                                           url=t.webhook_url, payload={"event": "round.paired"})
        countdowns = []
        original = tasks.deliver_webhook.retry

        def spy(*args, **kwargs):
            countdowns.append(kwargs.get("countdown"))
            return original(*args, **kwargs)

        monkeypatch.setattr(tasks.deliver_webhook, "retry", spy)
        monkeypatch.setenv("EAGLES_WEBHOOK_BACKOFF", "2")
        started = time.monotonic()
        tasks.deliver_webhook.apply(args=[d.pk])
        assert time.monotonic() - started < 10  # eager: countdowns are not waited for
        d.refresh_from_db()
        assert d.state == "delivered" and d.attempts == 3 and d.last_status == 204
        assert countdowns == [2.0, 4.0]
        headers, body = _Flaky.calls[-1]
        assert verify(t.webhook_secret, body, headers["X-Eagles-Signature"])
        assert json.loads(body) == {"event": "round.paired"}
        # delivered: a doubled task sends nothing more
        tasks.deliver_webhook.apply(args=[d.pk])
        assert len(_Flaky.calls) == 3
    finally:
        server.shutdown()
