from django.urls import path

from . import api

urlpatterns = [
    path("players/<str:username>/", api.Player.as_view(), name="player-detail"),
    path("leaderboard/", api.Leaderboard.as_view(), name="leaderboard-list"),
    path("lobby/", api.Lobby.as_view(), name="lobby-list"),
    path("lobby/play-now/", api.PlayNow.as_view(), name="api-lobby-play-now"),
]
