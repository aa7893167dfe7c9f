from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from .api_index import ApiIndex

api_patterns = [
    path("", ApiIndex.as_view(), name="api-index"),
    path("", include("accounts.api_urls")),
    path("", include("cards.api_urls")),
    path("", include("decks.api_urls")),
    path("", include("battles.api_urls")),
    path("", include("tournaments.api_urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(api_patterns)),
    path("accounts/", include("accounts.urls")),
    path("", include("frontend.urls")),
]
