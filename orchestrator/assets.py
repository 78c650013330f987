"""Where the bundled maps and sample bots are: the checkout's `maps/` and `bots/`, or, in
an installed arena (`pip install robot-arena`), the same files shipped as package data
under `orchestrator/bundled/` (pyproject.toml maps the folders there)."""
from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent


@cache
def bundled(kind: str) -> Path:
    """The folder of bundled `maps` or `bots` (one subfolder per game)."""
    packaged = resources.files("orchestrator") / "bundled" / kind
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return CHECKOUT / kind
