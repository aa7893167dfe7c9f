from django.urls import path

from . import api

urlpatterns = [
    path("campaigns/", api.CampaignList.as_view(), name="campaign-list"),
    path("campaigns/open/", api.OpenCampaigns.as_view(), name="campaign-open-list"),
    path("campaigns/<int:pk>/", api.CampaignDetail.as_view(), name="campaign-detail"),
    path("campaigns/<int:pk>/act/", api.CampaignAct.as_view(), name="campaign-act"),
    path("campaigns/<int:pk>/join/", api.CampaignJoin.as_view(), name="campaign-join"),
    path("campaigns/<int:pk>/cancel/", api.CampaignCancel.as_view(), name="campaign-cancel"),
    path("campaigns/<int:pk>/resign/", api.CampaignResign.as_view(), name="campaign-resign"),
    path("campaigns/<int:pk>/undo/", api.CampaignUndo.as_view(), name="campaign-undo"),
]
