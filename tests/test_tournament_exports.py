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

from .tournament_helpers import field, organiser, report_both

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(catalogue):
    org = organiser()
    t, _ = field(org, 5, rounds=2)
    services.start_tournament(t.pk, org)
    matches = list(Match.objects.filter(tournament=t, allied__isnull=False))
    assert matches
    for m in matches:
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
    assert rows[0] == ["round", "table", "french", "allied", "result", "state", "source",
                       "game1", "game2"]
    assert sum(1 for r in rows[1:] if r[3] == "BYE") == 2
    assert any(r[4] == "1-0" for r in rows[1:])
    # one-game event: no per-game columns filled
    assert all(len(r) == 9 and r[7] == r[8] == "" for r in rows[1:])


@pytest.fixture
def two_game(catalogue):
    """A 4-player two-game Swiss, round 1 played: table 1 split (each player won as French),
    table 2 a sweep by the player listed as Allied."""
    org = organiser()
    t, _ = field(org, 4, rounds=2, format="swiss_two_game")
    services.start_tournament(t.pk, org)
    split, sweep = Match.objects.filter(tournament=t).order_by("table")
    report_both(split, {"games": ["french", "allied"]})
    report_both(sweep, {"games": ["allied", "allied"]})
    t.refresh_from_db()
    return t, split, sweep


def test_pairings_csv_per_game_columns_for_two_game_matches(two_game):
    t, split, sweep = two_game
    rows = list(csv.reader(io.StringIO(exports.pairings_csv(t, round_number=1))))
    assert rows[0][-2:] == ["game1", "game2"]
    by_table = {int(r[1]): r for r in rows[1:]}
    assert by_table[split.table][2:] == [split.french.user.username,
                                         split.allied.user.username, "1-1", "settled",
                                         "agreement", "french", "allied"]
    assert by_table[sweep.table][4:] == ["0-2", "settled", "agreement", "allied", "allied"]
    # round 2, paired but not played: no per-game outcomes yet
    services.advance(t.pk)
    later = list(csv.reader(io.StringIO(exports.pairings_csv(t, round_number=2))))[1:]
    assert later and all(r[5] != "settled" and r[7] == r[8] == "" for r in later)


def test_trf_scores_a_two_game_match_as_a_whole_in_game_1_colours(two_game):
    t, split, sweep = two_game
    lines = [x for x in exports.trf(t).splitlines() if x.startswith("001")]
    number = {e.pk: k for k, e in enumerate(t.entries.order_by("seed", "pk"), start=1)}
    line = {int(x[4:8]): x for x in lines}
    # the 1-1 split is a draw; the player listed as French is white (game 1 French)
    assert line[number[split.french_id]][91:99] == f"{number[split.allied_id]:4d} w ="
    assert line[number[split.allied_id]][91:99] == f"{number[split.french_id]:4d} b ="
    assert float(line[number[split.french_id]][80:84]) == 0.5
    # the 0-2 sweep: one match win (1 point, not 2 games) for the player listed as Allied
    assert line[number[sweep.french_id]][91:99] == f"{number[sweep.allied_id]:4d} w 0"
    assert line[number[sweep.allied_id]][91:99] == f"{number[sweep.french_id]:4d} b 1"
    assert float(line[number[sweep.allied_id]][80:84]) == 1.0


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


def test_trf_is_read_back_by_an_independent_trf_parser(played):
    """The ``trf`` package (a FIDE TRF-16 reader from PyPI, not ours) parses the export:
    every player, their points, and each round's opponent, colour and result as we stored
    them. (That reader drops a trailing unplayed game, so round 2 is played first; the
    blank result of an unplayed game is checked by column above.)"""
    import trf

    matches = list(Match.objects.filter(tournament=played, round__number=2, allied__isnull=False))
    assert matches
    for m in matches:
        report_both(m, {"result": "french"})
    text = exports.trf(played)
    parsed = trf.loads(text)
    assert parsed.name == played.name and parsed.numplayers == 5
    entries = list(played.entries.order_by("seed", "pk"))
    number = {e.pk: k for k, e in enumerate(entries, start=1)}
    assert [p.startrank for p in parsed.players] == list(range(1, 6))
    assert [p.name.strip() for p in parsed.players] == [e.user.username for e in entries]
    by_rank = {p.startrank: p for p in parsed.players}
    matches = list(Match.objects.filter(tournament=played).select_related("round"))
    assert matches
    for m in matches:
        r = m.round.number
        if m.is_bye:
            g = by_rank[number[m.french_id]].games[r - 1]
            assert (g.startrank or 0, g.result.upper()) == (0, "U")
            continue
        f = by_rank[number[m.french_id]].games[r - 1]
        a = by_rank[number[m.allied_id]].games[r - 1]
        assert (f.startrank, f.color, a.startrank, a.color) == (
            number[m.allied_id], "w", number[m.french_id], "b")
        assert m.state == Match.State.SETTLED
        assert (f.result, a.result) == ("1", "0")
    # points: 1 per win or bye, as in the standings
    wins = {number[e.pk]: 0.0 for e in entries}
    matches = list(Match.objects.filter(tournament=played, state=Match.State.SETTLED))
    assert matches
    for m in matches:
        wins[number[m.french_id]] += 1  # byes and "french" wins
    assert {p.startrank: float(p.points) for p in parsed.players} == wins


