# Two commands on a fresh machine: `make play` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench lint setup clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "panda3d>=1.10.14,<1.11" "numpy>=1.26" "pytest>=8" "hypothesis>=6.100" "ruff>=0.5" "mypy>=1.10"
	@touch $(STAMP)

setup: $(STAMP)

play: $(STAMP)
	$(BIN)/python main.py play

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python main.py bench

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV)
