from django.apps import AppConfig


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"

    def ready(self) -> None:
        from play import registry
        from play.signals import match_changed

        from .kind import KIND
        from .live.notify import on_battle_changed

        registry.register(KIND)
        match_changed.connect(on_battle_changed, dispatch_uid="battles.live.notify")
