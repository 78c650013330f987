"""The viewer as 12 AIs' players and colour-blind viewers found it: a 12-colour
palette with near-twins (yellow/lime, blue/cyan), colour the only cue that told players
apart (a piped `arena replay --turn` printed two Robot Game players as the same digits),
6 px tiles on a 94x94 map with no zoom, debug dots over Robot Game's hp numbers, and
Cave's blue player the colour of water."""
from __future__ import annotations

import itertools
import re
import subprocess

import pytest

from engine.robotgame.rules import rules_from as robotgame_rules
from orchestrator.views import board
from orchestrator.views.replay import write_html
from tests.browser import CHROMIUM, SKIP_REASON, watched_page
from tests.support.cli import arena
from tests.support.paths import ARENA_CMD, ROOT
from tests.support.replays import record

VIEWER = ROOT / "orchestrator" / "views" / "viewer" / "viewer.html"
# Dichromat simulation (Machado, Oliveira and Fernandes 2009, severity 1) on linear RGB.
SIGHTS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
}


def _lab(colour: str, sight: str) -> tuple[float, float, float]:
    """CIELAB (D65) of `colour` as `sight` sees it."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    seen = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True))))
            for row in SIGHTS[sight]]
    xyz = [sum(m * v for m, v in zip(row, seen, strict=True)) for row in (
        (0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))]
    f = [(v / n) ** (1 / 3) if v / n > 0.008856 else 7.787 * v / n + 16 / 116
         for v, n in zip(xyz, (0.95047, 1.0, 1.08883), strict=True)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _distance(a: str, b: str) -> float:
    """The least CIELAB distance between two colours over the four sights."""
    return min(sum((x - y) ** 2 for x, y in zip(_lab(a, s), _lab(b, s), strict=True)) ** 0.5
               for s in SIGHTS)


def _page_colours() -> list[str]:
    found = re.search(r"const COLORS = \[(.*?)\];", VIEWER.read_text(), re.S)
    return re.findall(r'"(#[0-9A-Fa-f]{6})"', found.group(1))


def test_twelve_colours_stay_apart_for_every_sight_and_the_terminal_uses_them() -> None:
    colours = _page_colours()
    assert len(colours) == 12 and colours == board.COLORS
    closest = min(_distance(a, b) for a, b in itertools.combinations(colours, 2))
    assert closest >= 13, closest                 # the old palette's yellow/lime: 2.9
    floor = "#2a2e37"                             # the board's floor: every piece stands out
    assert min(_distance(c, floor) for c in colours) >= 30


def test_a_piped_replay_tells_the_players_apart_by_letter(tmp_path) -> None:
    """Robot Game's pieces are their hp in tens: piped, both players' 5s looked alike."""
    done = arena("run", "--game", "robotgame", "--seed", "4", "--max-turns", "3", "--replay",
                 "r.json.gz", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    shown = arena("replay", "r.json.gz", "--turn", "2", cwd=tmp_path, timeout=120).stdout
    lines = shown.splitlines()
    rows = lines[1:20]                            # the 19x19 board under the header
    assert sum(row.count("A") for row in rows) == sum(row.count("B") for row in rows) > 0
    assert not any(ch.isdigit() for row in rows for ch in row), rows
    assert re.search(r"^A coordinator", shown, re.M) and re.search(r"^B Thinker", shown, re.M)
    assert "uncoloured: its letter" in shown


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_a_94_square_map_zooms_and_robot_game_dots_leave_the_hp_readable(tmp_path) -> None:
    subprocess.run([*ARENA_CMD, "maps", "generate", "--ais", "12", "--seed", "3", "--out",
                    str(tmp_path / "m12.txt")], check=True, capture_output=True, timeout=120)
    samples = sorted((ROOT / "bots" / "arena").glob("*.py"))
    bots = list(itertools.islice(itertools.cycle(samples), 12))
    from engine.arena.rules import rules_from
    data = record("arena", bots, tmp_path / "m12.txt", 2, rules_from("seed", max_turns=3))
    assert data["map"]["size"] == 94
    page_file = write_html(data, tmp_path / "big.html")
    with watched_page() as page:
        page.goto(page_file.as_uri())
        fit = page.evaluate("viewer.cell")
        assert fit <= 8                           # the whole board in 720 px: small tiles
        page.click("#zoomIn")
        page.click("#zoomIn")
        assert page.evaluate("viewer.cell") >= 2 * fit
        page.keyboard.press("+")
        assert page.evaluate("viewer.cell") >= 3 * fit >= 18
        assert page.inner_text("#players").split()[:2] == ["A", data["players"][0]["name"]]
    rg = record("robotgame", [ROOT / "bots/robotgame/thinker.py",
                              ROOT / "bots/robotgame/example.py"],
                ROOT / "maps/robotgame/default.py", 3, robotgame_rules(max_turns=3))
    page_file = write_html(rg, tmp_path / "rg.html")
    with watched_page() as page:
        page.goto(page_file.as_uri())
        frame = next(i for i, entry in enumerate(rg["turns"], 1)
                     if str(entry["turn"]) in rg["debug"]["0"])
        page.evaluate(f"viewer.go({frame})")
        assert page.evaluate("viewer.drawnMarks") > 0
        cell = page.evaluate("viewer.cell")
        # Each dot sits in its square's top right corner: the square's left half, where
        # the piece's letter and hp are written, holds no dot's colour.
        marks = rg["debug"]["0"][str(rg["turns"][frame - 1]["turn"])]
        dots = [[x, y] for x, y, _ in marks["dots"]]
        assert dots
        covered = page.evaluate(f"""(() => {{
            const c = document.getElementById('board').getContext('2d');
            const red = [0xff, 0x40, 0x40], green = [0x40, 0xe0, 0x40];
            let hits = 0;
            for (const [x, y] of {dots!r}) {{
              const d = c.getImageData(x * {cell}, y * {cell}, {cell} / 2, {cell}).data;
              for (let i = 0; i < d.length; i += 4)
                for (const k of [red, green])
                  if (d[i] === k[0] && d[i + 1] === k[1] && d[i + 2] === k[2]) hits += 1;
            }}
            return hits; }})()""")
        assert covered == 0


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_caves_water_is_a_symbol_not_a_square_of_a_bots_blue(tmp_path) -> None:
    """A bot is a filled square of its colour; water (and every other thing) is its symbol
    on the floor, so a blue bot is never the same mark as water."""
    from engine.cave.rules import rules_from as cave_rules
    from orchestrator.replay import file as replay
    cave = ROOT / "bots" / "cave"
    data = record("cave", [cave / "forager.py", cave / "wanderer.py"],
                  ROOT / "maps" / "cave" / "generated.txt", 3, cave_rules(max_turns=2))
    state = dict(replay.frames(data))[0]
    water = [(r, c) for r, line in state["squares"].values() for c, ch in enumerate(line)
             if ch == "W"]
    assert water
    with watched_page() as page:
        page.goto(write_html(data, tmp_path / "cave.html").as_uri())
        cell = page.evaluate("viewer.cell")
        corners = page.evaluate(f"""(() => {{
            const c = document.getElementById('board').getContext('2d');
            return {[[r, c] for r, c in water]!r}.map(([r, col]) => Array.from(
              c.getImageData(col * {cell} + 1, r * {cell} + 1, 1, 1).data.slice(0, 3)));
        }})()""")
    assert all(rgb != [0x3f, 0x7f, 0xd9] for rgb in corners), corners
