"""Replay files: the state they rebuild is the engine's, the same seed gives the same bytes,
every game shares the envelope, and an official-size match stays small."""
from __future__ import annotations

import gzip
import json

import pytest

from engine.arena.rules import rules_from
from engine.robotgame.rules import rules_from as robotgame_rules
from orchestrator.games import get_game
from orchestrator.replay import file as replay
from orchestrator.views.replay import embed, page
from tests.support.cli import arena
from tests.support.paths import BOTS, MAPS, ROOT
from tests.support.replays import record

RG = ROOT / "bots" / "robotgame"
HOSTILE_NAME = "</script><script>alert(1)</script>"


def test_the_replay_rebuilds_every_turn_of_the_engine() -> None:
    engine_frames: list = []
    data = record("arena", [BOTS / "hunter.py", BOTS / "turtle.py", BOTS / "beeline.py"],
                  MAPS / "tiny.txt", 3, rules_from("seed", robots_per_type=4, max_turns=40),
                  engine_frames)
    rebuilt = [state for _, state in replay.frames(data)]
    assert len(rebuilt) == len(engine_frames) + 1 == data["result"]["turns"] + 1
    assert rebuilt[1:] == engine_frames
    assert [entry["turn"] for entry in data["turns"]] == list(range(1, len(engine_frames) + 1))
    events = [entry["events"] for entry in data["turns"]]
    assert any(e["hits"] for e in events) and any(e["moves"] for e in events)
    assert {"moves", "overheats", "shots", "hits", "pushed", "fell", "exploded", "scored"} \
        == set(events[0])


def test_the_same_seed_gives_the_same_file(tmp_path) -> None:
    files = []
    for name in ("a", "b"):
        target = tmp_path / f"{name}.json.gz"
        done = arena("run", "--map", "tiny", "--seed", "9", "--robots", "4", "--max-turns", "60",
                     "--replay", str(target), "--json", timeout=120)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["replay"] == str(target)
        files.append(target.read_bytes())
    assert files[0] == files[1]
    data = json.loads(gzip.decompress(files[0]))
    assert data["format"] == "robot-arena-replay" and data["schema"] == 2
    assert {"engine_version", "game", "rules", "seed", "map", "players", "seats", "initial",
            "turns", "marks", "result", "output"} <= set(data)
    assert data["seats"] == list(range(len(data["players"])))    # nobody erased
    assert all({"name", "bot", "sha256"} == set(p) for p in data["players"])


def test_both_games_share_the_envelope() -> None:
    arena = record("arena", [BOTS / "randy.py", BOTS / "turtle.py"], MAPS / "tiny.txt", 1,
                   rules_from("seed", robots_per_type=2, max_turns=5))
    robotgame = record("robotgame", [RG / "rusher.py", RG / "survivor.py"],
                       ROOT / "maps" / "robotgame" / "default.py", 1,
                       robotgame_rules(max_turns=20))
    assert set(arena) == set(robotgame)
    assert robotgame["game"] == "robotgame" and len(robotgame["turns"]) == 20
    assert robotgame["turns"][1]["events"]["actions"], "robots act from turn 1"


def test_erases_are_marked_on_the_timeline() -> None:
    data = record("arena", [BOTS / "turtle.py", ROOT / "tests" / "hostile" / "segfault.py"],
                  MAPS / "tiny.txt", 1, rules_from("seed", robots_per_type=2, max_turns=5))
    assert data["marks"] == [{"turn": 1, "kind": "erased", "player": "Segfault",
                              "reason": "crash: killed by SIGSEGV"}]


def test_an_official_size_match_of_1000_turns_is_under_5_mb() -> None:
    bots = [BOTS / n for n in ("hunter.py", "turtle.py", "beeline.py", "randy.py")] * 2
    data = record("arena", bots, MAPS / "official.txt", 2, rules_from("seed"))
    assert data["result"]["turns"] == 1000 and len(data["players"]) == 8
    assert sum(1 for row in data["initial"]["robots"]) == 320
    size = len(replay.encode(data))
    assert size < 5 * 2**20, f"{size} bytes"


def test_hostile_names_stay_text_in_the_page() -> None:
    data = {"name": HOSTILE_NAME, "output": "</SCRIPT>&<!--"}
    text = embed(data)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == data
    html = page({"format": "x", "players": [{"name": HOSTILE_NAME}]})
    assert HOSTILE_NAME not in html and html.count("</script>") == 3   # data, source, code


def test_terminal_replay_prints_a_turn(tmp_path) -> None:
    target = tmp_path / "t.json.gz"
    replay.save(record("robotgame", [RG / "rusher.py", RG / "example.py"],
                       ROOT / "maps" / "robotgame" / "default.py", 2,
                       robotgame_rules(max_turns=15)), target)
    done = arena("replay", str(target), "--turn", "12", timeout=60)
    assert done.returncode == 0, done.stderr
    assert "turn 12/15" in done.stdout and "rusher" in done.stdout and "robots" in done.stdout
    bad = arena("replay", str(target), "--turn", "99", timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --turn 99")
    missing = arena("replay", str(tmp_path / "nope.json.gz"), timeout=60)
    assert missing.returncode == 2 and "replay file not found" in missing.stderr


@pytest.mark.parametrize("flag", ["--replays"])
def test_batch_keeps_a_replay_per_match(flag, tmp_path) -> None:
    db = tmp_path / "b.sqlite"
    done = arena("batch", str(BOTS / "randy.py"), str(BOTS / "turtle.py"), "--seeds", "3", "--map",
                 "tiny", "--robots", "2", "--max-turns", "10", "--db", str(db), flag, timeout=120)
    assert done.returncode == 0, done.stderr
    kept = sorted((tmp_path / "replays").glob("*.json.gz"))
    assert len(kept) == 3
    assert all(replay.load(path)["result"]["turns"] <= 10 for path in kept)


@pytest.mark.parametrize(("game", "bots", "map_file", "seen"), [
    # the cavern's gold is drawn
    ("cave", ["forager.py", "miner.sh"], "cave/generated.txt", ["forager", "gold", "G"]),
    # belts, the antenna, and the race's own columns
    ("race", ["planner.py", "cautious.py"], "race/seed.json", ["planner", "reboots", "↑", "A"]),
])
def test_terminal_replay_draws_a_turn_of_each_game(tmp_path, game, bots, map_file,
                                                    seen) -> None:
    found = get_game(game)
    target = tmp_path / "g.json.gz"
    replay.save(record(game, [ROOT / "bots" / game / b for b in bots], ROOT / "maps" / map_file,
                       2, found.rules(found.presets[0], max_turns=6)), target)
    done = arena("replay", str(target), "--turn", "4", timeout=60)
    assert done.returncode == 0, done.stderr
    assert "turn 4/" in done.stdout
    for text in seen:
        assert text in done.stdout, text
