"""pyproject.toml lists the packages by hand (maps/ and bots/ are mapped into the wheel as
package data): every package of the source tree must be in that list."""
from __future__ import annotations

import tomllib

from tests.conftest import ROOT


def test_every_package_is_listed_for_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for top in ("engine", "sandbox", "orchestrator")
             for path in (ROOT / top).rglob("*.py") if "__pycache__" not in path.parts}
    assert found - listed == set(), "add these to [tool.setuptools] packages"
    assert config["package-dir"] == {"orchestrator.bundled.maps": "maps",
                                     "orchestrator.bundled.bots": "bots"}
