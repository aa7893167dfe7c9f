from django.urls import path

from .consumers import CampaignConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<campaign_id>/", CampaignConsumer.as_asgi()),
]
