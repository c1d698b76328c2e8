# Quick start: `make run` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean chromium

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Until the service (tabletop run) exists: the most complete things there are.
run: $(STAMP)
	$(BIN)/tabletop judge examples/positions/worked_example.yaml
	$(BIN)/tabletop referee examples/games/two_teams_jokers_shape_edges.yaml
	$(BIN)/tabletop simulate --drops 36 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check .

# The browser test drives Debian's Chromium and chromedriver: installed when missing.
chromium:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; }

test: lint chromium
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
