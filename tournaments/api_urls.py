from django.urls import path

from . import api

A = api.OrganiserAction
M = api.MatchAction

urlpatterns = [
    path("tournaments/", api.TournamentList.as_view(), name="tournament-list"),
    path("tournaments/<int:pk>/", api.TournamentDetail.as_view(), name="tournament-detail"),
    path("tournaments/<int:pk>/register/", api.Register.as_view(), name="tournament-register"),
    path("tournaments/<int:pk>/withdraw/", api.Withdraw.as_view(), name="tournament-withdraw"),
    path("tournaments/<int:pk>/check-in/", api.CheckIn.as_view(), name="tournament-check-in"),
    path("tournaments/<int:pk>/drop/", api.Drop.as_view(), name="tournament-drop"),
    *[path(f"tournaments/<int:pk>/{action}/", A.as_view(action=action),
           name=f"tournament-{action}")
      for action in ("start", "pause", "resume", "pair-next", "cancel", "publish-lists")],
    path("tournaments/<int:pk>/players/", api.Players.as_view(), name="tournament-players"),
    path("tournaments/<int:pk>/players/<int:entry>/decks/", api.DeckLists.as_view(),
         name="tournament-decks"),
    path("tournaments/<int:pk>/rounds/", api.Rounds.as_view(), name="tournament-rounds"),
    path("tournaments/<int:pk>/rounds/<int:number>/", api.RoundDetail.as_view(),
         name="tournament-round"),
    path("tournaments/<int:pk>/my-match/", api.MyMatch.as_view(), name="tournament-my-match"),
    path("tournaments/<int:pk>/disputes/", api.Disputes.as_view(), name="tournament-disputes"),
    path("tournaments/<int:pk>/standings/", api.Standings.as_view(),
         name="tournament-standings"),
    path("tournaments/<int:pk>/webhooks/", api.Webhooks.as_view(), name="tournament-webhooks"),
    path("tournaments/<int:pk>/export/standings.csv", api.Export.as_view(kind="standings"),
         name="tournament-export-standings"),
    path("tournaments/<int:pk>/export/pairings.csv", api.Export.as_view(kind="pairings"),
         name="tournament-export-pairings"),
    path("tournaments/<int:pk>/export/tournament.trf", api.Export.as_view(kind="trf"),
         name="tournament-export-trf"),
    path("matches/<int:pk>/", api.MatchDetail.as_view(), name="match-detail"),
    *[path(f"matches/<int:pk>/{action}/", M.as_view(action=action), name=f"match-{action}")
      for action in ("report", "settle", "correct")],
    path("matches/<int:pk>/log/", api.MatchLog.as_view(), name="match-log"),
]
