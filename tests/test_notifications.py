"""Notifications (issue 12): what a player is told, in the list and by e-mail, each kind
switchable; the menu's "Your move (n)" badge, the bell and the tab title.

The battle service's ``battle_changed`` is sent after commit, so every change a test wants
heard runs inside ``django_capture_on_commit_callbacks(execute=True)``. E-mail is a worker's
job: ``mail_queue`` (tests/conftest.py) holds the queued ones until ``mail_queue.run()``; the
worker side is in tests/test_notification_email.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import connection, transaction
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from battles import services as battle_services
from battles.engine import from_json, legal_actions
from battles.models import Battle, Status
from cards.catalogue.file import catalogue_records
from frontend.context_processors import notification_counts
from notifications import deadlines, services, tasks
from notifications.models import Kind, Notification, NotificationSetting
from tournaments import services as tournament_services
from tournaments.models import Round

from .tournament_helpers import field, organiser

RECORDS = catalogue_records()
HANDOVER = ("deployment_done", "end_turn", "pass", "done")

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def locmem_mail(settings):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}


@pytest.fixture
def no_tournament_tasks(monkeypatch):
    from tournaments import enqueue as tournament_enqueue

    monkeypatch.setattr(tournament_enqueue, "send", lambda *a, **k: None)


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def notes(user, kind=None) -> list[Notification]:
    qs = Notification.objects.filter(user=user)
    return list(qs.filter(kind=kind) if kind else qs)


def two_people(alice, bob, on_commit, **create) -> Battle:
    """An open battle alice creates (French) and bob joins (Allied: 4.1, the Allies first)."""
    with on_commit(execute=True):
        b = battle_services.create_battle(alice, "quatre-bras", "french", opponent="open",
                                          **create)
    with on_commit(execute=True):
        battle_services.join_battle(b.pk, bob)
    b.refresh_from_db()
    return b


def act(b: Battle, user, on_commit) -> Battle:
    """``user`` (to move) plays one action, preferring one that hands over."""
    legal = legal_actions(from_json(b.state, cards=RECORDS), b.to_move)
    action = next((a for a in legal if a["type"] in HANDOVER), legal[0])
    with on_commit(execute=True):
        battle_services.act(b.pk, user, b.seq, action)
    b.refresh_from_db()
    return b


def hand_over(b: Battle, players: dict, on_commit) -> Battle:
    """The side to move acts until the other side has priority."""
    start = b.to_move
    for _ in range(60):
        b = act(b, players[start], on_commit)
        if b.to_move != start:
            return b
    raise AssertionError("priority never changed hands")


def card_names() -> set[str]:
    return {r["name"] for r in RECORDS if len(r["name"]) > 3}


def assert_no_card_named(texts) -> None:
    names = card_names()
    for text in texts:
        assert not [n for n in names if n in text and n not in ("Quatre Bras",)], text


# --- Your move ------------------------------------------------------------------------------

def test_your_move_goes_to_the_player_with_priority_after_the_opponents_action(
        user, other_user, sent, django_capture_on_commit_callbacks):
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    assert b.to_move == "allied"
    # The battle starts with bob (Allied) to move: he is told; alice is not.
    [note] = notes(other_user, Kind.YOUR_MOVE)
    assert note.battle_id == b.pk and note.url == f"/battles/{b.pk}/"
    assert "against alice" in note.text and notes(user, Kind.YOUR_MOVE) == []
    players = {"french": user, "allied": other_user}
    b = hand_over(b, players, django_capture_on_commit_callbacks)
    # Bob moved: his "your move" is out of date (read); alice, now to move, is told once.
    note.refresh_from_db()
    assert note.read_at is not None
    [mine] = notes(user, Kind.YOUR_MOVE)
    assert mine.read_at is None and "against bob" in mine.text
    assert sent == []


def test_your_move_is_coalesced_and_not_sent_for_ones_own_actions(
        user, other_user, sent, django_capture_on_commit_callbacks):
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    players = {"french": user, "allied": other_user}
    b = hand_over(b, players, django_capture_on_commit_callbacks)
    assert len(notes(user, Kind.YOUR_MOVE)) == 1
    # Alice acts within her own turn: no new message; the same battle's next change with
    # alice still to move (a repeated signal) is coalesced into the unread one.
    from notifications.listeners import on_battle_changed

    on_battle_changed(Battle, battle_id=b.pk, seq=b.seq, status=b.status)
    on_battle_changed(Battle, battle_id=b.pk, seq=b.seq, status=b.status)
    assert len(notes(user, Kind.YOUR_MOVE)) == 1
    assert services.notify(user, Kind.YOUR_MOVE, "again", battle_id=b.pk) is None
    assert Notification.objects.filter(user=user, kind=Kind.YOUR_MOVE,
                                       read_at__isnull=True).count() == 1
    # She reads it, then deploys a card (5.0: still her move): nothing new for her own action.
    assert services.mark_read(user, everything=True) == 1
    legal = legal_actions(from_json(b.state, cards=RECORDS), "french")
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.act(b.pk, user, b.seq, next(a for a in legal if a["type"] == "deploy"))
    b.refresh_from_db()
    assert b.to_move == "french" and len(notes(user, Kind.YOUR_MOVE)) == 1


def test_a_hand_over_after_an_action_does_not_read_the_log(
        user, other_user, sent, django_capture_on_commit_callbacks):
    """The action's signal says who acted last: the listener needs no look at the log to
    know the move changed hands (issue 12, "Figures"); without it (an undo, a clock event)
    it asks the log."""
    from notifications.listeners import on_battle_changed

    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    b = hand_over(b, {"french": user, "allied": other_user}, django_capture_on_commit_callbacks)
    Notification.objects.all().delete()
    for extra, log_reads in (({"by": "allied", "to_move": b.to_move}, 0), ({}, 1)):
        with CaptureQueriesContext(connection) as ctx:
            on_battle_changed(Battle, battle_id=b.pk, seq=b.seq, status=b.status, **extra)
        reads = [q for q in ctx.captured_queries if "battles_battleaction" in q["sql"]]
        assert len(reads) == log_reads, extra
        [note] = notes(user, Kind.YOUR_MOVE)  # told either way, once (coalesced)


def test_no_your_move_against_the_computer(user, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        b = battle_services.create_battle(user, "quatre-bras", "allied")  # the Allies move first
    assert b.to_move == "allied" and Notification.objects.count() == 0
    act(b, user, django_capture_on_commit_callbacks)
    assert Notification.objects.count() == 0  # and none for the computer's side (no user)


# --- Invitation and battle over -------------------------------------------------------------

def test_an_invitation_is_notified_once(user, other_user, sent,
                                        django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        b = battle_services.create_battle(user, "quatre-bras", "french", opponent="bob")
    [note] = notes(other_user, Kind.INVITATION)
    assert note.text == f"alice invites you to Quatre Bras #{b.pk}: you would play the " \
                        "Allied side."
    assert note.url == "/battles/" and notes(user) == []
    from notifications.listeners import on_battle_changed

    on_battle_changed(Battle, battle_id=b.pk, seq=0, status="waiting")
    assert len(notes(other_user, Kind.INVITATION)) == 1
    # An open battle invites nobody.
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.create_battle(user, "quatre-bras", "french", opponent="open")
    assert Notification.objects.filter(kind=Kind.INVITATION).count() == 1


def finish(b: Battle, winner: str | None, reason: str, on_commit) -> None:
    with on_commit(execute=True):
        with transaction.atomic():
            locked = Battle.objects.select_for_update().get(pk=b.pk)
            battle_services.finish_battle(locked, {"winner": winner, "reason": reason,
                                                   "turn": 3})


def test_battle_over_tells_both_players_the_outcome(user, other_user, sent,
                                                    django_capture_on_commit_callbacks):
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    finish(b, "french", "resigned", django_capture_on_commit_callbacks)
    [alice] = notes(user, Kind.BATTLE_OVER)
    [bob] = notes(other_user, Kind.BATTLE_OVER)
    assert alice.text == f"Quatre Bras #{b.pk} is over: you won by resignation."
    assert bob.text == f"Quatre Bras #{b.pk} is over: you lost by resignation."
    # The battle is over: nobody's "your move" stays unread.
    assert not Notification.objects.filter(kind=Kind.YOUR_MOVE, read_at__isnull=True).exists()
    assert_no_card_named(n.text for n in Notification.objects.all())


# --- Settings and e-mail --------------------------------------------------------------------

def test_switched_off_sends_nothing(user, other_user, sent, mail_queue,
                                    django_capture_on_commit_callbacks):
    services.update_settings(other_user, {"invitation": {"in_app": False, "email": False}})
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.create_battle(user, "quatre-bras", "french", opponent="bob")
    assert Notification.objects.count() == 0 and mail_queue == []
    assert mail_queue.run() == [] and mail.outbox == []


def test_email_when_switched_on_and_only_then(user, other_user, sent, mail_queue,
                                              django_capture_on_commit_callbacks):
    services.update_settings(user, {"battle_over": {"email": False}})
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    # Untimed battle: bob's "your move" is mailed by default (by a worker: queued here).
    assert mail.outbox == [] and mail_queue.run() == ["sent"]
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "Your move in Quatre Bras" in mail.outbox[0].subject
    assert f"/battles/{b.pk}/" in mail.outbox[0].body
    mail.outbox.clear()
    finish(b, None, "turn_cap", django_capture_on_commit_callbacks)
    assert mail_queue.run() == ["sent"]
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]  # alice switched hers off
    assert "a draw on the turn limit" in mail.outbox[0].body
    assert len(notes(user, Kind.BATTLE_OVER)) == 1  # still in her list
    assert not notes(user, Kind.BATTLE_OVER)[0].by_email
    assert_no_card_named(m.subject + m.body for m in mail.outbox)


def test_email_only_is_not_listed_and_live_your_move_is_never_mailed(
        user, other_user, sent, mail_queue, django_capture_on_commit_callbacks):
    services.update_settings(other_user, {"your_move": {"in_app": False, "email": True}})
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    assert mail_queue.run() == ["sent"]
    assert len(mail.outbox) == 1 and services.listed(other_user).count() == 0
    mail.outbox.clear()
    Battle.objects.filter(pk=b.pk).update(time_control={"kind": "live", "base": 300,
                                                        "increment": 5})
    b.refresh_from_db()
    b = hand_over(b, {"french": user, "allied": other_user}, django_capture_on_commit_callbacks)
    b = hand_over(b, {"french": user, "allied": other_user}, django_capture_on_commit_callbacks)
    assert b.to_move == "allied"
    assert mail_queue == [] and mail.outbox == []  # alice's and bob's: live, no e-mail


def test_a_failing_mail_server_never_breaks_the_caller(user, other_user, sent, monkeypatch,
                                                       mail_queue, caplog,
                                                       django_capture_on_commit_callbacks):
    def broken(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr("notifications.mailing.send_mail", broken)
    with django_capture_on_commit_callbacks(execute=True):
        b = battle_services.create_battle(user, "quatre-bras", "french", opponent="bob")
    assert Battle.objects.filter(pk=b.pk, status=Status.WAITING).exists()
    [note] = notes(other_user, Kind.INVITATION)
    # The worker tries, retries with a backoff, then gives up and says so.
    assert mail_queue.run() == ["failed"]
    assert "its e-mail failed 6 times, given up" in caplog.text
    note.refresh_from_db()
    assert note.emailed_at is None and note.email_claimed_at is None


# --- Deadlines ------------------------------------------------------------------------------

def test_deadline_near_is_sent_once_per_seq(user, other_user, sent, mail_queue,
                                            django_capture_on_commit_callbacks):
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    now = timezone.now()
    Battle.objects.filter(pk=b.pk).update(time_control={"kind": "live", "base": 300,
                                                        "increment": 5},
                                          deadline=now + timedelta(seconds=90))
    assert deadlines.warn(now) == 0  # 90 s left in a live battle: not yet
    Battle.objects.filter(pk=b.pk).update(deadline=now + timedelta(seconds=40))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.deadline_near() == 1
        assert tasks.deadline_near() == 0
    [note] = notes(other_user, Kind.DEADLINE_NEAR)  # bob is to move
    assert note.key == f"deadline:battle:{b.pk}:0" and "runs out at" in note.text
    assert mail_queue.run() == ["sent", "sent"]
    assert len(mail.outbox) == 2  # bob's "your move" at the start, then this one
    # Correspondence: 12 hours' warning.
    Battle.objects.filter(pk=b.pk).update(time_control={"kind": "correspondence", "days": 3},
                                          deadline=now + timedelta(hours=13), seq=1)
    assert deadlines.warn(now) == 0
    Battle.objects.filter(pk=b.pk).update(deadline=now + timedelta(hours=11))
    assert deadlines.warn(now) == 1 and deadlines.warn(now) == 0
    assert notes(user, Kind.DEADLINE_NEAR) == []


def test_the_beat_runs_deadline_near():
    from celery import current_app

    entry = current_app.conf.beat_schedule["notifications-deadline-near"]
    assert entry["task"] == "notifications.deadline_near"
    assert "notifications.deadline_near" in current_app.tasks


# --- Tournaments ----------------------------------------------------------------------------

def test_round_paired_and_its_deadline(catalogue, no_tournament_tasks,
                                       django_capture_on_commit_callbacks):
    org = organiser()
    t, users = field(org, 3)  # three players: one bye
    with django_capture_on_commit_callbacks(execute=True):
        rnd = tournament_services.start_tournament(t.pk, org)
    paired = Notification.objects.filter(kind=Kind.ROUND_PAIRED)
    assert paired.count() == 2  # the two players of the match; the bye has no message
    bye = next(u for u in users if not paired.filter(user=u).exists())
    match = rnd.matches.get(allied__isnull=False)
    assert {match.french.user, match.allied.user} == set(users) - {bye}
    note = paired.get(user=match.french.user)
    assert note.text.startswith(f"Round 1 of {t.name} is paired: table {match.table} against "
                                f"{match.allied.user.username} (you are listed French).")
    assert note.url == f"/tournaments/{t.pk}/my-match/" and note.tournament_id == t.pk
    # Ten minutes before the round's time: both players of the unsettled match, once.
    now = timezone.now()
    Round.objects.filter(pk=rnd.pk).update(ends_at=now + timedelta(minutes=5))
    assert deadlines.warn(now) == 2 and deadlines.warn(now) == 0
    assert Notification.objects.filter(kind=Kind.DEADLINE_NEAR, user=bye).count() == 0
    assert_no_card_named(n.text for n in Notification.objects.all())


# --- Pages ----------------------------------------------------------------------------------

def test_badge_bell_and_title_on_a_page(user, other_user, sent, client,
                                        django_capture_on_commit_callbacks):
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    client.force_login(other_user)
    html = client.get("/battles/").content.decode()
    assert "<title>(1) Battles · Eagles Online</title>" in html
    assert 'data-testid="your-move-badge">Your move (1)</a>' in html
    assert 'data-testid="bell">Notifications (1)</a>' in html
    assert f'data-testid="your-move-{b.pk}">Your move</strong>' in html
    client.force_login(user)  # alice waits for bob: no badge, no prefix
    html = client.get("/battles/").content.decode()
    assert "<title>Battles · Eagles Online</title>" in html and "your-move-badge" not in html
    assert 'data-testid="bell">Notifications (0)</a>' in html


def test_the_counts_cost_at_most_two_queries(user, other_user, sent, client,
                                             django_assert_max_num_queries,
                                             django_capture_on_commit_callbacks):
    two_people(user, other_user, django_capture_on_commit_callbacks)
    request = RequestFactory().get("/")
    request.user = other_user
    with django_assert_max_num_queries(2):
        counts = notification_counts(request)
        assert counts["your_move_count"]() == 1 and counts["unread_count"]() == 1
        assert counts["your_move_count"]() == 1 and counts["unread_count"]() == 1  # cached
    client.force_login(other_user)
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/").status_code == 200
    # the menu's two: the unread count and the your-move union (the home page's lists of
    # games to watch read the to_move column too: they are not the menu's)
    mine = [q["sql"] for q in ctx.captured_queries
            if "notifications_notification" in q["sql"] or ' AS "area"' in q["sql"]]
    assert len(mine) == 2, mine
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    with django_assert_max_num_queries(0):
        assert notification_counts(request) == {"your_move_count": 0, "unread_count": 0}


def test_the_notifications_page_marks_read_and_saves_settings(user, client):
    a = services.notify(user, Kind.BATTLE_OVER, "Quatre Bras #1 is over: you won.", "/x/")
    b = services.notify(user, Kind.INVITATION, "bob invites you.", "/battles/")
    client.force_login(user)
    html = client.get("/notifications/").content.decode()
    assert f'data-testid="notification-{a.pk}"' in html and "bob invites you." in html
    assert "Notifications (2)" in html
    r = client.post("/notifications/read/", {"id": str(a.pk)})
    assert r.status_code == 302
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.read_at is not None and b.read_at is None
    client.post("/notifications/read/", {"all": "1"})
    b.refresh_from_db()
    assert b.read_at is not None
    assert "Notifications (0)" in client.get("/notifications/").content.decode()
    # The settings form: unticked boxes switch off.
    r = client.post("/notifications/settings/", {"invitation-in_app": "on",
                                                 "your_move-in_app": "on",
                                                 "your_move-email": "on"})
    assert r.status_code == 302
    flags = services.settings_of(user)
    assert flags["invitation"] == {"in_app": True, "email": False}
    assert flags["your_move"] == {"in_app": True, "email": True}
    assert flags["battle_over"] == {"in_app": False, "email": False}
    assert client.get("/notifications/", follow=False).status_code == 200
    client.logout()
    assert client.get("/notifications/").status_code == 302  # to the log-in page


# --- API ------------------------------------------------------------------------------------

def test_the_api(user, other_user, api):
    a = services.notify(user, Kind.BATTLE_OVER, "over", "/b/", battle_id=7)
    b = services.notify(user, Kind.ROUND_PAIRED, "paired", "/t/", tournament_id=3)
    theirs = services.notify(other_user, Kind.BATTLE_OVER, "theirs", "/b/")
    c = client(user)
    body = c.get("/api/notifications/").json()
    assert [n["id"] for n in body["results"]] == [b.pk, a.pk]
    assert body["unread_count"] == 2 and body["your_move_count"] == 0
    assert set(body["results"][0]) == {"id", "kind", "text", "url", "battle_id",
                                       "tournament_id", "campaign_id", "created_at",
                                       "read_at", "read"}
    r = c.post("/api/notifications/read/", {"ids": [a.pk, theirs.pk]}, format="json")
    assert r.json() == {"marked": 1, "unread_count": 1}  # someone else's id changes nothing
    theirs.refresh_from_db()
    assert theirs.read_at is None
    assert [n["id"] for n in c.get("/api/notifications/?unread=1").json()["results"]] == [b.pk]
    assert c.post("/api/notifications/read/", {"all": True}, format="json").json() == {
        "marked": 1, "unread_count": 0}
    for bad, detail in [({}, 'give "ids"'), ({"ids": ["x"]}, "ids must be whole numbers"),
                        ({"all": "yes"}, "all must be true or false"), ([1], "JSON object")]:
        r = c.post("/api/notifications/read/", bad, format="json")
        assert r.status_code == 400 and detail in r.json()["detail"]
        assert r.json().get("code", "bad_input") == "bad_input"
    # Settings.
    got = c.get("/api/notifications/settings/").json()
    assert got == {k: {"in_app": True, "email": True} for k in Kind.values}
    r = c.put("/api/notifications/settings/", {"your_move": {"email": False}}, format="json")
    assert r.status_code == 200 and r.json()["your_move"] == {"in_app": True, "email": False}
    assert NotificationSetting.objects.get(user=user, kind="your_move").email is False
    for bad, detail in [({"moves": {}}, "unknown notification kind 'moves'"),
                        ({"your_move": {"email": "no"}}, "your_move.email must be true or false"),
                        ({"your_move": {"sms": True}}, "unknown switch 'sms'"),
                        ({"your_move": {"email": True}, "x": {}}, "unknown notification kind")]:
        r = c.put("/api/notifications/settings/", bad, format="json")
        assert r.status_code == 400 and detail in r.json()["detail"], r.json()
    assert services.settings_of(user)["your_move"]["email"] is False  # all or nothing
    for url in ("/api/notifications/", "/api/notifications/settings/"):
        assert api.get(url).status_code in (401, 403)
    assert api.post("/api/notifications/read/", {"all": True}, format="json").status_code \
        in (401, 403)


def test_notify_refuses_an_unknown_kind(user):
    with pytest.raises(ValueError):
        services.notify(user, "sms", "x")
    assert User.objects.count() == 1 and Notification.objects.count() == 0


def test_the_words_are_pure():
    """``notifications/words.py`` imports nothing from Django (a fresh interpreter)."""
    import subprocess
    import sys

    code = ("import sys, notifications.words; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) "
            "else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    assert r.returncode == 0, r.stderr
