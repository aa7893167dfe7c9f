from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "The game service"

    def ready(self) -> None:
        from . import registry
        from .live.notify import on_match_changed

        registry.autodiscover()  # every installed app's ``kind.KIND``
        from .signals import match_changed

        # One listener for every kind's websockets (each kind's part: ``MatchKind.live``).
        match_changed.connect(on_match_changed, dispatch_uid="play.live.notify")
