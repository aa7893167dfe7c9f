"""The project's own deploy checks (``manage.py check --deploy``; registered when the site's
app is ready, frontend/apps.py), beside Django's: settings that must never be on in production.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def webhooks_stay_public(app_configs, **kwargs) -> list[Error]:
    """``EAGLES_WEBHOOK_ALLOW_PRIVATE`` lets a tournament's webhook call private, loopback and
    link-local addresses: a way into the deployment's own network (SSRF)."""
    if not settings.EAGLES_WEBHOOK_ALLOW_PRIVATE:
        return []
    return [Error(
        "EAGLES_WEBHOOK_ALLOW_PRIVATE is on: tournament webhooks may call private, loopback "
        "and link-local addresses (the deployment's own network).",
        hint="Unset EAGLES_WEBHOOK_ALLOW_PRIVATE; it is for local development and tests only.",
        id="eagles.E001")]
