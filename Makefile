# The two commands of the README: `make run` and `make test`. Everything else is a helper.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: run test install install-test lint typecheck bench clean engine bytecode

# The runtime dependencies only (bin/runtime-requirements: pyproject's list; the project's own
# wheel has no packages, and building it costs an isolated setuptools install), without
# compiling every installed module to bytecode first ($(VENV)/.bytecode does, below): on a
# fresh clone this step went from 25.6 to 7.5 s CPU. The venv's own pip is new enough (>= 23.2
# with Python 3.12): no upgrade.
$(VENV)/.base: pyproject.toml
	@test -x $(PY) || "$$(bin/find-python)" -m venv $(VENV)
	bin/runtime-requirements $(PY) > $(VENV)/requirements.txt
	$(PY) -m pip install -q --no-compile -r $(VENV)/requirements.txt
	@touch $@

# The installed packages' bytecode, as `pip install` would have written it (~15 s CPU): for
# `make run` in the background with the engine's build (the site imports meanwhile compile
# what they need), before the tests for `make test`. Without it, with PYTHONDONTWRITEBYTECODE
# set, every start would compile its imports again.
$(VENV)/.bytecode: $(VENV)/.base
	$(PY) -m compileall -q -j 0 "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" > /dev/null || true
	@touch $@

bytecode: $(VENV)/.bytecode

$(VENV)/.test: $(VENV)/.base $(VENV)/.bytecode pyproject.toml
	$(PY) -m pip install -q '.[test]'
	@touch $@

$(VENV)/.engine: $(VENV)/.base pyproject.toml
	$(PY) -m pip install -q '.[engine]'
	@touch $@

install: $(VENV)/.base

install-test: $(VENV)/.test

# The local demo runs with DEBUG on (and so needs no SECRET_KEY); a deployment never uses it.
# The computer opponent thinks on the compiled engine when it has been built (its strength is
# measured there: battles/bots/README.md), else on the pure one. The site serves first: the
# build (minutes on a small machine) starts in the background (bin/engine-in-background,
# logged to var/engine-build.log) and is used from the next `make run`; the battles page
# says which engine the computer uses. Then only migrate holds the site back: `serve --demo`
# loads the catalogue and creates the demo account in its own process while the web server
# starts (two Django start-ups fewer), collects no static files with DEBUG on (WhiteNoise
# serves them from the apps), and runs the system checks (so migrate skips them).
run: export DEBUG ?= 1
run: export EAGLES_ENGINE ?= auto
run: install
	bin/engine-in-background $(VENV)
	$(PY) manage.py migrate --noinput --skip-checks
	$(PY) manage.py serve --port $(PORT) --demo

# The mypyc-compiled engine (battles/engine/native.py): built into var/engine-mypyc/<hash of
# the sources>, only when the sources changed; used only with EAGLES_ENGINE=compiled|auto.
# Optional: without mypy or a C compiler the pure engine is used.
engine: $(VENV)/.engine
	EAGLES_ENGINE=pure $(PY) -m battles.engine.build --optional

# mypy (pyproject.toml [tool.mypy]) on the pure cores (every function typed) and on the game
# service, play/ (Django, Celery and Channels are untyped here: Any). A new pure core goes here
# and in the disallow_untyped_defs override of pyproject.toml. Its cache is var/mypy-cache.
MYPY_PATHS = game battles/engine battles/bots battles/campaign decks/rules tournaments/pairing \
	tournaments/standings.py ratings/glicko2.py matchups/stats.py cards/catalogue/rules.py \
	cards/catalogue/validation.py cards/catalogue/search/parser.py battles/modules.py battles/tutorial.py play \
	stratego belle_alliance

# pytest runs in PYTEST_WORKERS processes (pytest-xdist; each has its own test database, Redis
# database and Channels prefix: config/test_settings.py). Serially: make test PYTEST_ARGS=-n0
# (a later -n wins); PYTEST_ARGS also takes test paths, -k, -x...
PYTEST_WORKERS ?= 2
test: install-test engine
	$(PY) -m ruff check .
	$(PY) -m mypy $(MYPY_PATHS)
	$(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

lint: install-test
	$(PY) -m ruff check .

typecheck: install-test
	$(PY) -m mypy $(MYPY_PATHS)

bench: install-test
	$(PY) bench/catalogue.py

clean:
	rm -rf $(VENV) var db.sqlite3 staticfiles
