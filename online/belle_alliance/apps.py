from django.apps import AppConfig


class BelleAllianceConfig(AppConfig):
    """La Belle Alliance online (its match kind, ``online.belle_alliance.kind``, is found by
    ``play``); the pure engine, module, loader and bots stay Django-free."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "online.belle_alliance"
    label = "belle_alliance"
    verbose_name = "La Belle Alliance"
