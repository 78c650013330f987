# Everything a fresh machine needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint install clean system-deps cave-bots
CAVE_C := bots/cave/digger

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP) system-deps
	$(VENV)/bin/arena run

# Debian packages: libseccomp2 (the seccomp layer), bubblewrap (the optional bwrap tier),
# chromium (the replay viewer's browser tests, driven by Playwright with this browser:
# Playwright downloads none), and for Cave Rangers' sample bots nodejs and gcc (the C
# bot is compiled here). Installed as root when missing; otherwise the tests that need
# them are skipped, with the reason printed.
system-deps:
	@if ! command -v bwrap >/dev/null || ! command -v chromium >/dev/null \
	    || ! command -v node >/dev/null || ! command -v cc >/dev/null \
	    || ! $(PYTHON) -c 'import ctypes; ctypes.CDLL("libseccomp.so.2")' 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends bubblewrap libseccomp2 chromium nodejs gcc libc6-dev \
	      >/dev/null; \
	  else \
	    echo "note: bubblewrap, chromium, nodejs, gcc or libseccomp2 is missing and this" \
	         "is not root: the tests that need them will be skipped"; \
	  fi; \
	fi

# Cave Rangers' native sample bot.
cave-bots: system-deps
	@if command -v cc >/dev/null; then cc -O2 -Wall -o $(CAVE_C) $(CAVE_C).c; fi

test: $(STAMP) system-deps cave-bots
	$(PY) -m pytest -q

bench: $(STAMP) cave-bots
	$(PY) bench/arena_bench.py
	$(PY) bench/sandbox_bench.py
	$(PY) bench/robotgame_bench.py
	$(PY) bench/batch_bench.py
	$(PY) bench/replay_bench.py
	$(PY) bench/cave_bench.py --series 200
	$(PY) bench/race_bench.py
	$(PY) bench/ladder_bench.py
	$(PY) -m pytest -q -m slow

lint: $(STAMP)
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) runs .pytest_cache $(CAVE_C)
