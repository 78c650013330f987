"""One bot as the orchestrator holds it: where it came from, its bytes, their sha256 and
its name and description. Read by `orchestrator.bots.read_bot`; kept apart from it so the registry's
entries, which find no sample by name, can name the type."""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from orchestrator.kinds import leading_comment, parsed
from sandbox.host import BotSpec
from sandbox.shown import shown

DESCRIPTION_CHARS = 300             # a bot's description, cut so (the results file holds it)
_SOURCE_LANGUAGES = ("", ".py")     # a file the parser may read as Python for its docstring


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
        return described(Path(self.path).name, self.source)

    @property
    def spec(self) -> BotSpec:
        return BotSpec(filename=Path(self.path).name, source=self.source)


@functools.lru_cache(maxsize=256)   # each match's seats ask again for the same files
def described(filename: str, source: bytes) -> str:
    """A bot's description from its file, never run: the module docstring of a Python bot
    (read with `ast`), else its leading comment block (`#`, `//`, `--`, `;`, `/* */`: any
    language), its first paragraph on one line. It is the bot's text: controls and
    escapes become visible (`shown`), and it is cut to DESCRIPTION_CHARS."""
    text = ""
    if Path(filename).suffix.lower() in _SOURCE_LANGUAGES:
        tree = parsed(source)
        if tree is not None:
            text = ast.get_docstring(tree) or ""
    if not text.strip():
        text = leading_comment(source.decode("utf-8", "replace"), paragraph=True)
    paragraph = " ".join(text.strip().split("\n\n", 1)[0].split())
    paragraph = shown(paragraph.encode("utf-8", "backslashreplace").decode())
    if len(paragraph) > DESCRIPTION_CHARS:
        paragraph = paragraph[:DESCRIPTION_CHARS - 1].rstrip() + "…"
    return paragraph
