from django.apps import AppConfig


class BattlesConfig(AppConfig):
    """The EAGLES battle (its match kind, ``battles.kind``, is found by ``play``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"
