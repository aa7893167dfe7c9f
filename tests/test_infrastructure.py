"""The same code runs embedded (SQLite, in-memory layer) or distributed (PostgreSQL, Redis)."""

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection

# Each test here checks the backend CI gives it: CI's backend stage runs them all.
pytestmark = pytest.mark.backend


def test_database_follows_database_url(db):
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    assert connection.vendor == expected


def test_cache_round_trip_on_configured_backend():
    expected = "RedisCache" if os.environ.get("REDIS_URL") else "LocMemCache"
    assert settings.CACHES["default"]["BACKEND"].endswith(expected)
    cache.set("eagles:test", {"guard": "recule"}, 30)
    assert cache.get("eagles:test") == {"guard": "recule"}
    cache.delete("eagles:test")


def test_channel_layer_round_trip():
    layer = get_channel_layer()
    # With Redis: pub/sub by default, the list-based layer (with a waiting pool) if asked.
    if not os.environ.get("REDIS_URL"):
        expected = "InMemoryChannelLayer"
    elif os.environ.get("EAGLES_LIVE_LAYER") == "lists":
        expected = "WaitingRedisChannelLayer"
    else:
        expected = "DegradingPubSubChannelLayer"  # the pub/sub layer, surviving a lost Redis
    assert type(layer).__name__ == expected

    async def round_trip() -> dict:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "battle.event", "seq": 7})
        return await layer.receive(channel)

    # In a thread of its own: the browser tests' Playwright loop may own this thread's loop.
    with ThreadPoolExecutor(1) as pool:
        received = pool.submit(asyncio.run, round_trip()).result(timeout=10)
    assert received == {"type": "battle.event", "seq": 7}


def test_celery_broker_follows_redis_url():
    from config.celery import app

    if os.environ.get("REDIS_URL"):
        assert app.conf.broker_url.startswith("redis://")
    else:
        assert app.conf.broker_url == "filesystem://"


@pytest.mark.django_db  # the home page lists the public games under way
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/"])
def test_base_layout_pages_render(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="viewport"' in html and "Eagles Online" in html and "Log in" in html


@pytest.mark.django_db
def test_api_index_answers_anyone_without_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        r = client.get("/api/", HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    assert r.json() == {"schema": "/api/schema/", "docs": "/api/docs/"}


@pytest.mark.django_db(transaction=True)
def test_the_tests_flush_empties_every_table(catalogue, user):
    """tests/conftest.py flushes PostgreSQL with DELETE FROM each table, in one transaction:
    that needs every foreign key deferred to the commit, and must leave every table empty."""
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT conrelid::regclass::text, conname FROM pg_constraint "
                           "WHERE contype = 'f' AND NOT (condeferrable AND condeferred)")
            assert cursor.fetchall() == []
    call_command("flush", verbosity=0, interactive=False)
    tables = connection.introspection.django_table_names(only_existing=True)
    with connection.cursor() as cursor:
        for table in tables:
            if table in {"django_content_type", "auth_permission"}:
                continue  # recreated by the flush's post_migrate, as Django's own flush does
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            assert cursor.fetchone()[0] == 0, table
