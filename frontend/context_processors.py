from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

# (label, url name, needs login): the main navigation of every page.
NAV = [
    ("Catalogue", "catalogue", False),
    ("Collection", "collection", True),
    ("Decks", "decks", True),
    ("Trades", "trades", True),
    ("Tournaments", "tournaments", False),
    ("Battles", "battles", True),
]


def navigation(request: HttpRequest) -> dict:
    items = []
    for label, name, needs_login in NAV:
        if needs_login and not request.user.is_authenticated:
            continue
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append({"label": label, "url": url, "active": request.path.startswith(url)})
    return {"nav_items": items}
