import os

from django.core.wsgi import get_wsgi_application

from config.secret_key import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
require_secret_key()  # DEBUG off: no server without SECRET_KEY (config/secret_key.py)
application = get_wsgi_application()
