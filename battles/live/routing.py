from django.urls import path

from .consumers import BattleConsumer

websocket_urlpatterns = [
    path("ws/battles/<battle_id>/", BattleConsumer.as_asgi()),
]
