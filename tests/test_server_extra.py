"""Without the server extra (`pip install robot-arena` alone), the commands that serve a
page say what to install, in one error line."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

# Run the CLI with uvicorn made unimportable, as in an install without the extra.
WITHOUT_UVICORN = ("import sys\n"
                   "class Block:\n"
                   "    def find_spec(self, name, path=None, target=None):\n"
                   "        if name.split('.')[0] == 'uvicorn':\n"
                   "            raise ModuleNotFoundError(name=name)\n"
                   "sys.meta_path.insert(0, Block())\n"
                   "sys.argv[0] = 'arena'\n"
                   "from orchestrator.cli.launch import main\n"
                   "main()\n")


@pytest.mark.parametrize("command", [["serve", "--db", "{tmp}/l.sqlite"],
                                     ["maps", "edit", "{tmp}/m.txt", "--no-open"]])
def test_a_command_that_serves_names_the_missing_extra(command, tmp_path) -> None:
    args = [part.format(tmp=tmp_path) for part in command]
    done = subprocess.run([sys.executable, "-c", WITHOUT_UVICORN, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    name = "arena " + " ".join(command[:2 if command[0] == "maps" else 1])
    assert done.returncode == 2
    # A checkout's own line, which works as printed (the package is not on PyPI).
    pip = Path(sys.prefix) / "bin" / "pip"
    assert done.stderr == f"error: {name} needs the server extra (uvicorn is missing): " \
                          f"{pip} install -e '{ROOT}[server]'\n"
