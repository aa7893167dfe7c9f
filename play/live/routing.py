"""The live channel's URLs (``config.asgi``): ``ws/games/<kind>/<id>/`` for every kind of
match, and the URLs the pages and clients used before ONE live channel, kept as aliases of
the same consumer."""

from django.urls import path

from .consumers import GameConsumer

game = GameConsumer.as_asgi()

websocket_urlpatterns = [
    path("ws/games/<str:kind>/<match_id>/", game),
    path("ws/battles/<match_id>/", game, {"kind": "battle"}),
    path("ws/campaigns/<match_id>/", game, {"kind": "campaign"}),
]
