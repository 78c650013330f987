"""Robot Game's rules as scenario files (tests/robotgame/scenarios/), played through the
real engine by `arena scenario --game robotgame`, and scenario files as untrusted input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import InputError
from engine.robotgame import scenario as engine_scenario
from orchestrator.games import get_game
from tests.support.cli import arena
from tests.support.scenarios import check_expected

HERE = Path(__file__).parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))
GAME = get_game("robotgame")
TWO = [{"location": [5, 5], "hp": 50, "player_id": 0, "robot_id": 0},
       {"location": [6, 5], "hp": 50, "player_id": 1, "robot_id": 1}]


def run(data: dict) -> dict:
    return GAME.scenario(data, "test.json")


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    check_expected(run(data), data["expect"], "robots", ("turn", "end", "players"))


def test_scenario_command_json_shape() -> None:
    """`arena scenario --game robotgame FILE --json`: one JSON object; its robots in the
    position's shape (plus the id the file's actions and expect use, and alive)."""
    path = HERE / "scenarios" / "suicide_hurts_adjacent_enemies_only.json"
    done = arena("scenario", "--game", "robotgame", str(path), "--json")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert set(state) == {"turn", "end", "robots", "players"}
    assert [set(robot) for robot in state["robots"]] == [
        {"id", "location", "hp", "player_id", "robot_id", "alive"}] * 5
    assert set(state["players"][0]) == {"player_id", "robots", "invalid"}
    check_expected(state, json.loads(path.read_text())["expect"], "robots", ("turn", "end"))
    table = arena("scenario", "--game", "robotgame", str(path)).stdout
    assert "location" in table and "[6, 5]" in table and "invalid" in table


def test_attack_damage_is_drawn_from_the_seed() -> None:
    """rgkit's 8 to 10 per attack: every value occurs, and a seed gives the same draw. (The
    target attacks too: an unscripted robot guards, and a guard halves the damage.)"""
    data = {"robots": TWO, "actions": [{"0": ["attack", [6, 5]], "1": ["attack", [7, 5]]}]}

    def hp(seed: int) -> int:
        return run(dict(data, seed=seed))["robots"][1]["hp"]

    drawn = [hp(seed) for seed in range(30)]
    assert set(drawn) == {40, 41, 42}
    assert drawn == [hp(seed) for seed in range(30)]


def test_the_final_state_is_a_position_to_go_on_from() -> None:
    """The state's alive robots, without id and alive, are the position's robots: two
    turns from one file end where one turn, then one more from its state, end."""
    rules = {"attack_min": 9, "attack_max": 9}
    turns = [{"0": ["attack", [6, 5]], "1": ["move", [6, 4]]},
             {"0": ["move", [6, 5]], "1": ["attack", [6, 5]]}]
    both = run({"rules": rules, "robots": TWO, "actions": turns})
    first = run({"rules": rules, "robots": TWO, "actions": turns[:1]})
    position = [{k: v for k, v in r.items() if k not in ("id", "alive")}
                for r in first["robots"] if r["alive"]]
    then = run({"rules": rules, "turn": first["turn"], "robots": position,
                "actions": turns[1:]})
    assert then["robots"] == both["robots"] and then["turn"] == both["turn"] == 3
    assert both["robots"][0]["location"] == [6, 5] and both["robots"][0]["hp"] == 41


def test_a_robot_can_be_scripted_only_while_on_the_board() -> None:
    """A spawned robot is scripted by its id from the turn after its spawn; a dead one
    cannot be."""
    data = {"turn": 0, "robots": TWO, "seed": 2,
            "actions": [{"0": ["suicide"]}, {"2": ["guard"], "11": ["guard"]}]}
    state = run(data)
    assert state["turn"] == 2 and len([r for r in state["robots"] if r["alive"]]) == 11
    data["actions"].append({"0": ["guard"]})
    with pytest.raises(InputError, match=r"actions\[2\] \(turn 2\): no robot '0' is on"):
        run(data)


def test_the_engine_alone_needs_the_map_in_the_file() -> None:
    """Without the registry (no bundled maps), a map name is an error; a map object runs."""
    with pytest.raises(InputError, match="give the map as an object"):
        engine_scenario.run({"robots": TWO})
    state = engine_scenario.run({"map": {"spawn": [], "obstacle": []}, "robots": TWO,
                                 "rules": {"spawn_per_player": 0}})
    assert state["turn"] == 1 and len(state["robots"]) == 2


BAD = [
    ([], "a scenario is a JSON object"),
    ({"map": "../../etc/passwd"}, "not a bundled Robot Game map"),
    ({"map": 7}, "'map' must be a bundled map's name or an object"),
    ({"map": {"spawn": [[1, 1]], "obstacle": [[1, 1]]}}, "also an obstacle"),
    ({"map": {"spawn": [[30, 1]], "obstacle": []}}, "off the 19x19 board"),
    ({"rules": {"spawn_every": 0}}, "'spawn_every' must be a whole number from 1"),
    ({"rules": {"robot_hp": 40000}}, "'robot_hp' must be a whole number from 1 to 32767"),
    ({"rules": {"attack_min": 11}}, "'attack_min' is over 'attack_max'"),
    ({"rules": {"board_size": 20}}, "'board_size' must be a whole number from 2 to 19"),
    ({"map": {"spawn": [[x, y] for x in range(19) for y in range(19)], "obstacle": []},
      "rules": {"spawn_per_player": 180, "spawn_every": 1}, "turn": 0, "actions": [{}] * 200},
     r"actions\[91\] \(turn 91\): its spawn would number robots past 32767"),
    ({"robots": [dict(TWO[0], robot_id=32767)], "turn": 9, "actions": [{}, {}]},
     r"actions\[1\] \(turn 10\): its spawn would number robots past 32767"),
    ({"rules": {"colour": 1}}, "unknown rule 'colour'"),
    ({"rules": {"preset": ["x"]}}, "unknown rules preset"),
    ({"rules": []}, "'rules' must be an object"),
    ({"seed": "x"}, "'seed' must be an integer"),
    ({"turn": 100}, "'turn' must be a whole number from 0 to 99"),
    ({"turn": True}, "'turn' must be a whole number"),
    ({"robots": {}}, "'robots' must be a list of at most 361 robots"),
    ({"robots": [{"location": [0, 0]}] * 362}, "at most 361 robots"),
    ({"robots": ["x"]}, "robot 1: must be an object"),
    ({"robots": [dict(TWO[0], location=[0, 0])]}, r"\[0, 0\] is off the 19x19 board or an "
                                                   r"obstacle"),
    ({"robots": [dict(TWO[0], location=[5, 25])]}, "off the 19x19 board"),
    ({"robots": [dict(TWO[0], location=(5, 5, 5))]}, "'location' must be"),
    ({"robots": [TWO[0], dict(TWO[1], location=[5, 5])]}, r"robot 2: \[5, 5\] already holds"),
    ({"robots": [TWO[0], dict(TWO[1], robot_id=0)]}, "robot 2: robot_id 0 is used twice"),
    ({"robots": [dict(TWO[0], hp=51)]}, "'hp' must be a whole number from 1 to 50"),
    ({"robots": [dict(TWO[0], hp=0)]}, "'hp' must be a whole number from 1 to 50"),
    ({"robots": [dict(TWO[0], player_id=2)]}, "'player_id' must be a whole number from 0 "
                                               "to 1"),
    ({"robots": [dict(TWO[0], robot_id=40000)]}, "'robot_id' must be a whole number"),
    ({"robots": [{"location": [5, 5], "player_id": 0}]}, "'robot_id' must be"),
    ({"robots": [dict(TWO[0], life=3)]}, "unknown field 'life'"),
    ({"robots": TWO, "actions": {}}, "'actions' must be a list of at most 200 turns"),
    ({"robots": TWO, "actions": [{}] * 201}, "at most 200 turns"),
    ({"robots": TWO, "actions": [[]]}, r"actions\[0\] \(turn 1\): must be an object"),
    ({"robots": TWO, "actions": [{"7": ["guard"]}]}, "no robot '7' is on the board"),
    ({"robots": TWO, "actions": [{"0": "guard"}]}, "an action is"),
    ({"robots": TWO, "actions": [{"0": ["fly"]}]}, "an action is"),
    ({"robots": TWO, "actions": [{"0": [["guard"]]}]}, "an action is"),
    ({"robots": TWO, "actions": [{"0": ["move"]}]}, r"move needs a location \[x, y\]"),
    ({"robots": TWO, "actions": [{"0": ["attack", [1.5, 2]]}]}, "attack needs a location"),
    ({"robots": TWO, "actions": [{"0": ["guard", [5, 4]]}]}, "guard takes no location"),
]


@pytest.mark.parametrize("data, message", BAD, ids=[m[:40] for _, m in BAD])
def test_bad_scenarios_are_one_input_error(data, message) -> None:
    with pytest.raises(InputError, match=message):
        run(data)


@pytest.mark.parametrize("data", [{"rules": {"preset": "x" * 100_000}},
                                  {"rules": {"x" * 100_000: 1}},
                                  {"rules": {"robot_hp": "x" * 100_000}},
                                  {"map": {"spawn": ["\x1b[31m" * 10_000], "obstacle": []}}],
                         ids=["preset", "rule name", "rule value", "map square"])
def test_an_error_quoting_the_file_is_a_line_long(data) -> None:
    with pytest.raises(InputError) as caught:
        run(data)
    assert len(str(caught.value)) <= 303 and "\n" not in str(caught.value)


FILES = {"deep": (b"[" * 100_000, "nested too deep"),
         "long number": (b'{"seed": 1' + b"1" * 5000 + b"}", "a number too long"),
         "large": (b" " * (1 << 20) + b"{}", "over 1 MiB"),
         "obstacle": (b'{"robots": [{"location": [0, 0], "player_id": 0, "robot_id": 1}]}',
                      "obstacle"),
         "not utf-8": (b"\xff{}", "not UTF-8")}


@pytest.mark.parametrize("content, message", FILES.values(), ids=FILES)
def test_a_bad_file_is_one_error_line(tmp_path: Path, content: bytes, message: str) -> None:
    """Through the command: exit status 2 and one `error:` line naming the file."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    done = arena("scenario", "--game", "robotgame", str(path))
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: {path}") and message in lines[0], lines
    assert done.stdout == ""
