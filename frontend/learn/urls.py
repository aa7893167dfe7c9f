from django.urls import path

from . import views

# Included from frontend/urls.py under "learn/".
urlpatterns = [
    path("", views.how_to_play, name="learn"),
    path("tutorial/", views.tutorial_view, name="tutorial"),
    path("tutorial/leave/", views.leave, name="tutorial-leave"),
]
