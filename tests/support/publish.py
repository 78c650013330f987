"""A bot whose name and description are hostile text (markup, a terminal escape), for the
results site's tests."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# Text no page may show as markup or pass to a terminal: a script, a handler, an OSC 52
# clipboard write and a colour escape.
HOSTILE_NAME = "<script>alert(1)</script>\x1b[31mX"
HOSTILE_ABOUT = "<img src=x onerror=alert(2)> strategy \x1b]52;c;aGk=\x07 & </pre>"


def hostile_bot(folder: Path) -> Path:
    """Randy (moves at random), renamed and described with hostile text."""
    body = (REPO / "bots/arena/randy.py").read_text().split('"""', 2)[2]
    body = body.replace("name = 'Randy'", "")
    path = folder / "hostile.py"
    path.write_text(f'"""{HOSTILE_ABOUT}"""\n{body}\nname = {HOSTILE_NAME!r}\n')
    return path
