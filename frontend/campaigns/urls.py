from django.urls import path

from . import edit_views, views

# Included from frontend/urls.py under "campaigns/".
urlpatterns = [
    path("", views.campaign_list, name="campaigns"),
    path("<int:pk>/", views.campaign_page, name="campaign"),
    path("<int:pk>/act/", views.act, name="campaign-act"),
    path("<int:pk>/join/", views.join, name="campaign-join"),
    path("<int:pk>/cancel/", views.cancel, name="campaign-cancel"),
    path("<int:pk>/resign/", views.resign, name="campaign-resign"),
    path("<int:pk>/claim/", views.claim, name="campaign-claim"),
    path("<int:pk>/replay/", views.replay, name="campaign-replay"),
    path("<int:pk>/undo/", views.undo, name="campaign-undo"),
    path("<int:pk>/split/", edit_views.split, name="campaign-split"),
    path("<int:pk>/pass-rest/", views.pass_rest, name="campaign-pass-rest"),
    path("<int:pk>/pass-kind/", views.pass_kind, name="campaign-pass-kind"),
    path("<int:pk>/passing/", views.passing, name="campaign-passing"),
    path("<int:pk>/deploy/", views.deploy, name="campaign-deploy"),
    path("<int:pk>/end-for-me/", views.end_for_me, name="campaign-end-for-me"),
    path("<int:pk>/fire-order/", views.fire_order, name="campaign-fire-order"),
]
