# Quick start: `make run` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean chromium wheel-check i18n

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The service on the simulator: four simulated players play a whole game, the page shows it
# live (its address is printed); the journal is a throw-away file. Ctrl-C stops it.
RUN_JOURNAL ?= $(VENV)/run-journal.sqlite3
run: $(STAMP)
	rm -f $(RUN_JOURNAL) $(RUN_JOURNAL)-wal $(RUN_JOURNAL)-shm
	$(BIN)/tabletop run --sim --autoplay --speed 2 --journal $(RUN_JOURNAL)

# ruff, the import contracts (pyproject.toml's [tool.importlinter]), then mypy --strict over
# firmware_host/ (its [tool.mypy]): `make test` runs all three.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy

# The browser test drives Debian's Chromium and chromedriver: installed when missing.
chromium:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; }

test: lint chromium
	$(BIN)/python -m pytest -q

# The built wheel installed into a fresh venv outside the checkout, every command run from there.
wheel-check:
	.ci/wheel-check

# The catalogues: extract every marked message (babel.cfg; the keywords are
# firmware_host/i18n.py's KEYWORDS), merge them into each language's .po, compile the .mo
# files the package ships. Translate the .po files' new entries, then run it again.
LOCALE := firmware_host/locale
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --no-default-keywords -k _ -k gettext -k ngettext:1,2 \
	  -k pgettext:1c,2 -k lazy -k lazy_n:1,2 -k lazy_p:1c,2 --project tabletop --sort-by-file \
	  --add-comments TRANSLATORS: -o $(LOCALE)/tabletop.pot .
	$(BIN)/pybabel update -i $(LOCALE)/tabletop.pot -d $(LOCALE) -D tabletop
	$(BIN)/pybabel compile -d $(LOCALE) -D tabletop --statistics

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .import_linter_cache .mypy_cache .hypothesis build dist
