"""Settings for Eagles Online, read from the environment.

With nothing set, everything is embedded: SQLite, a filesystem Celery broker and result store,
a local-memory cache and an in-memory Channels layer. With DATABASE_URL and REDIS_URL set, the
same code runs on PostgreSQL and Redis (Celery broker/results, cache, Channels layer).
"""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("EAGLES_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


# ---- Safe defaults (issue 11): DEBUG is off unless set; `make run` sets DEBUG=1 for the demo.
# Off, the server refuses to start without SECRET_KEY (config/secret_key.py, checked where
# the server starts), answers only the hosts in ALLOWED_HOSTS,
# and sends secure cookies, HSTS and the HTTPS redirect (each switchable for a TLS-terminating
# proxy); `manage.py check --deploy` then reports nothing (tests/test_safe_defaults.py).
DEBUG = env_bool("DEBUG", False)
# Empty with DEBUG off: Django refuses anything that signs, and the server does not start.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "dev-only-insecure-key-change-me-0123456789"  # DEBUG only, never deployed
# Empty with DEBUG on: Django then allows localhost, 127.0.0.1 and [::1] only.
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
# Behind a proxy that terminates TLS and sets X-Forwarded-Proto: https. The way to run behind
# one (README, docs/deploy.md): SECURE_SSL_REDIRECT stays on, so check --deploy stays clean.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# ---- end of safe defaults

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # a pinned Swagger UI served from here (/api/docs/), no CDN
    "channels",
    "accounts",
    "cards",
    "decks",
    "play",
    "battles",
    "campaigns",
    "online.stratego",
    "online.belle_alliance",
    "tournaments",
    "ratings",
    "notifications",
    "matchups",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",  # SECURE_CSP below (safe defaults)
    "config.clean_input.RefuseControlCharactersMiddleware",  # NUL & co. in path/query (clean input)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.throttling.ExpensiveEndpointMiddleware",  # per-user limits (abuse), needs the user
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "frontend.context_processors.navigation",
                "frontend.context_processors.notification_counts",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A connection pool: ASGI runs each request in a new thread, so persistent
        # connections (CONN_MAX_AGE) would never be reused and each request would reconnect.
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": 10}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Wait for a concurrent writer instead of failing at once (web + worker share it).
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # When Redis goes away the site degrades, never breaks (issue 30): the default cache answers
    # as an empty one (config/cache.py; sessions are in the database too), and the log-in
    # limits' counters ("counters", errors raised) fail closed. Short timeouts: a Redis that
    # cannot be reached costs a request at most a second, and then nothing for 2 s.
    _redis_options = {"socket_connect_timeout": 1, "socket_timeout": 2}
    CACHES = {"default": {"BACKEND": "config.cache.DegradingRedisCache",
                          "LOCATION": REDIS_URL, "OPTIONS": _redis_options},
              "counters": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                           "LOCATION": REDIS_URL, "OPTIONS": _redis_options}}
    # The websockets' Channels layer: Redis pub/sub. Messages are pushed to each process (no
    # per-message round trips and locks in the receiving process, as the list-based layer
    # has: at 200 battles it cut daphne's CPU per action by a third and the p50 from ~0.9 s
    # to ~0.1 s, bench/online.py). At most once: the live poller resends what is lost.
    # Its names start with EAGLES_LIVE_PREFIX (channels_redis' "asgi" unset): Redis pub/sub
    # ignores the database number, so sites (or parallel test runs) sharing a Redis server
    # keep their live messages apart only by prefix.
    # Each pytest-xdist worker its own prefix: Redis pub/sub channels are not kept apart by
    # database number, and the workers' matches share ids ("battle.5.watch" in both).
    _live_prefix = (os.environ.get("EAGLES_LIVE_PREFIX")
                    or "asgi" + os.environ.get("PYTEST_XDIST_WORKER", ""))
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.DegradingPubSubChannelLayer",
                                  "CONFIG": {"hosts": [{"address": REDIS_URL}],
                                             "prefix": _live_prefix}}}
    if os.environ.get("EAGLES_LIVE_LAYER") == "lists":
        # The list-based layer (at least once within its expiry), with a pool that waits.
        # socket_timeout above the layer's 5 s blocking pop: redis-py's default is 5 s too, so
        # an idle websocket's consumer died with "Timeout reading" (play/live/, issue 12).
        CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.WaitingRedisChannelLayer",
                                      "CONFIG": {"hosts": [{"address": REDIS_URL,
                                                            "socket_timeout": 30}],
                                                 "prefix": _live_prefix}}}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
