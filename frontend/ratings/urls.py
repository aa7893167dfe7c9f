from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/", views.player, name="player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("lobby/", views.lobby_page, name="lobby"),
    path("lobby/play-now/", views.play_now, name="lobby-play-now"),
    path("lobby/computer/", views.computer, name="lobby-computer"),
]
