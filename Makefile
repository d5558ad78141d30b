# Two commands on a fresh machine: `make demo` and `make test`. Each installs what it needs:
# a virtual environment with the Python packages, and SWI-Prolog >= 9.1.12 with janus-swi
# (built into .local/swipl when the system has none or an older one).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SWIPL_PREFIX := $(CURDIR)/.local/swipl
INSTALLED := $(VENV)/.installed
# One pytest worker per core and one more: a worker waiting (an engine's timeout, a browser,
# a child's start) leaves its core to the spare one.
CORES   := $(shell nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 1)
WORKERS := $(shell echo $$(( $(CORES) + 1 )))

.PHONY: help install setup bytecode swipl prolog fonts chromium minizinc native model demo test lint \
        typecheck docs bench soak check clean

help:
	@echo "make demo    install everything, then compare every backend on the bundled top95"
	@echo "make test    install everything, then run ruff, mypy, the tests and the strict docs build"
	@echo "make check   ruff, mypy and the fast tests (not marked slow): under 3 minutes, for contributors"
	@echo "make typecheck  mypy over the package (pyproject.toml's [tool.mypy])"
	@echo "make docs    build the manual (docs/, mkdocs.yml) into site/; a broken link fails it"
	@echo "make bench   run the speed targets side by side and regenerate results/"
	@echo "make soak    a thousand rounds of cancelled web requests: the server must still solve"
	@echo "make model   retrain the digit classifier of \`sudokulab read\` (sudokulab/vision/digits.npz)"
	@echo "make clean   remove the virtual environment, the SWI-Prolog build and caches"
	@echo "Set SUDOKULAB_SKIP_PROLOG=1 to skip provisioning and testing the Prolog backend."

# uv installs the some 150 packages in seconds where pip takes about a minute (it fetches
# and unpacks side by side); where uv cannot be had (offline, a private index only pip
# knows), pip does it. --compile-bytecode: pip's default, for the reason `bytecode` gives.
$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv && $(BIN)/uv pip install --quiet --compile-bytecode \
	  --python $(BIN)/python -e '.[all,test]' \
	  || { echo "uv could not install the packages (see above): pip installs them instead"; \
	       $(BIN)/pip install --quiet -e '.[all,test]'; }
	touch $@

# Byte-code compiled up front (the packages' at install, sudokulab's own here): where
# PYTHONDONTWRITEBYTECODE is set, every process would otherwise compile each module it
# imports, at each start (the tests took a sixth longer).
bytecode: $(INSTALLED)
	$(BIN)/python -m compileall -q sudokulab

# SWI-Prolog's build (about 45 s) on one core, the Python packages and the byte-code on
# the other: neither needs the other, and nothing else uses apt meanwhile.
setup:
	@$(MAKE) --no-print-directory -j2 -Otarget $(INSTALLED) bytecode swipl

# A failed build is not fatal here: `prolog` runs the script again and says why.
swipl:
ifneq ($(SUDOKULAB_SKIP_PROLOG),1)
	-@scripts/provision-swipl $(SWIPL_PREFIX) > /dev/null
endif

# SWI-Prolog and janus: a failure here leaves the other backends working;
# `sudokulab backends` then says why Prolog is unavailable and the Prolog tests fail loudly.
# (The script finds what `swipl` built.)
prolog: setup
ifeq ($(SUDOKULAB_SKIP_PROLOG),1)
	@echo "SUDOKULAB_SKIP_PROLOG=1: not provisioning SWI-Prolog"
else
	@swipl=$$(scripts/provision-swipl $(SWIPL_PREFIX)) \
	  && scripts/install-janus $(BIN)/pip "$$swipl" \
	  || echo "WARNING: the Prolog backend is not installed (see above); the others work."
endif

# The Debian fonts `sudokulab read` is trained on and tested with (apt-get update, then
# install, when any is missing); without them the reader works but its tests cannot run.
fonts:
	@scripts/provision-fonts || echo "WARNING: fonts missing: the vision tests will fail (see above)."

# The digit classifier, rebuilt from the fonts and Wicht's newspaper photos (deterministic:
# one thread, a fixed seed), its figures in results/vision-training.txt. The photos are not
# shipped: SUDOKULAB_WICHT names a copy of github.com/wichtounet/sudoku_dataset
# (sudokulab/vision/wicht.py); without it the training says so and exits 2.
model: $(INSTALLED) fonts
	$(BIN)/pip install --quiet -e '.[model]'
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $(BIN)/python -m sudokulab.vision.train \
		> results/vision-training.new || { rm -f results/vision-training.new; exit 2; }
	mv results/vision-training.new results/vision-training.txt
	cat results/vision-training.txt

# Debian's Chromium for the browser tests (Playwright drives it; nothing is downloaded).
# When it cannot be installed the other tests still run and the browser tests fail, saying why.
chromium:
	@scripts/provision-chromium \
	  || echo "WARNING: Chromium is not installed (see above); tests/test_web_browser.py will fail."

# MiniZinc with Gecode (apt-get update, then install) and the PyPI packages of the mzn, milp,
# cpmpy backends and the #SAT counter; a failure leaves the other backends working.
minizinc: $(INSTALLED)
	@scripts/provision-minizinc $(BIN)/pip \
	  || echo "WARNING: MiniZinc or a solver package is missing (see above); \`sudokulab backends\` says which."

# The native backend's C library, compiled by the C compiler into the per-user cache
# (~/.cache/sudokulab, named by a hash of its source); a failure leaves the other backends
# working, and `sudokulab backends` says why native is not.
native: $(INSTALLED)
	@$(BIN)/python -m sudokulab.backends.native > /dev/null \
	  || echo "WARNING: the native backend's C library was not built (see above); the others work."

install: setup prolog fonts chromium minizinc native

demo: install
	$(BIN)/sudokulab backends
	$(BIN)/sudokulab compare --dataset top95

test: install docs
	$(BIN)/ruff check sudokulab tests bench
	@$(MAKE) --no-print-directory typecheck
	$(BIN)/pytest -n $(WORKERS) --durations=40

# The manual as a site; --strict turns a broken link, a missing page or anchor into a failure.
docs: $(INSTALLED)
	$(BIN)/mkdocs build --strict --site-dir site

# The fast lane for contributors: ruff, mypy and the tests not marked slow (tests/conftest.py
# says which and why); `make test` runs them all.
check: $(INSTALLED)
	$(BIN)/ruff check sudokulab tests bench
	@$(MAKE) --no-print-directory typecheck
	$(BIN)/pytest -n $(WORKERS) -m "not slow" -q

# The annotations, checked: what to check and how strictly is pyproject.toml's [tool.mypy].
typecheck: $(INSTALLED)
	$(BIN)/mypy

lint: $(INSTALLED)
	$(BIN)/ruff check sudokulab tests bench

bench: install
	$(BIN)/python bench/run.py

# The web server's soak: a thousand rounds of requests cancelled at every moment, then a
# solve must still answer (tests/test_web_soak.py; `make test` runs a dozen rounds).
soak: install
	SUDOKULAB_SOAK_ROUNDS=1000 $(BIN)/pytest -n 0 -q tests/test_web_soak.py

clean:
	rm -rf $(VENV) .local *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis runs site
