from django.contrib import admin
from django.urls import include, path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from .api_index import ApiIndex

api_patterns = [
    path("", ApiIndex.as_view(), name="api-index"),
    path("", include("accounts.api_urls")),
    path("", include("cards.api_urls")),
    path("", include("decks.api_urls")),
    path("", include("battles.api_urls")),
    path("", include("campaigns.api_urls")),
    path("", include("online.stratego.api_urls")),
    path("", include("online.belle_alliance.api_urls")),
    path("", include("play.api_urls")),  # after the games registered their APIs above
    path("", include("tournaments.api_urls")),
    path("", include("ratings.api_urls")),
    path("", include("notifications.api_urls")),
    path("", include("matchups.api_urls")),
]

# The Swagger UI page is drf-spectacular's, its bundle a pinned copy served from this origin
# (drf-spectacular-sidecar: no CDN, works offline); its template has a small inline <style>.
# The split view serves its start-up script from this origin too, so this page's policy only
# adds inline style; no page allows inline script.
docs_csp = csp_override({
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
})

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", docs_csp(SpectacularSwaggerSplitView.as_view(url_name="schema")),
         name="api-docs"),
    path("api/", include(api_patterns)),
    path("accounts/", include("accounts.urls")),
    path("", include("frontend.urls")),
]
