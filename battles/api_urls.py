from django.urls import path

from . import api

urlpatterns = [
    path("battles/", api.BattleList.as_view(), name="battle-list"),
    path("battles/<int:pk>/", api.BattleDetail.as_view(), name="battle-detail"),
    path("battles/<int:pk>/act/", api.Act.as_view(), name="battle-act"),
]
