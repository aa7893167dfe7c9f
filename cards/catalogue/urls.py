from django.urls import path

from .api import CardDetailView, CardListView, CatalogueView

urlpatterns = [
    path("cards/", CardListView.as_view(), name="api-cards-list"),
    path("cards/<str:number>/", CardDetailView.as_view(), name="api-card-detail"),
    path("catalogue/", CatalogueView.as_view(), name="api-catalogue"),
]
