"""The wheel carries every file the arena needs at run time, and nothing stale: compared
with the checkout file by file, so a new kind of file (a Ruby driver, a Java sample) cannot
be left out of the package data unnoticed."""
from __future__ import annotations

import hashlib
import tomllib
import zipfile

from tests.conftest import ROOT

# Where each folder of the checkout goes in the wheel (pyproject.toml's package-dir).
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
    listed = set(config["packages"])
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for top in ("engine", "sandbox", "orchestrator")
             for path in (ROOT / top).rglob("*.py") if "__pycache__" not in path.parts}
    assert found - listed == set(), "add these to [tool.setuptools] packages"
    assert config["package-dir"] == {"orchestrator.bundled.maps": "maps",
                                     "orchestrator.bundled.bots": "bots"}
