# Everything a fresh machine needs: `make run`, `make unit` (the fast lane) and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run unit test bench lint install clean run-deps system-deps

# pip at -qq says only what failed: a machine's pip configuration may name package
# indexes that lack a package, and -q would print a WARNING line for each of them.
PIP := $(PY) -m pip install -qq

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip

# The demo needs the package alone; the tests, benches and lint need the test extra
# (which includes the server extra, Playwright, Dask, Hypothesis and rgkit).
$(RUN_STAMP): pyproject.toml | $(PY)
	$(PIP) -e .
	touch $(RUN_STAMP)

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PIP) -e '.[test]'
	touch $(TEST_STAMP) $(RUN_STAMP)

install: $(TEST_STAMP)

run: $(RUN_STAMP) run-deps
	$(VENV)/bin/arena run

SECCOMP_CHECK := $(PYTHON) -c 'import ctypes; ctypes.CDLL("libseccomp.so.2")'
TEST_CHECK := command -v bwrap && command -v chromium && command -v node && command -v cc \
	&& command -v ruby && command -v perl && command -v gawk && command -v java \
	&& command -v javac && command -v tmux && $(SECCOMP_CHECK)
RUN_NOTE := libseccomp2 is missing and this is not root: the seccomp layer is off
TEST_NOTE := bubblewrap, chromium, nodejs, gcc, ruby, perl, gawk, a JDK, tmux or libseccomp2 is \
	missing and this is not root: the tests that need them will be skipped

# $(call debian,CHECK,PACKAGES,NOTE): unless CHECK succeeds, install the Debian PACKAGES
# as root, or print NOTE.
define debian
	@if ! ( $(1) ) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends $(2) >/dev/null; \
	  else \
	    echo "note: $(3)"; \
	  fi; \
	fi
endef

# The demo's one Debian package: libseccomp2, for the sandbox's seccomp layer (without it
# the demo still runs, and says which layer is missing).
run-deps:
	$(call debian,$(SECCOMP_CHECK),libseccomp2,$(RUN_NOTE))

# The tests' Debian packages: libseccomp2, bubblewrap (the optional bwrap tier), chromium
# (the replay viewer's and the ladder's browser tests, driven by Playwright with this
# browser: Playwright downloads none), gcc (Cave's C sample is compiled on first use, into
# ~/.cache/robot-arena/), and every runtime of Cave's table (sandbox/programs.py RUNTIMES),
# so that each row is tested: nodejs, perl, ruby (also Robot Game's Ruby bots), gawk, and a
# JDK (javac's compiler module runs a single-file `java Bot.java`); and tmux, in which the
# terminal replay viewer's test presses keys. Installed as root when missing; otherwise
# the tests that need them are skipped, with the reason printed.
system-deps:
	$(call debian,$(TEST_CHECK),bubblewrap libseccomp2 chromium nodejs gcc libc6-dev ruby \
	  perl gawk default-jdk-headless tmux,$(TEST_NOTE))

# Lint first: ruff and mypy take seconds, and fail before the minutes of tests.
test: lint system-deps
	$(PY) -m pytest -q

# The fast lane: tests/unit in this one process (-n 0: no xdist workers), in under a
# minute. It starts no process, which its conftest checks, and needs no Debian package.
unit: $(TEST_STAMP)
	$(PY) -m pytest -q -n 0 tests/unit

bench: $(TEST_STAMP)
	$(PY) bench/arena_bench.py
	$(PY) bench/api_bench.py
	$(PY) bench/startup_bench.py
	$(PY) bench/sandbox_bench.py
	$(PY) bench/robotgame_bench.py
	$(PY) bench/robotgame_batch_bench.py
	$(PY) bench/cost_model.py
	$(PY) bench/ruby_bench.py
	$(PY) bench/batch_bench.py
	$(PY) bench/replay_bench.py
	$(PY) bench/cave_bench.py --series 200
	$(PY) bench/race_bench.py
	$(PY) bench/ladder_bench.py
	$(PY) bench/batch_memory_bench.py
	$(PY) bench/compare_bench.py
	$(PY) -m pytest -q -m slow

# ruff, then mypy (what it checks and how strictly: pyproject.toml's [tool.mypy]).
lint: $(TEST_STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache bots/cave/digger   # digger: an old in-place build
