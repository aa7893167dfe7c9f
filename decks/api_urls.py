from django.urls import path

from . import api

urlpatterns = [
    path("decks/", api.DeckListView.as_view(), name="api-decks"),
    path("decks/validate/", api.ValidateView.as_view(), name="api-deck-validate"),
    path("decks/usage/", api.UsageView.as_view(), name="api-deck-usage"),
    path("decks/<int:pk>/", api.DeckDetailView.as_view(), name="api-deck"),
    path("decks/<int:pk>/versions/", api.VersionListView.as_view(), name="api-deck-versions"),
    path("decks/<int:pk>/versions/<int:number>/", api.VersionDetailView.as_view(),
         name="api-deck-version"),
    path("decks/<int:pk>/export/", api.ExportView.as_view(), name="api-deck-export"),
    path("decks/<int:pk>/stats/", api.StatsView.as_view(), name="api-deck-stats"),
    path("decks/<int:pk>/sample-muster/", api.SampleMusterView.as_view(),
         name="api-deck-sample-muster"),
    path("decks/<int:pk>/wants/", api.WantsView.as_view(), name="api-deck-wants"),
    path("decks/<int:pk>/share/", api.ShareView.as_view(), name="api-deck-share"),
    path("shared-decks/<str:token>/", api.SharedDeckView.as_view(), name="api-shared-deck"),
]
