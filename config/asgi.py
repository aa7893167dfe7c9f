import os

from config.asgi_threads import get_asgi_application
from config.body_limit import BodyLimit
from config.secret_key import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
require_secret_key()  # DEBUG off: no server without SECRET_KEY (config/secret_key.py)
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from play.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": BodyLimit(django_asgi_app),  # over-size bodies refused as they arrive
    # Live matches of every kind (play/live/: ws/games/<kind>/<id>/, and ws/battles/<id>/,
    # ws/campaigns/<id>/): the session's user, only from this site's own origins.
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(
        websocket_urlpatterns))),
})
