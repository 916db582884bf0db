# Two commands on a fresh machine: `make play` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench lint static check setup clean screenshots cases validation
# The texts' gettext catalogs (.po, committed) compiled to .mo (not committed; also compiled at first use).
LOCALES := $(patsubst %.po,%.mo,$(wildcard assets/locale/*/LC_MESSAGES/*.po))

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet ".[dev]"
	@touch $(STAMP)

$(LOCALES): %.mo: %.po $(STAMP)
	$(BIN)/python -m scenes.core.i18n compile $@

setup: $(STAMP) $(LOCALES)

play: setup
	$(BIN)/python main.py play

# Every test (the slow ones too) on every core: pytest-xdist, one test process per core (JOBS=1 for one).
JOBS ?= auto
test: setup
	$(BIN)/python -m pytest -n $(JOBS)

bench: $(STAMP)
	$(BIN)/python main.py bench

# The README's pictures: every table in the player's, top, side and broadcast views, and the play view.
screenshots: $(STAMP)
	$(BIN)/python -m scenes.gallery assets/screenshots --size 640x360 --no-json
	$(BIN)/python main.py render assets/screenshots/play.toml --out assets/screenshots/play.png --size 960x540 --camera player

lint: $(STAMP)
	$(BIN)/ruff check .

# The code's own checks: the catalogs, lint, format, strict types on the pure packages (static), then the fast
# tests (check). CI (.ci/run) runs `static` and then `test`, so the fast tests run once.
static: setup
	$(BIN)/python -m scenes.core.i18n check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict physics rules scenes tools main.py

check: static
	$(BIN)/python -m pytest -n $(JOBS) -m "not slow"

# Re-find the trainer's cases after a physics change (README, "The case library and its checks").
# The README's validation plots: the physics against its published sources (python main.py validate).
validation: $(STAMP)
	nice -n 10 $(BIN)/python main.py --lang en validate --out assets/validation

cases: $(STAMP)
	nice -n 10 $(BIN)/python tools/trainer_make_cases.py --refind 3000

clean:
	rm -rf $(VENV)
