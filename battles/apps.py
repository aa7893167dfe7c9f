from django.apps import AppConfig


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"

    def ready(self) -> None:
        from .live.notify import on_battle_changed
        from .signals import battle_changed

        battle_changed.connect(on_battle_changed, dispatch_uid="battles.live.notify")
