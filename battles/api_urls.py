from django.urls import path

from . import api

urlpatterns = [
    path("battles/", api.BattleList.as_view(), name="battle-list"),
    path("battles/open/", api.OpenBattles.as_view(), name="battle-open-list"),
    path("battles/<int:pk>/", api.BattleDetail.as_view(), name="battle-detail"),
    path("battles/<int:pk>/watch/", api.Watch.as_view(), name="battle-watch"),
    path("battles/<int:pk>/act/", api.Act.as_view(), name="battle-act"),
    path("battles/<int:pk>/undo/", api.Undo.as_view(), name="battle-undo"),
    path("battles/<int:pk>/export/", api.Export.as_view(), name="battle-export"),
    path("battles/<int:pk>/join/", api.Join.as_view(), name="battle-join"),
    path("battles/<int:pk>/cancel/", api.Cancel.as_view(), name="battle-cancel"),
    path("battles/<int:pk>/resign/", api.Resign.as_view(), name="battle-resign"),
    path("battles/<int:pk>/claim/", api.Claim.as_view(), name="battle-claim"),
]
