"""Issue 11, abuse: log-in and sign-up limits per address and per account name (pages and API,
429 with Retry-After), the API's log-in and sign-up take JSON only (login CSRF), and per-user
limits on expensive endpoints."""

import json
import time

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
RIGHT = "s3cret-pass-1815"


@pytest.fixture
def short_window(settings):
    """Three wrong passwords per 3-second window: the test can wait the window out. The window
    is aligned to the clock; start at a window's beginning so it does not end mid-test."""
    settings.EAGLES_LOGIN_FAILURES = 3
    settings.EAGLES_SIGNUPS_PER_WINDOW = 3
    settings.EAGLES_THROTTLE_WINDOW = 3
    time.sleep(3 - time.time() % 3 + 0.05)
    return 3


def api_login(client, username, password, **extra):
    return client.post("/api/auth/login/", {"username": username, "password": password},
                       format="json", **extra)


def test_api_wrong_passwords_then_the_right_one_is_429_until_the_window_passes(
        user, short_window):
    api = APIClient()
    for _ in range(3):
        assert api_login(api, "alice", "wrong").status_code == 400
    r = api_login(api, "alice", RIGHT)
    assert r.status_code == 429, r.content
    wait = int(r["Retry-After"])
    assert 1 <= wait <= short_window
    assert r.json()["detail"] == f"Too many attempts. Try again in {wait} seconds."
    assert "_auth_user_id" not in api.session  # not logged in
    time.sleep(wait + 0.1)
    assert api_login(api, "alice", RIGHT).status_code == 200


def test_account_limit_holds_across_addresses_and_names_ignore_case(user, short_window):
    for n in range(3):
        api_login(APIClient(), "Alice", "wrong", REMOTE_ADDR=f"10.0.0.{n}")
    r = api_login(APIClient(), "alice", RIGHT, REMOTE_ADDR="10.9.9.9")
    assert r.status_code == 429  # a new address does not reset the account's count


def test_address_limit_holds_across_account_names(user, other_user, short_window):
    for name in ("carol", "dave", "erin"):
        api_login(APIClient(), name, "wrong", REMOTE_ADDR="10.1.1.1")
    assert api_login(APIClient(), "bob", RIGHT, REMOTE_ADDR="10.1.1.1").status_code == 429
    assert api_login(APIClient(), "bob", RIGHT, REMOTE_ADDR="10.1.1.2").status_code == 200


def test_page_login_is_limited_with_a_message_on_the_form(client, user, short_window):
    for _ in range(3):
        r = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        assert r.status_code == 200
    r = client.post("/accounts/login/", {"username": "alice", "password": RIGHT})
    assert r.status_code == 429 and 1 <= int(r["Retry-After"]) <= short_window
    assert b'data-testid="throttled"' in r.content and b"Too many attempts" in r.content
    assert "_auth_user_id" not in client.session
    # the page and the API share the counters
    assert api_login(APIClient(), "alice", RIGHT).status_code == 429


def test_signup_is_limited_per_address_page_and_api(client, short_window):
    for n in range(3):
        r = APIClient().post("/api/auth/signup/", {"username": f"new{n}", "password": "x"},
                             format="json")
        assert r.status_code == 400
    r = APIClient().post("/api/auth/signup/", {"username": "ney", "password": "Bravest-0f-brave"},
                         format="json")
    assert r.status_code == 429 and r["Retry-After"]
    r = client.post("/accounts/signup/", {"username": "ney", "email": "",
                                          "password1": "Bravest-0f-brave",
                                          "password2": "Bravest-0f-brave"})
    assert r.status_code == 429 and b"Too many attempts" in r.content
    assert not User.objects.filter(username="ney").exists()


def test_signup_is_limited_per_account_name(short_window):
    for n in range(3):
        APIClient().post("/api/auth/signup/", {"username": "ney", "password": "x"},
                         format="json", REMOTE_ADDR=f"10.2.0.{n}")
    r = APIClient().post("/api/auth/signup/", {"username": "ney", "password": "Bravest-0f-brave"},
                         format="json", REMOTE_ADDR="10.2.0.9")
    assert r.status_code == 429


@pytest.mark.parametrize("path", ["/api/auth/login/", "/api/auth/signup/"])
def test_api_auth_takes_json_only_so_no_cross_site_form_posts(user, path):
    """Login CSRF: a form on another site can post urlencoded, multipart or text/plain, never
    application/json without a CORS preflight."""
    api = APIClient(enforce_csrf_checks=True)
    form = {"username": "alice", "password": RIGHT}
    for fmt in ("multipart", None):
        r = api.post(path, form, format=fmt) if fmt else api.post(
            path, "username=alice&password=" + RIGHT,
            content_type="application/x-www-form-urlencoded")
        assert r.status_code == 415, (fmt, r.content)
    r = api.post(path, json.dumps(form),
                 content_type="text/plain")
    assert r.status_code == 415
    assert "_auth_user_id" not in api.session


def test_expensive_endpoints_are_limited_per_user(settings, user, other_user, catalogue):
    settings.EAGLES_EXPENSIVE_PER_MINUTE = 2
    alice_api = APIClient()
    alice_api.force_login(user)
    body = {"csv": "Count,Trade Count,Number,Name,Printing\n1,0,1,,Gold\n", "mode": "add"}
    for _ in range(2):
        assert alice_api.post("/api/collection/import/", body, format="json").status_code == 200
    r = alice_api.post("/api/collection/import/", body, format="json")
    assert r.status_code == 429 and 1 <= int(r["Retry-After"]) <= 60
    assert "a minute" in r.json()["detail"]
    bob = APIClient()
    bob.force_login(other_user)  # another user has their own count
    assert bob.post("/api/collection/import/", body, format="json").status_code == 200
    assert alice_api.get("/api/collection/export/").status_code == 200  # reads are not counted


def test_expensive_endpoints_count_api_tokens_separately(settings, catalogue):
    settings.EAGLES_EXPENSIVE_PER_MINUTE = 1
    tokens = [APIClient().post("/api/auth/signup/", {"username": name,
                                                     "password": "Bravest-0f-brave"},
                               format="json").json()["token"] for name in ("ney", "soult")]
    body = {"csv": "Count,Trade Count,Number,Name,Printing\n1,0,1,,Gold\n", "mode": "add"}
    ney, soult = APIClient(), APIClient()
    ney.credentials(HTTP_AUTHORIZATION=f"Token {tokens[0]}")
    soult.credentials(HTTP_AUTHORIZATION=f"Token {tokens[1]}")
    assert ney.post("/api/collection/import/", body, format="json").status_code == 200
    assert ney.post("/api/collection/import/", body, format="json").status_code == 429
    assert soult.post("/api/collection/import/", body, format="json").status_code == 200


def test_expensive_page_is_limited_with_a_page(settings, client, user, catalogue):
    settings.EAGLES_EXPENSIVE_PER_MINUTE = 1
    client.force_login(user)
    client.post("/decks/import/", {"name": "x", "text": "1 #1"})
    r = client.post("/decks/import/", {"name": "x", "text": "1 #1"})
    assert r.status_code == 429 and b'data-testid="throttled"' in r.content
