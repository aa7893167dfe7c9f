"""Registers La Belle Alliance with the games API (its URLs are ``play.api_urls``'s:
``/api/games/belle_alliance/...``); included before ``play.api_urls`` in ``config/urls.py``."""

from . import api  # noqa: F401 (registers the kind's API)

urlpatterns: list = []