# --- webhooks --------------------------------------------------------------------------------

def test_signature_is_hmac_sha256_of_the_body():
    body = b'{"event":"round.paired"}'
    sig = sign("s3cret", body)
    assert sig.startswith("sha256=") and len(sig) == 7 + 64
    assert verify("s3cret", body, sig) and not verify("other", body, sig)
    assert not verify("s3cret", body + b" ", sig)


def test_events_are_recorded_once(catalogue, django_capture_on_commit_callbacks, settings):
    settings.EAGLES_WEBHOOK_ALLOW_PRIVATE = True  # a local address
    org = organiser()
    t, _ = field(org, 4, rounds=1, webhook_url="http://127.0.0.1:9/hook")
    assert len(t.webhook_secret) == 64
    services.start_tournament(t.pk, org)
    matches = list(Match.objects.filter(tournament=t))
    assert matches
    for m in matches:
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


def test_delivery_retried_until_the_server_accepts(catalogue, monkeypatch, settings):
    """In-process (eager) run of the Celery task: two failures, then success; the backoff
    doubles (countdowns recorded); the real-worker version is in test_tournament_worker."""
    settings.EAGLES_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on 127.0.0.1
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


# --- webhook URL safety (SSRF) ---------------------------------------------------------------

def _resolving_to(monkeypatch, address):
    """Make every host name resolve to ``address`` (no real DNS in tests)."""
    import socket

    family = socket.AF_INET6 if ":" in address else socket.AF_INET

    def fake(host, port, *args, **kwargs):
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr("tournaments.services.webhooks.socket.getaddrinfo", fake)


@pytest.mark.parametrize("url, message", [
    ("ftp://hooks.example.com/x", "http(s)"),
    ("file:///etc/passwd", "http(s)"),
    ("http://127.0.0.1:8000/hook", "loopback"),
    ("http://[::1]/hook", "loopback"),
    ("http://10.1.2.3/hook", "private"),
    ("http://192.168.0.10/hook", "private"),
    ("http://169.254.169.254/latest/meta-data", "link-local"),
    ("http://224.0.0.1/hook", "multicast"),
    ("http://240.0.0.1/hook", "reserved"),
    ("http://0.0.0.0/hook", "unspecified"),
    ("http://[::ffff:127.0.0.1]/hook", "loopback"),
    ("http://100.64.0.1/hook", "not public"),
])
def test_webhook_url_must_be_http_and_public(catalogue, url, message):
    org = organiser()
    with pytest.raises(services.TournamentError, match="webhook_url") as exc:
        services.create_tournament(org, name="X", battle="ligny", webhook_url=url)
    assert message in exc.value.message and exc.value.status == 400
    from tournaments.models import Tournament

    assert not Tournament.objects.exists()


def test_webhook_host_resolving_to_a_private_address_is_refused(catalogue, monkeypatch):
    org = organiser()
    _resolving_to(monkeypatch, "10.0.0.5")
    with pytest.raises(services.TournamentError, match="10.0.0.5 \\(private\\)"):
        services.create_tournament(org, name="X", battle="ligny",
                                   webhook_url="https://hooks.example.com/eagles")
    _resolving_to(monkeypatch, "93.184.215.14")
    t = services.create_tournament(org, name="X", battle="ligny",
                                   webhook_url="https://hooks.example.com/eagles")
    assert t.webhook_url == "https://hooks.example.com/eagles" and t.webhook_secret
    _resolving_to(monkeypatch, "fd00::1")
    with pytest.raises(services.TournamentError, match="private"):
        services.update_tournament(t.pk, org, webhook_url="https://other.example.com/")


