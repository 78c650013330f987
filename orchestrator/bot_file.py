"""One bot as the orchestrator holds it: where it came from, its bytes, their sha256 and
its name. Read by `orchestrator.bots.read_bot`; kept apart from it so the registry's
entries, which find no sample by name, can name the type."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sandbox.host import BotSpec


@dataclass(frozen=True)
class BotFile:
    """One bot given on the command line."""

    path: str          # as the user gave it (or relative to the project for samples)
    source: bytes
    sha256: str
    name: str          # the module-level `name`, else the file's stem

    @property
    def spec(self) -> BotSpec:
        return BotSpec(filename=Path(self.path).name, source=self.source)
