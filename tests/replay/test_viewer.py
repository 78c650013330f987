"""The HTML viewer in headless Chromium, driven by Playwright (Debian's chromium; the
Makefile installs it). It loads real replays and is checked through what it draws."""
from __future__ import annotations

import pytest

from engine.arena.rules import rules_from
from engine.robotgame.rules import rules_from as robotgame_rules
from orchestrator.replay import file as replay
from orchestrator.views.replay import write_html
from tests.browser import ARGS, CHROMIUM, SKIP_REASON
from tests.support.paths import BOTS, MAPS, ROOT
from tests.support.replays import record

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
# One pytest-xdist worker for the module: its module-scoped fixtures (a ladder, a browser,
# a recorded match) would be made again on each worker that drew one of its tests.
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON),
              pytest.mark.xdist_group("replay-viewer")]


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser, tmp_path):
    pages = []

    def opener(data: dict, fake_clock: bool = False):
        html = write_html(data, tmp_path / f"r{len(pages)}.html")
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        if fake_clock:              # timers run when the test says, whatever the load
            page.clock.install()
        page.errors = []
        page.dialogs = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(html.as_uri())
        pages.append(page)
        return page
    yield opener
    for page in pages:
        page.close()


def alive_at(data: dict, turn: int) -> int:
    for t, state in replay.frames(data):
        if t == turn:
            if data["game"] == "arena":
                return sum(1 for row in state["robots"].values() if row[7] == 0)
            return len(state["robots"])
    raise AssertionError(turn)


@pytest.fixture(scope="module")
def arena_replay() -> dict:
    return record("arena", [BOTS / n for n in ("hunter.py", "turtle.py", "beeline.py",
                                               "randy.py")], MAPS / "quad.txt", 4,
                  rules_from("seed", robots_per_type=20, max_turns=120))


def test_the_canvas_draws_every_robot_on_turn_0_and_later(open_page, arena_replay) -> None:
    page = open_page(arena_replay)
    assert page.evaluate("viewer.turn") == 0
    assert page.evaluate("viewer.drawnRobots") == alive_at(arena_replay, 0) == 80
    page.evaluate("viewer.go(60)")
    assert page.evaluate("viewer.drawnRobots") == alive_at(arena_replay, 60) < 80
    assert page.errors == []


def test_keys_step_forward_and_back_and_the_log_follows(open_page, arena_replay) -> None:
    page = open_page(arena_replay)
    log0 = page.inner_text("#log")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("viewer.turn") == 1
    log1 = page.inner_text("#log")
    assert log1 != log0 and "laser shots" in log1
    page.keyboard.press(".")
    page.keyboard.press(".")
    assert page.evaluate("viewer.turn") == 3
    page.keyboard.press(",")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("viewer.turn") == 1
    assert page.inner_text("#log") == log1
    page.keyboard.press("End")
    assert page.evaluate("viewer.turn") == len(arena_replay["turns"])
    assert page.inner_text("#turnLabel") == "turn 120 / 120"


def test_clicking_a_robot_shows_its_panel(open_page, arena_replay) -> None:
    page = open_page(arena_replay)
    page.evaluate("viewer.go(10)")
    robot = page.evaluate("viewer.robots(10)[3]")
    x, y = page.evaluate(f"viewer.cellCenter({robot['r']}, {robot['c']})")
    page.mouse.click(x, y)
    panel = page.inner_text("#robot")
    names = [p["name"] for p in arena_replay["players"]]
    assert f"robot {robot['id']} of {names[robot['player']]}" in panel
    assert f"life     {robot['life']}" in panel and f"flags    {robot['flags']}" in panel
    assert f"charges  {robot['charges']}" in panel
    assert "facing   " + "NESW"[robot["facing"]] in panel


def test_a_hostile_bot_name_runs_no_script(open_page, tmp_path) -> None:
    evil = tmp_path / "evil.py"
    evil.write_text("from roborally.api import *\nname = '</script><script>alert(1)</script>'\n"
                    "def move():\n    print('<img src=x onerror=alert(2)>')\n    return FORWARD\n")
    data = record("arena", [evil, BOTS / "turtle.py"], MAPS / "tiny.txt", 1,
                  rules_from("seed", robots_per_type=2, max_turns=5))
    page = open_page(data)
    page.evaluate("viewer.go(3)")
    assert page.dialogs == [] and page.errors == []
    assert "</script><script>alert(1)</script>" in page.inner_text("#players")
    page.click("#outputs summary")
    assert "<img src=x onerror=alert(2)>" in page.inner_text("#outputs")
    assert page.evaluate("document.images.length") == 0


def test_a_robot_game_replay_renders(open_page) -> None:
    rg = ROOT / "bots" / "robotgame"
    data = record("robotgame", [rg / "coordinator.py", rg / "rusher.py"],
                  ROOT / "maps" / "robotgame" / "default.py", 5, robotgame_rules())
    page = open_page(data)
    page.evaluate("viewer.go(50)")
    assert page.evaluate("viewer.drawnRobots") == alive_at(data, 50) > 0
    assert "coordinator" in page.inner_text("#log") or "rusher" in page.inner_text("#log")
    assert page.errors == []


