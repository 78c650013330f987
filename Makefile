# Everything a fresh machine needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint install clean system-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP) system-deps
	$(VENV)/bin/arena run

# Debian packages: libseccomp2 (the seccomp layer), bubblewrap (the optional bwrap tier)
# and chromium (the replay viewer's browser tests, driven by Playwright with this
# browser: Playwright downloads none). Installed as root when missing; otherwise the
# tests that need them are skipped, with the reason printed.
system-deps:
	@if ! command -v bwrap >/dev/null || ! command -v chromium >/dev/null \
	    || ! $(PYTHON) -c 'import ctypes; ctypes.CDLL("libseccomp.so.2")' 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends bubblewrap libseccomp2 chromium >/dev/null; \
	  else \
	    echo "note: bubblewrap, chromium or libseccomp2 is missing and this is not root:" \
	         "the tests that need them will be skipped"; \
	  fi; \
	fi

test: $(STAMP) system-deps
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/arena_bench.py
	$(PY) bench/sandbox_bench.py
	$(PY) bench/robotgame_bench.py
	$(PY) bench/batch_bench.py
	$(PY) bench/replay_bench.py

lint: $(STAMP)
	$(PY) -m ruff check .

clean:
	rm -rf $(VENV) runs .pytest_cache
