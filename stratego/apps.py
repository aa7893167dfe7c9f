from django.apps import AppConfig


class StrategoConfig(AppConfig):
    """Stratego: Waterloo online (its match kind, ``stratego.kind``, is found by ``play``);
    the pure engine stays Django-free under ``stratego/engine``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "stratego"
    verbose_name = "Stratego: Waterloo"
