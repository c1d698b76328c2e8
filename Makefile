# Quick start: `make run` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean chromium wheel-check

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

lint: $(STAMP)
	$(BIN)/ruff check .

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

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build dist
