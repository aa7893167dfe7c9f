import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db) -> User:
    return User.objects.create_user("alice", "alice@example.com", "s3cret-pass-1815")


@pytest.fixture
def other_user(db) -> User:
    return User.objects.create_user("bob", "bob@example.com", "s3cret-pass-1815")


@pytest.fixture
def alice_api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client
