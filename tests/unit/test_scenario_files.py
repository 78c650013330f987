"""Every game's scenario file is read as untrusted input (orchestrator/service/scenario.py):
bounded before it is decoded, and a file that is not JSON within bounds is one InputError
naming the file. Generated from the registry, so a new game's scenarios are covered."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import InputError
from orchestrator import api
from orchestrator.games import GAMES
from orchestrator.service.scenario import MAX_SCENARIO_BYTES
from tests.support.paths import ROOT

WITH_SCENARIOS = [name for name, game in GAMES.items() if game.scenario is not None]
BAD = {"nested 100,000 deep": (b"[" * 100_000, "invalid JSON (nested too deep)"),
       "a 5000-digit number": (b'{"seed": 1' + b"1" * 5000 + b"}",
                               "invalid JSON (a number too long)"),
       "over 1 MiB": (b" " * MAX_SCENARIO_BYTES + b"{}", "the scenario file is over 1 MiB"),
       "not UTF-8": (b'{"seed": "\xff"}', "not UTF-8"),
       "not JSON": (b"{seed: 1}", "invalid JSON")}


def test_every_game_with_scenarios_is_here() -> None:
    assert {"arena", "robotgame", "cave", "race"} <= set(WITH_SCENARIOS)


@pytest.mark.parametrize("content, message", BAD.values(), ids=BAD)
@pytest.mark.parametrize("game", WITH_SCENARIOS)
def test_a_bad_file_is_one_input_error(tmp_path: Path, game: str, content: bytes,
                                       message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        api.scenario(path, game=game)
    text = str(caught.value)
    assert text.startswith(str(path)) and message in text and "\n" not in text, text


def test_the_bound_leaves_room_for_real_files() -> None:
    """The largest scenario file the tests keep is far under the bound."""
    largest = max(path.stat().st_size for path in (ROOT / "tests").glob(
        "*/scenarios/*.json"))
    assert largest * 100 < MAX_SCENARIO_BYTES


@pytest.mark.parametrize("game", WITH_SCENARIOS)
def test_each_shipped_example_is_a_rules_test_and_runs_by_name(game: str, tmp_path: Path,
                                                               monkeypatch) -> None:
    """The examples a game ships (run by name from anywhere, an installed wheel too) are
    copies of its rules tests' scenarios (tests/GAME/scenarios/, which check their
    `expect`), so what the README runs is what the tests check."""
    found = GAMES[game]
    shipped = found.bundled_scenarios()
    if found.home is None:                      # a built-in game ships some
        assert shipped, f"{game} ships no example scenario"
    tests = ROOT / "tests" / game / "scenarios"
    for path in shipped:
        assert path.read_bytes() == (tests / path.name).read_bytes(), path
    monkeypatch.chdir(tmp_path)                 # no file of that name here
    for path in shipped:
        assert api.scenario(path.stem, game=game) == api.scenario(path, game=game)
        assert api.scenario(path.name, game=game) == api.scenario(path, game=game)


def test_a_name_that_is_no_example_is_one_input_error(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as caught:
        api.scenario("guard_halves_an_attack", game="arena")
    assert str(caught.value) == (
        "guard_halves_an_attack: scenario file not found (not a file, nor one of arena's "
        "examples: laser_fires_twice, push_chain_into_pit; robotgame has one of that name: "
        "try --game robotgame)")
    # A file of that name here is the file, not the example.
    (tmp_path / "laser_fires_twice").write_text("{}")
    with pytest.raises(InputError, match="^laser_fires_twice: "):
        api.scenario("laser_fires_twice", game="arena")
