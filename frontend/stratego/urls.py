from django.urls import path

from . import views

# Included from frontend/urls.py under "stratego/".
urlpatterns = [
    path("", views.game_list, name="stratego"),
    path("<int:pk>/", views.game_page, name="stratego-game"),
    path("<int:pk>/act/", views.act, name="stratego-game-act"),
    path("<int:pk>/join/", views.join, name="stratego-game-join"),
    path("<int:pk>/cancel/", views.cancel, name="stratego-game-cancel"),
    path("<int:pk>/resign/", views.resign, name="stratego-game-resign"),
    path("<int:pk>/claim/", views.claim, name="stratego-game-claim"),
    path("<int:pk>/replay/", views.replay, name="stratego-game-replay"),
    path("<int:pk>/undo/", views.undo, name="stratego-game-undo"),
    path("<int:pk>/last-setup/", views.last_setup, name="stratego-game-last-setup"),
]