else:
    # One local-memory store under both names (same LOCATION): "counters" is the throttles'.
    CACHES = {name: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                     "LOCATION": "eagles"} for name in ("default", "counters")}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # kombu's filesystem transport: a broker that needs no server, shared through a folder.
    CELERY_BROKER_DIR = VAR_DIR / "celery" / "broker"
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR),
        "data_folder_out": str(CELERY_BROKER_DIR),
        "control_folder": str(VAR_DIR / "celery" / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = "file://" + str(VAR_DIR / "celery" / "results")
    for _name in ("broker", "control", "results"):
        (VAR_DIR / "celery" / _name).mkdir(parents=True, exist_ok=True)

# A broker that cannot be reached must not hold up the request that enqueues (issue 30: a move
# handing the turn to the computer was answered after 19 s of publish retries): one quick
# retry, then the send gives up with a log line (play/enqueue.py) and the beat's tick, which
# finds the computer turns nobody took, sends it again once the broker is back.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0,
                                    "interval_step": 0.5, "interval_max": 0.5}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
# The safety-net ticks (celery beat: play.tick in play/tasks.py, tournaments.tick,
# matchups.tick, notifications.deadline_near): their period in seconds (tests run beat with
# 1). Beat's schedule file lives in var/, never the repo root.
EAGLES_TICK_SECONDS = float(os.environ.get("EAGLES_TICK_SECONDS", "30"))
if EAGLES_TICK_SECONDS <= 0:
    raise ValueError("EAGLES_TICK_SECONDS must be a positive number of seconds")
# A worker thinking the computer's turn keeps a mark in the cache, refreshed before each
# decision (play/thinking.py); a worker that dies leaves it to lapse after this many seconds,
# then the tick asks again. Whole seconds (Redis). Above a decision's wall time: its CPU
# budget (1 s, hard 3 s) times the threads sharing a worker's core.
EAGLES_THINKING_SECONDS = int(os.environ.get("EAGLES_THINKING_SECONDS", "20"))
if EAGLES_THINKING_SECONDS <= 0:
    raise ValueError("EAGLES_THINKING_SECONDS must be a positive number of seconds")
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
VAR_DIR.mkdir(parents=True, exist_ok=True)  # beat cannot create the folder itself (Redis)

