# "What is the state of the art?" -- build the book, run the tests.
#   make book    create .venv if missing, install, execute every notebook, HTML in _build/html
#   make test    install the test extra and run pytest (which also builds the book)
#   make bench   print a table of timings
#   make lab     open the chapters as notebooks in JupyterLab (Jupytext pairing)
#   make clean   remove build products (keeps .venv)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
export NUMBA_CACHE_DIR := $(CURDIR)/_build/numba-cache
export PYTHONHASHSEED := 0

.PHONY: book test bench bench-venv lab clean distclean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.book-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[book]'
	@touch $@

$(VENV)/.test-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.book-installed

book: $(VENV)/.book-installed
	$(PY) -m sotalib.book.build

test: $(VENV)/.test-installed
	$(PY) -m pytest

lab: | $(PY)
	$(PY) -m pip install --quiet -e '.[lab]'
	$(VENV)/bin/jupyter lab notebooks/

bench: $(VENV)/.test-installed bench-venv
	$(PY) -m benchmarks

# The reference package mlscorecheck lives in its own environment (never a test dependency);
# if it cannot be installed the benchmark table says so.
bench-venv: .bench-venv/.installed
.bench-venv/.installed:
	-$(PYTHON) -m venv .bench-venv && .bench-venv/bin/python -m pip install --quiet mlscorecheck && touch $@

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) .bench-venv