def test_an_official_1000_turn_replay_opens_and_plays_30_turns_a_second(open_page) -> None:
    """Played at the speed chosen, on Playwright's fake clock: 2 s of page time are 60
    turns at 30 a second, on a loaded machine too. How fast the viewer can draw is a
    benchmark (bench/replay_bench.py), not a test."""
    bots = [BOTS / n for n in ("hunter.py", "turtle.py", "beeline.py", "randy.py")] * 2
    data = record("arena", bots, MAPS / "official.txt", 2, rules_from("seed"))
    assert len(data["turns"]) == 1000
    page = open_page(data, fake_clock=True)
    assert page.evaluate("viewer.drawnRobots") == 320
    page.evaluate("viewer.go(0)")
    page.select_option("#speed", "30")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)   # page time moves only below
    page.keyboard.press(" ")
    page.clock.run_for(2000)
    page.keyboard.press(" ")
    played = page.evaluate("viewer.turn")
    assert 59 <= played <= 61, f"{played} turns in 2 s at 30 turns/s"
    page.clock.run_for(1000)
    assert page.evaluate("viewer.turn") == played          # paused: no more turns
    assert page.errors == []


def test_a_cave_replay_renders_the_cavern_and_its_bots(open_page) -> None:
    from engine.cave.rules import rules_from as cave_rules
    cave = ROOT / "bots" / "cave"
    data = record("cave", [cave / "forager.py", cave / "miner.sh", cave / "wanderer.py"],
                  ROOT / "maps" / "cave" / "generated.txt", 3, cave_rules(max_turns=12))
    page = open_page(data)
    page.evaluate("viewer.go(6)")
    alive = sum(1 for row in dict(replay.frames(data))[6]["bots"].values() if row[5])
    assert page.evaluate("viewer.drawnRobots") == alive > 0
    assert "forager:" in page.inner_text("#log")
    # The cavern is painted: gold squares are drawn in their colour somewhere.
    assert page.evaluate("""(() => { const c = document.getElementById('board');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4)
          if (d[i] === 0xe8 && d[i + 1] === 0xc5 && d[i + 2] === 0x47) return true;
        return false; })()""")
    legend = page.inner_text("#legend")          # what each colour means
    for meaning in ("gold", "lion", "centipede", "Nurse Nina", "boulder"):
        assert meaning in legend
    assert page.errors == []


def test_a_race_replay_draws_belts_lasers_and_reboots(open_page) -> None:
    from engine.race.rules import rules_from as race_rules
    race = ROOT / "bots" / "race"
    data = record("race", [race / "planner.py", race / "sprinter.py", race / "random_bot.py"],
                  ROOT / "maps" / "race" / "seed.json", 5, race_rules(max_turns=8))
    page = open_page(data)
    rounds = [i for i, entry in enumerate(data["turns"], start=1)
              if any(reg["reboots"] for reg in entry["events"].get("registers", []))]
    assert rounds, "no reboot in these 8 rounds: pick another seed"
    page.evaluate(f"viewer.go({rounds[0]})")
    assert page.evaluate("viewer.drawnRobots") == 3
    log = page.inner_text("#log")
    assert "register 1:" in log and "fell off and rebooted" in log
    # belts are painted (a single belt's green), and lasers cross the floor (their red at
    # 60 % over the floor's #2a2e37 is about (170, 66, 70), which no bot or cell is)
    assert page.evaluate("""(() => { const c = document.getElementById('board');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let belt = false, laser = false;
        for (let i = 0; i < d.length; i += 4) {
          if (d[i] === 0x3a && d[i + 1] === 0x4a && d[i + 2] === 0x2a) belt = true;
          if (Math.abs(d[i] - 170) < 3 && Math.abs(d[i + 1] - 66) < 3 &&
              Math.abs(d[i + 2] - 70) < 3) laser = true;
        }
        return belt && laser; })()""")
    assert page.errors == []


def test_the_position_button_copies_the_command_that_saves_the_shown_turn(
        browser, tmp_path) -> None:
    """The page names the replay file it was written from; at turn 5 its button copies
    `arena replay FILE --turn 5 --save-position ...`, and that command writes a position
    a match starts from."""
    import subprocess
    import sys

    from orchestrator.replay import position as positions
    from tests.positions.support import lineup, recorded
    path, _ = recorded("toy", str(tmp_path))
    html = write_html(replay.load(path), tmp_path / "page.html", path)
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(html.as_uri())
    page.evaluate("viewer.go(5)")
    page.click("#position")
    page.wait_for_function("document.getElementById('positionCopied').textContent !== ''")
    command = f"arena replay {path} --turn 5 --save-position toy-turn5.json"
    assert page.text_content("#positionCommand") == command
    if page.text_content("#positionCopied") == "copied":
        assert page.evaluate("navigator.clipboard.readText()") == command
    assert errors == []
    context.close()
    done = subprocess.run([sys.executable, "-m", "orchestrator", *command.split()[1:]],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    saved = positions.read(tmp_path / "toy-turn5.json")
    assert saved["turn"] == 5 and saved["game"] == "toy" and lineup("toy")


def test_the_position_command_quotes_an_odd_file_name(browser, arena_replay, tmp_path) -> None:
    """A file name with a space, a quote or a template marker is quoted as a shell reads
    it, and a page written without a file (a notebook's, the ladder's) says REPLAY."""
    odd = "my runs/it's __REPLAY_JSON__.json.gz"
    for source, expected in ((odd, "'my runs/it'\\''s __REPLAY_JSON__.json.gz'"),
                             (None, "REPLAY.json.gz")):
        html = write_html(arena_replay, tmp_path / "odd.html", source)
        page = browser.new_page()
        page.goto(html.as_uri())
        assert page.evaluate("viewer.positionCommand(3)") == \
            f"arena replay {expected} --turn 3 --save-position arena-turn3.json"
        page.close()
