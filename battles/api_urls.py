from django.urls import path

from play import api as games

from . import api

# The views every kind of match shares (play.api), bound to battles: /api/battles/<id>/act/ is
# /api/games/battle/<id>/act/. Then the battle's own.
urlpatterns = [
    *games.urls(api.GAME, "battles", "battle"),
    path("battles/<int:pk>/watch/", api.Watch.as_view(), name="battle-watch"),
]
