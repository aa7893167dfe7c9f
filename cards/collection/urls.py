from django.urls import path

from . import api

urlpatterns = [
    path("collection/", api.CollectionView.as_view(), name="api-collection"),
    path("collection/add/", api.AddView.as_view(), name="api-collection-add"),
    path("collection/remove/", api.RemoveView.as_view(), name="api-collection-remove"),
    path("collection/trade-quantity/", api.TradeQuantityView.as_view(),
         name="api-collection-trade-quantity"),
    path("collection/completion/", api.CompletionView.as_view(),
         name="api-collection-completion"),
    path("collection/missing/", api.MissingView.as_view(), name="api-collection-missing"),
    path("collection/import/", api.ImportView.as_view(), name="api-collection-import"),
    path("collection/export/", api.ExportView.as_view(), name="api-collection-export"),
    path("wants/", api.WantsView.as_view(), name="api-wants"),
    path("wants/<int:want_id>/", api.WantDetailView.as_view(), name="api-want"),
    path("starter-decks/", api.StarterDecksView.as_view(), name="api-starter-decks"),
    path("starter-decks/<int:deck_id>/", api.StarterDeckDetailView.as_view(),
         name="api-starter-deck"),
    path("trades/", api.TradesView.as_view(), name="api-trades"),
    path("trades/suggestions/", api.SuggestionsView.as_view(), name="api-trade-suggestions"),
    path("trades/<int:trade_id>/", api.TradeDetailView.as_view(), name="api-trade"),
    path("trades/<int:trade_id>/accept/", api.TradeActionView.as_view(service="accept_trade"),
         name="api-trade-accept"),
    path("trades/<int:trade_id>/decline/", api.TradeActionView.as_view(service="decline_trade"),
         name="api-trade-decline"),
    path("trades/<int:trade_id>/cancel/", api.TradeActionView.as_view(service="cancel_trade"),
         name="api-trade-cancel"),
]
