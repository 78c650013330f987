"""The wheel carries every file the arena needs at run time, and nothing stale: compared
with the checkout file by file, so a new kind of file (a Ruby driver, a Java sample) cannot
be left out of the package data unnoticed."""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile

import setuptools

from tests.support.paths import ROOT
from tests.support.wheel import NOT_SOURCE

# Where each folder of the checkout goes in the wheel (maps/ and bots/: setup.py).
SHIPPED = {"engine": "engine", "sandbox": "sandbox", "orchestrator": "orchestrator",
           "maps": "orchestrator/bundled/maps", "bots": "orchestrator/bundled/bots"}
ELF = b"\x7fELF"


def needed_at_run_time() -> dict[str, str]:
    """Every file of the checkout the runtime may read, by its path in the wheel, with its
    sha256: all of the shipped folders but bytecode and compiled programs (a C sample is
    built on first use, never shipped)."""
    files = {}
    for folder, target in SHIPPED.items():
        for path in (ROOT / folder).rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            data = path.read_bytes()
            if data.startswith(ELF):
                continue
            name = f"{target}/{path.relative_to(ROOT / folder).as_posix()}"
            files[name] = hashlib.sha256(data).hexdigest()
    return files


def test_the_wheel_holds_exactly_the_files_the_runtime_needs(wheel) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = [name for name in archive.namelist() if ".dist-info/" not in name]
        shipped = {name: hashlib.sha256(archive.read(name)).hexdigest() for name in names}
    assert len(shipped) == len(names), "a file twice in the wheel"
    needed = needed_at_run_time()
    assert sorted(set(needed) - set(shipped)) == [], "not in the wheel: fix package-data"
    assert sorted(set(shipped) - set(needed)) == [], "in the wheel, not in the checkout"
    assert [n for n in needed if needed[n] != shipped[n]] == [], "stale in the wheel"
    assert "sandbox/botlib/ruby/driver.rb" in shipped     # what the first wheel lacked


def test_every_package_is_listed_for_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    include = config["packages"]["find"]["include"]
    listed = set(setuptools.find_namespace_packages(ROOT, include=include))
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for top in ("engine", "sandbox", "orchestrator")
             for path in (ROOT / top).rglob("*.py") if "__pycache__" not in path.parts}
    assert found - listed == set(), "[tool.setuptools] packages.find misses these"
    # maps/ and bots/ are copied into the wheel by setup.py; a mapping here would make the
    # editable install an import hook that prints a notice at every `make run`.
    assert config["package-dir"] == {"": "."}


def test_an_editable_install_prints_no_warning(tmp_path) -> None:
    """`make run`'s install step, on a clean copy of the checkout into a fresh venv: no
    warning from the build backend (setuptools' import-hook notice, a deprecation) or pip.
    The one kind of line let through is pip's note that an index this machine's pip
    configuration names lacks a package (`Location ... is ignored`): that is the machine's
    pip.conf, not the project."""
    source = tmp_path / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
    venv.EnvBuilder(with_pip=False).create(tmp_path / "venv")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(tmp_path / "venv" / "bin" / "python"),
         "install", "--quiet", "--no-deps", "-e", str(source)],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if line.strip() and not re.match(r"WARNING: Location '.*' is ignored", line)]
    assert said == [], "\n".join(said)


def test_the_notebook_extra_brings_a_kernel_and_the_docs_say_how_to_run_the_example() -> None:
    """`pip install '.[notebook]'` is enough to run docs/example.ipynb in a Jupyter or VS
    Code of one's own: it brings the kernel (ipykernel), which the docs name with the
    install line and the front end to add where there is none."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["notebook"]
    names = {re.split(r"[<>=\[; ]", spec, maxsplit=1)[0] for spec in extras}
    assert {"ipykernel", "ipywidgets", "pandas"} <= names, names
    guide = (ROOT / "docs" / "python-api.md").read_text()
    assert "pip install -e '.[notebook]'" in guide and "jupyterlab" in guide
    assert "jupyter lab docs/example.ipynb" in guide
    assert "[notebook]" in (ROOT / "README.md").read_text()
