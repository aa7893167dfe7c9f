from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .whats_on import HOME_LIMIT, games_on


def home(request: HttpRequest) -> HttpResponse:
    kinds = games_on(request.user, HOME_LIMIT)
    return render(request, "frontend/home.html",
                  {"kinds": kinds, "anything_on": any(k["rows"] for k in kinds)})
