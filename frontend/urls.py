from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("frontend.catalogue_urls")),
    path("", include("frontend.collection_urls")),
    path("", include("frontend.deck_urls")),
    path("", include("frontend.tournament_urls")),
    path("battles/", include("frontend.battle_urls")),
]
