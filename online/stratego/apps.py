from django.apps import AppConfig


class StrategoConfig(AppConfig):
    """Stratego: Waterloo online (its match kind, ``online.stratego.kind``, is found by ``play``);
    the pure game module (``stratego``) imports no Django."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "online.stratego"
    label = "stratego"
    verbose_name = "Stratego: Waterloo"
