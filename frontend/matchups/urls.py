from django.urls import path

from . import views

urlpatterns = [
    path("matchups/", views.lab, name="matchup-lab"),
    path("matchups/<int:matchup_id>/", views.page, name="matchup"),
    path("matchups/<int:matchup_id>/live/", views.live, name="matchup-live"),
]
