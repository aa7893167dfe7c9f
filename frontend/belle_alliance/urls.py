from django.urls import path

from . import views

# Included from frontend/urls.py under "belle-alliance/".
urlpatterns = [
    path("", views.game_list, name="belle-alliance"),
    path("<int:pk>/", views.game_page, name="belle-alliance-game"),
    path("<int:pk>/act/", views.act, name="belle-alliance-game-act"),
    path("<int:pk>/join/", views.join, name="belle-alliance-game-join"),
    path("<int:pk>/cancel/", views.cancel, name="belle-alliance-game-cancel"),
    path("<int:pk>/resign/", views.resign, name="belle-alliance-game-resign"),
    path("<int:pk>/claim/", views.claim, name="belle-alliance-game-claim"),
    path("<int:pk>/replay/", views.replay, name="belle-alliance-game-replay"),
    path("<int:pk>/undo/", views.undo, name="belle-alliance-game-undo"),
]
