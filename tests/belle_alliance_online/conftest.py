"""Fixtures of the La Belle Alliance online tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_worker(monkeypatch):
    """The computer's moves are not sent to the worker (a test plays them or not at all)."""
    from play import enqueue
    monkeypatch.setattr(enqueue, "send_bot_move", lambda *args: None)
