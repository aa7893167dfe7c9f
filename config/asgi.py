import os

from config.asgi_threads import get_asgi_application
from config.secret_key import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
require_secret_key()  # DEBUG off: no server without SECRET_KEY (config/secret_key.py)
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402  (needs Django set up first)

application = ProtocolTypeRouter({"http": django_asgi_app})
