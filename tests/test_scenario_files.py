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
    largest = max(path.stat().st_size for path in Path(__file__).parent.glob(
        "*/scenarios/*.json"))
    assert largest * 100 < MAX_SCENARIO_BYTES
