# Every target builds its own virtual environment from nothing: a fresh clone needs only python3.11, pip and make.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo bench lint install clean

$(STAMP): requirements.lock pyproject.toml
	@test -n "$(PYTHON)" || (echo "need python3.11 (or python3) on PATH"; exit 2)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -n auto

demo: $(STAMP)
	$(PY) -m bot demo

bench: $(STAMP)
	$(PY) -m bench

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) var
