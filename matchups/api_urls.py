from django.urls import path

from . import api

urlpatterns = [
    path("matchups/", api.MatchupCreateView.as_view(), name="api-matchup-lab"),
    path("matchups/<int:pk>/", api.MatchupDetailView.as_view(), name="api-matchup"),
]
