import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_api_signup_login_me_logout(api):
    r = api.post("/api/auth/signup/", {"username": "ney", "password": "Bravest-0f-brave"},
                 format="json")
    assert r.status_code == 201, r.content
    assert r.json()["user"]["username"] == "ney" and r.json()["token"]
    assert api.get("/api/auth/me/").json()["username"] == "ney"
    assert api.post("/api/auth/logout/").status_code == 204
    assert api.get("/api/auth/me/").status_code == 403
    r = api.post("/api/auth/login/", {"username": "ney", "password": "Bravest-0f-brave"},
                 format="json")
    assert r.status_code == 200
    assert api.get("/api/auth/me/").json()["username"] == "ney"


def test_api_signup_rejects_weak_password_and_taken_name(api, user):
    r = api.post("/api/auth/signup/", {"username": "ALICE", "password": "Bravest-0f-brave"},
                 format="json")
    assert r.status_code == 400
    assert "taken" in str(r.json()["errors"]["username"])
    r = api.post("/api/auth/signup/", {"username": "soult", "password": "123"}, format="json")
    assert r.status_code == 400 and "password" in r.json()["errors"]
    assert not User.objects.filter(username="soult").exists()


def test_api_login_wrong_password_is_400(api, user):
    r = api.post("/api/auth/login/", {"username": "alice", "password": "nope"}, format="json")
    assert r.status_code == 400 and r.json()["detail"] == "Wrong username or password."


def test_token_authentication(api):
    token = api.post("/api/auth/signup/", {"username": "gneisenau", "password": "Chief-0f-staff"},
                     format="json").json()["token"]
    client = type(api)()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/auth/me/").json()["username"] == "gneisenau"


def test_signup_login_logout_pages(client):
    form = {"username": "blucher", "email": "",
            "password1": "Vorwaerts-1815", "password2": "Vorwaerts-1815"}
    r = client.post("/accounts/signup/", form)
    assert r.status_code == 302
    page = client.get("/").content.decode()
    assert "blucher" in page and "Log out" in page
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()
    assert client.post("/accounts/login/", {"username": "blucher",
                                            "password": "Vorwaerts-1815"}).status_code == 302


def test_schema_and_docs_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200


def test_admin_is_for_staff(client, user):
    client.force_login(user)
    assert client.get("/admin/").status_code == 302
    user.is_staff = True
    user.save()
    assert client.get("/admin/").status_code == 200
