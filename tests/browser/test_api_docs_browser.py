"""/api/docs/ (issue 28): Swagger UI is a pinned copy served by the project
(drf-spectacular-sidecar), so the page works with no network beyond the site itself."""

from urllib.parse import urlsplit


def test_api_docs_render_offline(page, live_server):
    here = urlsplit(live_server.url).netloc
    elsewhere: list[str] = []

    def only_the_site(route):
        if urlsplit(route.request.url).netloc == here:
            return route.continue_()
        elsewhere.append(route.request.url)
        return route.abort()

    page.route("**/*", only_the_site)  # offline: anything but the live server fails
    page.goto("/api/docs/")
    title = page.locator(".swagger-ui .info .title")
    title.wait_for()
    assert "Eagles Online API" in title.inner_text()
    page.locator(".swagger-ui .opblock").first.wait_for()  # the schema's operations are drawn
    assert elsewhere == []
