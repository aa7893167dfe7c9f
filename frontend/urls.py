from django.urls import include, path

from . import views, whats_on

urlpatterns = [
    path("", views.home, name="home"),
    path("watch/", whats_on.watch_list, name="watch"),
    path("", include("frontend.catalogue.urls")),
    path("", include("frontend.collection.urls")),
    path("", include("frontend.decks.urls")),
    path("", include("frontend.tournaments.urls")),
    path("", include("frontend.ratings.urls")),
    path("", include("frontend.matchups.urls")),
    path("battles/", include("frontend.battle.urls")),
    path("campaigns/", include("frontend.campaigns.urls")),
    path("stratego/", include("frontend.stratego.urls")),
    path("belle-alliance/", include("frontend.belle_alliance.urls")),
    path("notifications/", include("frontend.notifications.urls")),
    path("learn/", include("frontend.learn.urls")),
]
