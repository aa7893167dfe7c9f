"""Campaigns in notifications and the menu (issue 13): "your move" (people only, coalesced,
stale ones read), invitations, campaign over, the per-kind switches they share with battles,
no card ever named; the "Your move (n)" badge, the tab title and the campaigns list count
campaigns too, in one query.

``campaign_changed`` is sent after commit: every change a test wants heard runs inside
``django_capture_on_commit_callbacks(execute=True)``."""

from __future__ import annotations

import random
import re

import pytest
from django.test import RequestFactory

from battles import services as battle_services
from campaigns import selectors, services
from campaigns.models import Campaign, Status
from frontend.context_processors import notification_counts
from notifications import services as notes_services
from notifications.models import Kind, Notification
from notifications.selectors import your_move_counts

from .campaign.helpers import small_pools
from .kinds import campaign_tasks as tasks
from .test_notifications import assert_no_card_named

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small(monkeypatch, settings):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}


def unread_moves(user, c: Campaign) -> list[Notification]:
    return list(Notification.objects.filter(user=user, campaign_id=c.pk, kind=Kind.YOUR_MOVE,
                                            read_at__isnull=True))


def two_people(alice, bob, on_commit, **kw) -> Campaign:
    with on_commit(execute=True):
        c = services.create_campaign(alice, "french", opponent="open",
                                     settings={"turn_cap": 2}, **kw)
    with on_commit(execute=True):
        services.join_campaign(c.pk, bob)
    return Campaign.objects.get(pk=c.pk)


def test_your_move_goes_to_the_person_who_must_act_and_is_coalesced(
        user, other_user, django_capture_on_commit_callbacks):
    c = two_people(user, other_user, django_capture_on_commit_callbacks)
    # The French split first: alice is told as bob joins; bob is not.
    [note] = unread_moves(user, c)
    assert note.url == f"/campaigns/{c.pk}/" and note.battle_id is None
    assert note.text == (f"Your move in Campaign #{c.pk} against bob: split your cards "
                         "between the battles.")
    assert unread_moves(other_user, c) == []
    users = {"french": user, "allied": other_user}
    rng = random.Random(2)
    handovers = 0
    for _ in range(2000):
        c.refresh_from_db()
        if c.status != Status.ACTIVE:
            break
        me = c.to_move
        legal = selectors.campaign_view(c, users[me])["legal_actions"]
        before = {s: len(Notification.objects.filter(user=u, campaign_id=c.pk)) for s, u in
                  users.items()}
        with django_capture_on_commit_callbacks(execute=True):
            services.act(c.pk, users[me], c.seq, rng.choice(legal))
        c.refresh_from_db()
        other = "allied" if me == "french" else "french"
        # One unread "your move" at most per person and campaign; the one to move has it,
        # the other's is out of date (read).
        if c.status == Status.ACTIVE:
            assert len(unread_moves(users[c.to_move], c)) == 1
            assert unread_moves(users[other if c.to_move == me else me], c) == []
            if c.to_move == me:  # still acting (past any auto-pass): nobody is told
                assert len(Notification.objects.filter(user=users[other],
                                                       campaign_id=c.pk)) == before[other]
            else:
                handovers += 1
    else:
        raise AssertionError("the campaign does not end")
    assert c.status == Status.FINISHED and handovers > 5
    # Both are told the campaign is over, once; no "your move" is left unread.
    for side, u in users.items():
        [over] = Notification.objects.filter(user=u, kind=Kind.BATTLE_OVER, campaign_id=c.pk)
        result = "you won" if c.outcome["winner"] == side else "you lost"
        assert over.text == f"Campaign #{c.pk} is over: {result}."
        assert unread_moves(u, c) == []
    moves = Notification.objects.filter(kind=Kind.YOUR_MOVE, campaign_id=c.pk)
    assert {n.text.split(": ")[1] for n in moves} >= {"split your cards between the battles."}
    assert any(": at " in n.text for n in moves)  # a move on a board names its battle
    assert_no_card_named(n.text for n in Notification.objects.all())
    for n in Notification.objects.all():  # no number but the campaign's: no card number
        assert not re.search(r"\d", n.text.replace(f"#{c.pk}", "")), n.text


