from django.urls import path

from . import api

# /api/games/: the games, then every kind's matches under /api/games/<kind>/ (play/api.py).
urlpatterns = [
    path("games/", api.GameKinds.as_view(), name="game-kinds"),
    *api.urls(None, "games/<str:kind>", "game"),
]
