# Two commands on a fresh machine: `make play` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench lint check setup clean screenshots cases validation
# The texts' gettext catalogs (.po, committed) compiled to .mo (not committed; also compiled at first use).
LOCALES := $(patsubst %.po,%.mo,$(wildcard assets/locale/*/LC_MESSAGES/*.po))

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet ".[dev]"
	@touch $(STAMP)

$(LOCALES): %.mo: %.po $(STAMP)
	$(BIN)/python -m scenes.i18n compile $@

setup: $(STAMP) $(LOCALES)

play: setup
	$(BIN)/python main.py play

test: setup
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python main.py bench

# The README's pictures: every table in the player's, top, side and broadcast views, and the play view.
screenshots: $(STAMP)
	$(BIN)/python -m scenes.gallery assets/screenshots --size 640x360 --no-json
	$(BIN)/python main.py render assets/screenshots/play.toml --out assets/screenshots/play.png --size 960x540 --camera player

lint: $(STAMP)
	$(BIN)/ruff check .

# The code's own checks: lint, format, strict types on the pure packages, the fast tests.
check: setup
	$(BIN)/python -m scenes.i18n check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict physics rules
	$(BIN)/python -m pytest -m "not slow"

# Re-find the trainer's cases after a physics change (README, "The case library and its checks").
# The README's validation plots: the physics against its published sources (python main.py validate).
validation: $(STAMP)
	nice -n 10 $(BIN)/python main.py --lang en validate --out assets/validation

cases: $(STAMP)
	nice -n 10 $(BIN)/python tools/trainer_make_cases.py --refind 3000

clean:
	rm -rf $(VENV)
