"""The live poller writes its sockets' presence in one statement a round (issue 31: a locking
read and a write per player were ~19 % of a web process's CPU with 200 sockets on it), with
the rule of ``play.presence.touch`` unchanged: a waiting or active match, a side's visit at
most every ``TOUCH_EVERY`` s, and each side's key merged in without touching the other's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles import services
from battles.models import Battle
from play import presence
from play.live import messages


@pytest.fixture
def people(catalogue, user, other_user):
    return user, other_user


def start(people) -> Battle:
    alice, bob = people
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    return Battle.objects.get(pk=b.pk)


def seen(b: Battle) -> dict:
    return Battle.objects.values_list("seen", flat=True).get(pk=b.pk)


@pytest.mark.django_db
def test_a_polls_presence_writes_are_one_statement_and_keep_the_touch_rule(people):
    now = timezone.now()
    old = (now - timedelta(seconds=60)).isoformat()
    fresh = (now - timedelta(seconds=5)).isoformat()
    both, one, recent, over = (start(people) for _ in range(4))
    Battle.objects.filter(pk=one.pk).update(seen={"allied": old})  # not visited this round
    Battle.objects.filter(pk=recent.pk).update(seen={"french": fresh})
    Battle.objects.filter(pk=over.pk).update(status="finished")
    ids = [both.pk, one.pk, recent.pk, over.pk]
    rows = messages.current("battle", ids)  # the poll's one read
    due = [(both.pk, "french", rows[both.pk]), (both.pk, "allied", rows[both.pk]),
           (one.pk, "french", rows[one.pk]), (recent.pk, "french", rows[recent.pk]),
           (over.pk, "french", rows[over.pk])]
    with CaptureQueriesContext(connection) as queries:
        written = messages.present_many("battle", due)
    sql = [q["sql"] for q in queries.captured_queries]
    assert written == 2  # both sides of one battle and one side of another
    assert not any(s.lstrip().upper().startswith("SELECT") for s in sql)  # no locking read
    # PostgreSQL: one statement for the round; SQLite (in-process): one per battle written
    assert len(sql) == (1 if connection.vendor == "postgresql" else 2)
    assert set(seen(both)) == {"french", "allied"}
    assert seen(one)["allied"] == old and "french" in seen(one)  # the other side's key kept
    assert seen(recent) == {"french": fresh}  # visited 5 s ago: not due
    assert "french" not in (seen(over) or {})  # over: nobody's presence matters


@pytest.mark.django_db
def test_a_batched_visit_counts_as_presence_like_a_single_touch(people):
    b = start(people)
    now = timezone.now()
    assert presence.touch_many([(b, "french")], now) == 1
    b.refresh_from_db()
    assert presence.last_seen(b, "french") == now
    # within TOUCH_EVERY of that visit neither path writes again; after it, both do
    assert presence.touch_many([(b, "french")], now + timedelta(seconds=5)) == 0
    assert presence.touch(b, "french", now + timedelta(seconds=5)) is False
    later = now + timedelta(seconds=presence.TOUCH_EVERY + 1)
    assert presence.touch_many([(b, "french"), (b, None)], later) == 1
    b.refresh_from_db()
    assert presence.last_seen(b, "french") == later