# Notification e-mail, sent by the Celery workers (notifications/mailing.py), Django 6.1's
# MAILERS (EMAIL_BACKEND as a setting is deprecated; here it is an environment variable).
# Default: printed on the console for the local demo (DEBUG on: by the worker, in the terminal
# of `make run`); with DEBUG off, SMTP to EMAIL_HOST (the deploy check refuses the console
# there). The tests get the locmem backend.
_MAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.console.EmailBackend" if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend")
MAILERS = {"default": {"BACKEND": _MAIL_BACKEND, "OPTIONS": {
    "host": os.environ.get("EMAIL_HOST", "localhost"),
    "port": int(os.environ.get("EMAIL_PORT", "25")),
    "username": os.environ.get("EMAIL_HOST_USER", ""),
    "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
    "use_tls": env_bool("EMAIL_USE_TLS", False),
    "timeout": 10,
} if _MAIL_BACKEND.endswith("smtp.EmailBackend") else {}}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Eagles Online <noreply@localhost>")
EAGLES_SITE_URL = os.environ.get("EAGLES_SITE_URL", "")  # prefix of the links in e-mails

# Tournament webhooks may only call public addresses (SSRF); true allows private, loopback and
# link-local ones too (local development, tests with a 127.0.0.1 receiver). Never in production.
EAGLES_WEBHOOK_ALLOW_PRIVATE = env_bool("EAGLES_WEBHOOK_ALLOW_PRIVATE", False)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.ObjectJSONParser",
        "config.parsers.CleanFormParser",  # these three refuse control characters (clean input)
        "config.parsers.CleanMultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Eagles Online API",
    "DESCRIPTION": "The EAGLES: Waterloo catalogue, collections, decks, battles and tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/: the Swagger UI build pinned by drf-spectacular-sidecar's version (pyproject),
    # served as static files from this origin: it works offline and never changes unasked.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # One stable component name per choice set, whichever field uses it first.
    "ENUM_NAME_OVERRIDES": {
        "ArmyEnum": "cards.models.Army",
        "BattleEnum": "cards.models.Battle",
        "FinishEnum": "cards.models.Finish",
        "DeckKindEnum": "decks.models.DeckKind",
        "PoolEnum": "decks.models.DeckPool",
        "BattleSideEnum": "battles.models.Side",
        "BattleStatusEnum": "battles.models.Status",
        "TournamentStatusEnum": "tournaments.models.Status",
        "BotEnum": "battles.models.BotName",
        "StrategoBotEnum": "online.stratego.models.BotName",
        "BelleAllianceBotEnum": "online.belle_alliance.models.BotName",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# ---- Safe defaults: the Content-Security-Policy on every response. Everything is served from
# this origin (htmx is vendored); no inline script or style, so no nonce and no 'unsafe-inline'.
# The Swagger UI page (/api/docs/) serves its pinned bundle from here too, but its template has
# an inline <style>: it gets its own policy (config/urls.py).
from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# ---- Abuse limits (issue 11). Counters live in the Django cache (Redis with REDIS_URL, so
# every process shares them). Log-in: after EAGLES_LOGIN_FAILURES wrong passwords for one
# account name, or from one address, within EAGLES_THROTTLE_WINDOW seconds, every log-in for it
# (even with the right password) answers 429 until the window ends. Sign-up: at most
# EAGLES_SIGNUPS_PER_WINDOW attempts per address and per account name in a window.
EAGLES_THROTTLE_WINDOW = int(os.environ.get("EAGLES_THROTTLE_WINDOW", "900"))
EAGLES_LOGIN_FAILURES = int(os.environ.get("EAGLES_LOGIN_FAILURES", "10"))
EAGLES_SIGNUPS_PER_WINDOW = int(os.environ.get("EAGLES_SIGNUPS_PER_WINDOW", "10"))
# Expensive endpoints: POSTs per user (or token, or address when anonymous) per minute, by URL
# name (config/throttling.py). A new expensive endpoint adds its URL name here.
EAGLES_EXPENSIVE_PER_MINUTE = int(os.environ.get("EAGLES_EXPENSIVE_PER_MINUTE", "20"))
EAGLES_EXPENSIVE_ENDPOINTS = {
    "api-collection-import": "imports",
    "collection-import": "imports",
    "deck-import": "imports",
    "battle-list": "battles",  # a new battle may start the computer player's work
    "game-list": "battles",  # so may a new match of any kind through /api/games/<kind>/
    "battles": "battles",  # the new-battle form (page)
    "matchup-lab": "simulations",
    "api-matchup-lab": "simulations",
}
# How many proxies in front of the web processes append to X-Forwarded-For (the nginx layout of
# docs/deploy.md: 1). The per-address limits count the address the outermost of them saw
# (config/throttling.py); 0 (no proxy) counts the connection's own address.
EAGLES_TRUSTED_PROXIES = int(os.environ.get("EAGLES_TRUSTED_PROXIES", "0"))
# Websockets (play/live/protocol.py): each socket may send this many frames a second on average,
# in bursts of EAGLES_WS_FRAME_BURST; a frame over it is refused with an error frame (not
# applied), and a socket that keeps sending over it is closed (code 4429). A person clicking
# sends a frame or two a second; a client that waits for each answer stays well under it.
EAGLES_WS_FRAMES_PER_SECOND = float(os.environ.get("EAGLES_WS_FRAMES_PER_SECOND", "20"))
EAGLES_WS_FRAME_BURST = int(os.environ.get("EAGLES_WS_FRAME_BURST", "40"))
# Request bodies larger than this many bytes are refused with a 413 as they arrive
# (config/body_limit.py); the proxy's client_max_body_size matches it (docs/deploy.md). The
# largest honest body, a collection or deck import, is well under 1 MB.
EAGLES_MAX_BODY_BYTES = int(os.environ.get("EAGLES_MAX_BODY_BYTES", str(5 * 1024 * 1024)))
# ---- end of abuse limits

# --- Lean requests (issue 11; bench/request_cpu.py measures them) -------------------------------
# Sessions are read from the cache (Redis with REDIS_URL, shared by every web process) and
# written through to the database: a logged-in request makes no session query.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# SQLite: keep each request thread's connection (config.asgi_threads reuses the threads)
# instead of reconnecting on every request. PostgreSQL uses its pool instead (above).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 60
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Passwords: Django's default hasher, PBKDF2-SHA256 at Django's default iterations (in this
# Django: 1,500,000), kept on purpose: about 0.4-0.6 s of server CPU per log-in or sign-up
# here (bench/request_cpu.py), the cost that makes a stolen hash slow to crack. Only the tests
# use a fast hasher (tests/conftest.py).
