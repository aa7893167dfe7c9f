from django.urls import path

from . import organiser_views as organiser
from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/new/", organiser.create, name="tournament-create"),
    path("tournaments/<int:pk>/", views.detail, name="tournament"),
    path("tournaments/<int:pk>/register/", views.register, name="tournament-register"),
    path("tournaments/<int:pk>/check-in/", views.check_in, name="tournament-check-in"),
    path("tournaments/<int:pk>/withdraw/", views.withdraw, name="tournament-withdraw"),
    path("tournaments/<int:pk>/my-match/", views.my_match, name="tournament-my-match"),
    path("tournaments/<int:pk>/pairings/", views.pairings, name="tournament-pairings"),
    path("tournaments/<int:pk>/pairings/<int:number>/", views.pairings,
         name="tournament-round"),
    path("tournaments/<int:pk>/standings/", views.standings, name="tournament-standings"),
    path("tournaments/<int:pk>/standings/how/", views.how_computed, name="tournament-how"),
    path("tournaments/<int:pk>/players/<int:entry_id>/decks/", views.deck_lists,
         name="tournament-decks"),
    path("tournaments/<int:pk>/export/<str:name>", views.export, name="tournament-export"),
    path("tournaments/<int:pk>/manage/", organiser.manage, name="tournament-manage"),
    path("tournaments/<int:pk>/manage/<slug:name>/", organiser.action,
         name="tournament-action"),
    path("tournaments/<int:pk>/matches/<int:match_id>/", organiser.match_page,
         name="tournament-match"),
    path("tournaments/<int:pk>/matches/<int:match_id>/settle/", organiser.settle_or_correct,
         {"how": "settle"}, name="tournament-settle"),
    path("tournaments/<int:pk>/matches/<int:match_id>/correct/", organiser.settle_or_correct,
         {"how": "correct"}, name="tournament-correct"),
]
