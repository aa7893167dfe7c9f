from django.urls import path

from . import views, watch_views

# Included from frontend/urls.py under "battles/".
urlpatterns = [
    path("", views.battle_list, name="battles"),
    path("<int:pk>/", views.battle_page, name="battle"),
    path("<int:pk>/watch/", watch_views.watch_page, name="battle-watch"),
    path("<int:pk>/act/", views.act, name="battle-act"),
    path("<int:pk>/join/", views.join, name="battle-join"),
    path("<int:pk>/cancel/", views.cancel, name="battle-cancel"),
]
