"""Cavern files: `generate` (drawn from the match seed, sized for the bots), or the rows of
a fixed cavern in the view's symbols (spec/cave.md), as `arena maps generate` writes."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine import InputError
from engine.cave.match import Cavern
from engine.cave.scenario import parse_cavern
from engine.textfile import map_text

GENERATE = "generate"


@dataclass
class CaveMap:
    """A cavern file: `rows` None means generated from each match's seed."""

    name: str
    rows: list[str] | None = None

    def cavern(self) -> Cavern:
        return parse_cavern(self.rows, self.name)


def parse_map(text: str, name: str) -> CaveMap:
    """A cavern file's text; `#` starts a comment line. Errors name the file and row."""
    numbered = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.lstrip().startswith("#")]
    rows = [row for _, row in numbered]
    stem = Path(name).stem
    if rows == [GENERATE]:
        return CaveMap(stem)
    if not rows:
        raise InputError(f"{name}: no cavern rows (a line starting with # is a comment): "
                         f"write `{GENERATE}` or the cavern's rows")
    parse_cavern(rows, name, [number for number, _ in numbered])
    return CaveMap(stem, rows)


def load_map(path: Path) -> CaveMap:
    try:
        text = map_text(path)
    except FileNotFoundError:
        raise InputError(f"{path}: cavern file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the cavern file ({exc})") from None
    return parse_map(text, str(path))
