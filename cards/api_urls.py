from django.urls import include, path

urlpatterns = [
    path("", include("cards.catalogue_urls")),
    path("", include("cards.collection_urls")),
]
