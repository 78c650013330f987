"""The `arena` command as a user meets it: output contracts, errors, and Ctrl-C."""
from __future__ import annotations

import json
import signal
import subprocess

import psutil
import pytest

from tests.support.cli import arena
from tests.support.paths import ARENA_CMD, BOTS, ROOT
from tests.support.processes import default_sigint
from tests.support.waiting import wait_until


def test_run_json_contract() -> None:
    done = arena("run", "--json", "--seed", "3", "--robots", "5", "--max-turns", "30",
                 code=0, forked=True)
    result = json.loads(done.stdout)          # exactly one JSON object, nothing else
    assert {"game", "engine_version", "seed", "map", "turns", "end", "winner", "runner_up",
            "restarts", "players", "replay"} <= set(result)
    assert result["seed"] == 3 and result["game"] == "arena" and result["map"] == "quad"
    assert len(result["players"]) == 5         # the four samples and Thinker
    for player in result["players"]:
        assert {"name", "bot", "sha256", "rank", "status", "reason", "turn", "overheats",
                "cpu_s", "peak_rss_mb", "stats"} <= set(player)
        assert {"max_flags", "total_flags", "alive", "last_alive_turn"} <= set(player["stats"])
    again = json.loads(arena("run", "--json", "--seed", "3", "--robots", "5", "--max-turns",
                             "30", code=0, forked=True).stdout)
    drop = lambda r: [{k: v for k, v in p.items() if k not in ("cpu_s", "own_s", "peak_rss_mb")}
                      for p in r["players"]]
    assert drop(again) == drop(result)


def test_run_prints_table_winner_and_drawn_seed() -> None:
    done = arena("run", "--robots", "4", "--max-turns", "20", code=0, forked=True)
    assert "Winner:" in done.stdout and "Runner-up:" in done.stdout
    assert "Beeline" in done.stdout and "Hunter" in done.stdout
    assert "seed" in done.stderr
    assert "arena: 5 AIs on quad.txt" in done.stderr
    alone = arena("run", "hunter", "--max-turns", "2", "--sandbox", "off", code=0, forked=True)
    assert "arena: 1 AI on quad.txt" in alone.stderr, alone.stderr


@pytest.mark.parametrize("args,message", [
    (["run", "--map", "tests/arena/data/bad_symbol.txt"],
     "error: tests/arena/data/bad_symbol.txt:3:6: unknown map symbol 'x'"),
    (["run", "--map", "tests/arena/data/flag_gap.txt"],
     "error: tests/arena/data/flag_gap.txt: flag 2 is missing"),
    (["run", "--map", "tests/arena/data/empty.txt"],
     "error: tests/arena/data/empty.txt: the map is empty"),
    (["run", "--map", "nowhere"], "error: nowhere: map not found"),
    (["run", "missing_bot.py"], "error: missing_bot.py: bot file not found"),
    (["run", "elsewhere/bots/arena/hunter.py"], "error: elsewhere/bots/arena/hunter.py: bot "
     "file not found (the bundled arena sample `hunter` is given by its name alone)"),
    (["run", "--bogus"], "error: No such option '--bogus'"),
    (["run", "--rules", "v7"], "error: unknown rules preset 'v7'"),
    (["run", "--game", "chess"], "error: unknown game 'chess'"),
    (["run", "--sandbox", "maybe"], "error: unknown --sandbox mode 'maybe'"),
    (["run", "--map", "tiny", "--robots", "50"],
     "error: tiny: map too small: 5 AIs x 50 robots need 250 free tiles, the map has 172"),
    (["maps", "validate", "tests/arena/data/bad_symbol.txt"],
     "error: tests/arena/data/bad_symbol.txt:3:6"),
    (["scenario", "tests/arena/data/bad_symbol.txt"], "invalid JSON"),
])
def test_bad_input_is_one_error_line_and_exit_2(args, message) -> None:
    done = arena(*args, forked=True)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], lines
    assert "Traceback" not in done.stderr


def test_original_style_map_loads_unchanged() -> None:
    done = arena("maps", "validate", "maps/arena/classic.txt", "maps/arena/official.txt",
                 code=0, forked=True)
    assert "ok: maps/arena/classic.txt: 30x30, 6 flags" in done.stdout


def test_maps_generate_fits_density(tmp_path) -> None:
    out = tmp_path / "gen.txt"
    arena("maps", "generate", "--ais", "6", "--seed", "2", "--out", str(out), code=0, forked=True)
    done = arena("maps", "validate", str(out), code=0, forked=True)
    size = int(done.stdout.split(": ")[2].split("x")[0])
    assert 0.05 <= 6 * 40 / size ** 2 <= 0.06
    text = out.read_text()
    assert all(sym in text for sym in "#&{}") and any(s in text for s in "<>^v")
    assert sorted(c for c in text if c.isdigit()) == list("12345678")
    again = tmp_path / "again.txt"
    arena("maps", "generate", "--ais", "6", "--seed", "2", "--out", str(again), code=0, forked=True)
    assert again.read_text() == text


def test_ctrl_c_leaves_no_process(tmp_path) -> None:
    proc = subprocess.Popen(ARENA_CMD + ["run", "--map", "official", "--seed", "1",
                                         *[str(BOTS / b) for b in ("hunter.py", "turtle.py")] * 4],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    parent = psutil.Process(proc.pid)
    wait_until(lambda: len(parent.children(recursive=True)) >= 9, 30,
               "its zygote and 8 AI processes")
    kids = parent.children(recursive=True)
    assert len(kids) == 9, "the match did not start its zygote and 8 AI processes"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "error: interrupted; every bot process was stopped"
    gone, alive = psutil.wait_procs(kids, timeout=5)
    assert not alive, f"left running: {alive}"


def test_ctrl_c_while_arena_starts_is_one_line_too() -> None:
    """Ctrl-C as the launcher has started the sandbox's zygote, its first act, lands
    while arena imports (about 0.4 s more): once a traceback and a death by SIGINT, now
    the same line and status as during a match. (Before the launcher runs, the
    interpreter itself starts: no program can answer a Ctrl-C there.)"""
    proc = subprocess.Popen(ARENA_CMD + ["run", "--map", "official", "--seed", "1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    parent = psutil.Process(proc.pid)
    wait_until(parent.children, 30, "the sandbox's zygote", every=0.005)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == "error: interrupted; every bot process was stopped"


def test_killed_host_takes_its_children_along() -> None:
    """SIGKILL gives the host no chance to clean up: the parent-death signal does it."""
    proc = subprocess.Popen(ARENA_CMD + ["run", "--map", "official", "--seed", "1",
                                         *[str(BOTS / "turtle.py")] * 8],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parent = psutil.Process(proc.pid)
    wait_until(lambda: len(parent.children()) >= 9, 30, "its zygote and 8 AI processes")
    kids = parent.children(recursive=True)
    assert len(kids) == 9, "the match did not start its zygote and 8 AI processes"
    proc.kill()
    proc.wait()
    gone, alive = psutil.wait_procs(kids, timeout=5)
    assert not alive
