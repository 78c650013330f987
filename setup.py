"""The wheel's maps and sample bots (everything else is in pyproject.toml).

The checkout keeps `maps/` and `bots/` at the top (the layout is fixed); a wheel carries
them under `orchestrator/bundled/`, where `orchestrator/assets.py` finds them. They are
copied there at build time rather than mapped with `package-dir`, because such a mapping
makes setuptools install an editable checkout (`make run`) through an import hook, with a
notice printed at every install; a plain layout gets a plain `.pth` file, silently, and
an editable install reads the checkout's own folders.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSETS = ("maps", "bots")
ELF = b"\x7fELF"


def _not_shipped(folder: str, names: list[str]) -> list[str]:
    """Bytecode, and compiled programs (a C sample is compiled on first use, never
    shipped; an older `make cave-bots` built one in place)."""
    left_out = []
    for name in names:
        path = Path(folder, name)
        if name == "__pycache__" or path.suffix in (".pyc", ".pyo", ".o", ".so"):
            left_out.append(name)
        elif path.is_file():
            with path.open("rb") as file:
                if file.read(4) == ELF:
                    left_out.append(name)
    return left_out


class BuildPyWithAssets(build_py):
    """build_py, then the checkout's maps/ and bots/ into orchestrator/bundled/."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for kind in ASSETS:
            shutil.copytree(kind, Path(self.build_lib, "orchestrator", "bundled", kind),
                            ignore=_not_shipped, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPyWithAssets})
