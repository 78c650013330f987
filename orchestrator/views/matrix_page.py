"""`arena results DB --matrix --html FILE`: the matchup matrix as one self-contained page
(viewer/matrix.html: no network, no build step), a heat map per map or seat with `--by`.

The report goes in as JSON inside a <script type="application/json"> block with `<`, `>`
and `&` escaped (replay_view.embed), and the page's script sets every bot name as
textContent only, so a bot named `<img src=x onerror=...>` stays text."""
from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from engine import InputError
from orchestrator import host_files
from orchestrator.views.replay import embed, with_policy


def seeds_as_text(value: Any) -> Any:
    """The report with every `seed` as text: drawn seeds are 63-bit, past what a
    JavaScript number holds exactly."""
    if isinstance(value, dict):
        return {key: str(item) if key == "seed" and isinstance(item, int)
                else seeds_as_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [seeds_as_text(item) for item in value]
    return value


def page(report: dict) -> str:
    """The page of one matrix report (orchestrator/service/matchups.py's `matrix`)."""
    template = resources.files("orchestrator").joinpath("views/viewer/matrix.html").read_text()
    return with_policy(template.replace("__MATRIX_JSON__", embed(seeds_as_text(report))))


def write_page(report: dict, target: Path) -> Path:
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        host_files.write_file(target, page(report).encode("utf-8"))
    except OSError as exc:
        raise InputError(f"{target}: cannot write the page ({exc.strerror})") from None
    return Path(target)
