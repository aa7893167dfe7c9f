from django.urls import path

from . import views

urlpatterns = [
    path("decks/", views.deck_list, name="decks"),
    path("decks/import/", views.import_deck, name="deck-import"),
    path("decks/shared/<str:token>/", views.shared, name="deck-shared"),
    path("decks/<int:deck_id>/", views.builder, name="deck-builder"),
    path("decks/<int:deck_id>/cards/", views.builder_cards, name="deck-cards"),
    path("decks/<int:deck_id>/history/", views.history, name="deck-history"),
    path("decks/<int:deck_id>/export/", views.export, name="deck-export"),
    path("decks/<int:deck_id>/share/", views.share, name="deck-share"),
    path("decks/<int:deck_id>/wants/", views.add_to_wants, name="deck-wants"),
    path("decks/<int:deck_id>/muster/", views.sample_muster, name="deck-muster"),
    path("decks/<int:deck_id>/delete/", views.delete, name="deck-delete"),
]