def test_invitation_switches_and_resignation(user, other_user,
                                             django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        c = services.create_campaign(user, "french", opponent="bob")
    [inv] = Notification.objects.filter(user=other_user, kind=Kind.INVITATION)
    assert inv.campaign_id == c.pk and inv.url == "/campaigns/"
    assert inv.text == (f"alice invites you to Campaign #{c.pk}, the Campaign Game: you would "
                        "play the Allied side.")
    # The battle kinds' switches cover campaigns: invitations off, none is sent.
    notes_services.update_settings(other_user, {"invitation": {"in_app": False,
                                                               "email": False}})
    with django_capture_on_commit_callbacks(execute=True):
        d = services.create_campaign(user, "allied", opponent="bob")
    assert not Notification.objects.filter(user=other_user, campaign_id=d.pk).exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.join_campaign(c.pk, other_user)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(c.pk, other_user)
    c.refresh_from_db()
    texts = {n.user.username: n.text for n in Notification.objects.filter(
        kind=Kind.BATTLE_OVER, campaign_id=c.pk)}
    assert texts == {"alice": f"Campaign #{c.pk} is over: you won by resignation.",
                     "bob": f"Campaign #{c.pk} is over: you lost by resignation."}
    assert unread_moves(user, c) == []  # her "split your cards" is out of date


def test_against_the_computer_the_badge_only_then_the_end(user,
                                                          django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        c = services.create_campaign(user, "french", bot="greedy")
    assert c.to_move == "french"
    assert not Notification.objects.filter(kind=Kind.YOUR_MOVE).exists()
    counts = your_move_counts(user)
    assert counts["campaign"] == 1 and sum(counts.values()) == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(c.pk, user)
    [over] = Notification.objects.filter(user=user, campaign_id=c.pk)
    assert over.kind == Kind.BATTLE_OVER and "you lost by resignation" in over.text
    assert sum(your_move_counts(user).values()) == 0


def test_badge_title_and_list_count_campaigns_in_one_query(
        user, other_user, client, django_assert_num_queries,
        django_capture_on_commit_callbacks):
    c = two_people(user, other_user, django_capture_on_commit_callbacks)
    client.force_login(user)  # the French split first: alice's move
    html = client.get("/decks/").content.decode()
    assert "<title>(1) " in html
    assert '<a href="/campaigns/" class="badge badge-move" data-testid="your-move-badge">' \
           "Your move (1)</a>" in html
    listing = client.get("/campaigns/").content.decode()
    assert f'data-testid="your-move-{c.pk}">Your move</strong>' in listing
    client.force_login(other_user)  # bob waits: no badge, no prefix, no mark
    html = client.get("/campaigns/").content.decode()
    assert "your-move-badge" not in html and "<title>Campaigns" in html
    assert f'data-testid="your-move-{c.pk}"' not in html
    # A battle where it is bob's move too: the badge counts both, in one query, and leads
    # to the battles list.
    with django_capture_on_commit_callbacks(execute=True):
        b = battle_services.create_battle(user, "quatre-bras", "french", opponent="open")
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.join_battle(b.pk, other_user)  # 4.1: the Allies first
    with django_capture_on_commit_callbacks(execute=True):
        services.act(c.pk, user, 0, selectors.campaign_view(c, user)["legal_actions"][0])
    c.refresh_from_db()
    assert c.to_move == "allied"
    request = RequestFactory().get("/")
    request.user = other_user
    with django_assert_num_queries(1):
        counts = notification_counts(request)
        assert counts["your_move_count"]() == 2 and counts["your_move_url"]() == "/battles/"
        assert counts["your_move_count"]() == 2  # asked again: no second query
    html = client.get("/campaigns/").content.decode()
    assert 'href="/battles/" class="badge badge-move" data-testid="your-move-badge">' \
           "Your move (2)</a>" in html and "<title>(2) Campaigns" in html


@pytest.mark.parametrize("kind", ["live", "correspondence"])
def test_deadline_near_for_a_campaign_once_per_seq(user, other_user, monkeypatch, kind,
                                                   mail_queue,
                                                   django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.core import mail
    from django.utils import timezone

    from notifications import deadlines

    for u in (user, other_user):
        u.email = f"{u.username}@example.com"
        u.save()
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: None)
    tc = ({"kind": "live", "base": 600, "increment": 5} if kind == "live"
          else {"kind": "correspondence", "days": 2})
    c = two_people(user, other_user, django_capture_on_commit_callbacks, time_control=tc)
    mover = user if c.to_move == "french" else other_user
    # "Your move" by e-mail only in correspondence: in a live campaign the player is at the page.
    mail_queue.run()
    emailed = [m for m in mail.outbox if m.to == [mover.email] and "Your move" in m.subject]
    assert bool(emailed) == (kind == "correspondence")
    now = timezone.now()
    near, far = (40, 90) if kind == "live" else (11 * 3600, 13 * 3600)
    Campaign.objects.filter(pk=c.pk).update(deadline=now + timedelta(seconds=far))
    assert deadlines.warn_campaigns(now) == 0  # not yet
    Campaign.objects.filter(pk=c.pk).update(deadline=now + timedelta(seconds=near))
    assert deadlines.warn(now) == 1 and deadlines.warn(now) == 0  # once per seq
    note = Notification.objects.get(user=mover, kind=Kind.DEADLINE_NEAR)
    assert note.key == f"deadline:campaign:{c.pk}:{c.seq}" and note.campaign_id == c.pk
    assert "runs out at" in note.text and note.url == f"/campaigns/{c.pk}/"
    assert_no_card_named([note.text])
