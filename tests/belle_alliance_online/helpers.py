"""Helpers of the La Belle Alliance online tests."""

from __future__ import annotations

import random

from django.test import Client
from rest_framework.test import APIClient

BASE = "/api/games/belle_alliance/"


def client_for(user) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def play(client, pk: int, rng: random.Random) -> dict:
    """One of the side's legal actions at random, through the API; the answer's body."""
    v = client.get(f"{BASE}{pk}/").json()
    r = client.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": rng.choice(
        v["legal_actions"])}, format="json")
    assert r.status_code == 200, r.json()
    return r.json()


def login(user) -> Client:
    """A browser-like client logged in as ``user`` (the pages)."""
    c = Client()
    c.force_login(user)
    return c
