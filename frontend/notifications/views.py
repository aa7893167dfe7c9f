"""The notifications page: my notifications (newest first), mark read, and which kinds I get
in the list and by e-mail. Calls the same services as the API."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from frontend.errors import page_message
from notifications import services
from notifications.models import Kind

PAGE_SIZE = 50


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    rows = list(services.listed(request.user)[:PAGE_SIZE])
    flags = services.settings_of(request.user)
    return render(request, "frontend/notifications/list.html", {
        "rows": rows,
        "unread_ids": [n.pk for n in rows if n.read_at is None],
        "kinds": [{"key": k.value, "label": k.label, **flags[k.value]} for k in Kind]})


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    everything = request.POST.get("all") == "1"
    ids = [int(i) for i in request.POST.getlist("id") if i.isascii() and i.isdigit()
           and len(i) < 12]
    try:
        marked = services.mark_read(request.user, ids, everything=everything)
    except ServiceError as exc:
        messages.error(request, page_message(exc))
    else:
        messages.success(request, f"{marked} marked read.")
    return redirect("notifications")


@login_required
@require_POST
def save_settings(request: HttpRequest) -> HttpResponse:
    # An unticked checkbox is not sent: every kind's two switches come from this form.
    changes = {k.value: {"in_app": request.POST.get(f"{k.value}-in_app") == "on",
                         "email": request.POST.get(f"{k.value}-email") == "on"} for k in Kind}
    services.update_settings(request.user, changes)
    messages.success(request, "Your notification settings are saved.")
    return redirect("notifications")
