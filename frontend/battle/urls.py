from django.urls import path

from . import quickstart, replay_views, views, watch_views

# Included from frontend/urls.py under "battles/".
urlpatterns = [
    path("", views.battle_list, name="battles"),
    path("<int:pk>/", views.battle_page, name="battle"),
    path("<int:pk>/watch/", watch_views.watch_page, name="battle-watch"),
    path("<int:pk>/act/", views.act, name="battle-act"),
    path("<int:pk>/undo/", views.undo, name="battle-undo"),
    path("<int:pk>/pass-rest/", views.pass_rest, name="battle-pass-rest"),
    path("<int:pk>/pass-kind/", views.pass_kind, name="battle-pass-kind"),
    path("<int:pk>/passing/", views.passing, name="battle-passing"),
    path("<int:pk>/deploy/", views.deploy, name="battle-deploy"),
    path("<int:pk>/end-for-me/", views.end_for_me, name="battle-end-for-me"),
    path("<int:pk>/fire-order/", views.fire_order, name="battle-fire-order"),
    path("<int:pk>/replay/", replay_views.replay, name="battle-replay"),
    path("<int:pk>/join/", views.join, name="battle-join"),
    path("<int:pk>/cancel/", views.cancel, name="battle-cancel"),
    path("<int:pk>/resign/", views.resign, name="battle-resign"),
    path("<int:pk>/claim/", views.claim, name="battle-claim"),
    path("play-now/", quickstart.play_now, name="battle-play-now"),
    path("preferences/", quickstart.preferences, name="battle-preferences"),
]
