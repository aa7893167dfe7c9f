from django.urls import path

from . import views

urlpatterns = [
    path("cards/", views.catalogue, name="catalogue"),
    path("cards/syntax/", views.syntax, name="catalogue-syntax"),
    path("cards/<int:number>/", views.card_detail, name="card-detail"),
    path("cards/<int:number>.svg", views.card_svg, name="card-svg"),
    path("cards/back/<slug:army>.svg", views.card_back_svg, name="card-back-svg"),
]