def test_webhook_unresolvable_host_is_accepted_at_save_and_retried_at_delivery(
        catalogue, monkeypatch):
    """Saving does not depend on DNS; a delivery to a host that does not resolve is a network
    error (retried with backoff), not a refusal."""
    import socket

    def fail(*args, **kwargs):
        raise socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr("tournaments.services.webhooks.socket.getaddrinfo", fail)
    t = services.create_tournament(organiser(), name="X", battle="ligny",
                                   webhook_url="https://nowhere.invalid/")
    d = WebhookDelivery.objects.create(tournament=t, event="round.paired", key="k",
                                       url=t.webhook_url, payload={"event": "round.paired"})
    from tournaments.services.webhooks import DeliveryFailed, deliver

    with pytest.raises(DeliveryFailed, match="does not resolve"):
        deliver(d.pk)
    d.refresh_from_db()
    assert d.state == "pending" and "does not resolve" in d.last_error


def test_webhook_private_allowed_by_the_setting(catalogue, settings):
    settings.EAGLES_WEBHOOK_ALLOW_PRIVATE = True
    t = services.create_tournament(organiser(), name="X", battle="ligny",
                                   webhook_url="http://127.0.0.1:9/hook")
    assert t.webhook_url == "http://127.0.0.1:9/hook"
    with pytest.raises(services.TournamentError, match="http\\(s\\)"):
        services.update_tournament(t.pk, t.organiser, webhook_url="gopher://127.0.0.1/")


def test_api_refuses_a_private_webhook_with_a_clear_400(catalogue):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(organiser())
    r = client.post("/api/tournaments/", {"name": "X", "battle": "ligny",
                                          "webhook_url": "http://169.254.169.254/"},
                    format="json")
    assert r.status_code == 400
    assert "public address" in r.json()["detail"] and "link-local" in r.json()["detail"]


def test_delivery_refused_when_dns_now_points_inside(catalogue, monkeypatch):
    """Saved while public; at delivery the host resolves to a private address: the delivery
    is failed with the reason, nothing is sent and Celery does not retry."""
    _resolving_to(monkeypatch, "93.184.215.14")
    org = organiser()
    t = services.create_tournament(org, name="X", battle="ligny",
                                   webhook_url="https://hooks.example.com/eagles")
    d = WebhookDelivery.objects.create(tournament=t, event="round.paired", key="k",
                                       url=t.webhook_url, payload={"event": "round.paired"})
    _resolving_to(monkeypatch, "127.0.0.1")
    sent, retries = [], []
    monkeypatch.setattr("tournaments.services.webhooks._post",
                        lambda *a, **k: sent.append(a) or 200)
    monkeypatch.setattr(tasks.deliver_webhook, "retry",
                        lambda *a, **k: retries.append(k) or None)
    result = tasks.deliver_webhook.apply(args=[d.pk])
    assert result.get() == "failed"
    d.refresh_from_db()
    assert d.state == "failed" and d.attempts == 1 and d.last_status is None
    assert d.last_error.startswith("refused:") and "127.0.0.1 (loopback)" in d.last_error
    assert sent == [] and retries == []


def test_delivery_connects_to_the_checked_address(catalogue, monkeypatch, settings):
    """The POST goes to the address validated just before (no second lookup to rebind)."""
    settings.EAGLES_WEBHOOK_ALLOW_PRIVATE = True
    _Flaky.calls = [None, None]  # the next call answers 204
    server = HTTPServer(("127.0.0.1", 0), _Flaky)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        _resolving_to(monkeypatch, "127.0.0.1")
        t = services.create_tournament(
            organiser(), name="X", battle="ligny",
            webhook_url=f"http://hooks.example.com:{server.server_port}/in?x=1")
        d = WebhookDelivery.objects.create(tournament=t, event="round.paired", key="k",
                                           url=t.webhook_url, payload={"event": "round.paired"})
        assert tasks.deliver_webhook.apply(args=[d.pk]).get() == "delivered"
        headers, body = _Flaky.calls[-1]
        assert headers["Host"] == f"hooks.example.com:{server.server_port}"
        assert verify(t.webhook_secret, body, headers["X-Eagles-Signature"])
    finally:
        server.shutdown()
