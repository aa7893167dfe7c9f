"""Safe defaults (issue 11): the web server refuses to start without SECRET_KEY when DEBUG is
off. Checked where the server starts (config/asgi.py, config/wsgi.py) rather than in the
settings, so offline commands that sign nothing (validate_deck, engine, check) still run on a
fresh clone without one."""

from django.core.exceptions import ImproperlyConfigured

MESSAGE = ("SECRET_KEY is not set. With DEBUG off the server needs a secret key: "
           "SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(50))'). "
           "For a local demo use `make run` (DEBUG=1).")


def require_secret_key() -> None:
    """Raise ImproperlyConfigured when the settings have no SECRET_KEY."""
    from django.conf import settings

    try:
        key = settings.SECRET_KEY  # Django itself raises when it is empty
    except ImproperlyConfigured:
        key = ""
    if not key:
        raise ImproperlyConfigured(MESSAGE)
