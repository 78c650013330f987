"""One bot as the orchestrator holds it: where it came from, its bytes, their sha256 and
its name and description. Read by `orchestrator.bots.read_bot`; kept apart from it so the registry's
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
    def description(self) -> str:
        """What the bot says of its strategy: its module docstring (Python) or its leading
        comment block (any language), first paragraph, plain text of at most
        DESCRIPTION_CHARS; "" without one. Read from the source, never by running it."""
        from orchestrator.bots import described  # noqa: PLC0415 (bots imports this module)

        return described(Path(self.path).name, self.source)

    @property
    def spec(self) -> BotSpec:
        return BotSpec(filename=Path(self.path).name, source=self.source)
