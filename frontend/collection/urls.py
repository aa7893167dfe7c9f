from django.urls import path

from . import views

urlpatterns = [
    path("collection/", views.collection, name="collection"),
    path("collection/completion/", views.collection_completion,
         name="collection-completion"),
    path("collection/change/", views.collection_change, name="collection-change"),
    path("collection/import/", views.collection_import, name="collection-import"),
    path("collection/export.csv", views.collection_export, name="collection-export"),
    path("collection/missing/", views.missing, name="collection-missing"),
    path("collection/wants/", views.wants, name="wants"),
    path("collection/starter/", views.starter, name="starter"),
    path("trades/", views.trade_list, name="trades"),
    path("trades/<int:trade_id>/<slug:action>/", views.trade_action, name="trade-action"),
]
