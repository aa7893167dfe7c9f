from django.urls import include, path

urlpatterns = [
    path("", include("cards.catalogue.urls")),
    path("", include("cards.collection.urls")),
]
