from django.apps import AppConfig


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"

    def ready(self) -> None:
        from play import registry

        from .kind import KIND

        registry.register(KIND)
