"""Every number the command line range-checks is checked the same way by the API: one table
(orchestrator/arguments.py), walked here, so that a row added there is tested on both
fronts. For each row and each command that takes it: every bad value is the same one-line
message from `arena ...` (an `error:` line, exit status 2) and `api....` (InputError);
its usual value, and the ends of its range, pass the checks.

The checks run before any bot starts, so the tests stop each command where its work would
begin (the first match, or planning a run's matches), by a sentinel raised there: the answer of a
good value is "it got that far", without playing thousands of turns or seeds. One test
plays the largest seed for real, into a results file, so the range is what the engine and
the store take.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from orchestrator import api, arguments
from orchestrator.arguments import ARGUMENTS, SEED_MAX
from orchestrator.cli import app as cli
from orchestrator.runner import check as check_runner
from orchestrator.service import batch as batch_service
from orchestrator.service import compare as compare_service
from orchestrator.service import play as play_service


class Reached(BaseException):
    """The command got past every check, to where it plays. Not an Exception: the CLI
    reports any Exception of its own as an internal error (exit status 70)."""


def _reached(*args: Any, **kwargs: Any) -> None:
    raise Reached()


# Each command: the API call and the command line that play the smallest thing, the
# arguments given as (API keyword, value); and where its work starts.
def _call(command: str, db: Path, given: dict) -> None:
    if command == "run":
        api.play(["hunter", "beeline"], progress=False, record=False,
                 **({"max_turns": 2} | given))
    elif command == "check":
        api.check("hunter", progress=False, **({"turns": 2} | given))
    elif command == "batch":
        api.batch(["hunter", "beeline"], db=db, progress=False,
                  **({"seeds": 1, "max_turns": 2} | given))
    elif command == "tournament":
        api.tournament(["hunter", "beeline"], db=db, progress=False,
                       **({"games": 1, "max_turns": 2} | given))
    else:
        api.compare("hunter", "beeline", db=db, progress=False,
                    **({"max_games": 2, "max_turns": 2} | given))


def _argv(command: str, db: Path, given: dict) -> list[str]:
    base = {"run": (["run", "hunter", "beeline"], {"max_turns": 2}),
            "check": (["check", "hunter"], {"turns": 2}),
            "batch": (["batch", "hunter", "beeline", "--db", str(db)],
                      {"seeds": 1, "max_turns": 2}),
            "tournament": (["tournament", "hunter", "beeline", "--db", str(db)],
                           {"games": 1, "max_turns": 2}),
            "compare": (["compare", "hunter", "beeline", "--db", str(db)],
                        {"max_games": 2, "max_turns": 2})}
    words, defaults = base[command]
    for name, value in (defaults | given).items():
        words += [ARGUMENTS[name].flag, str(value)]
    return words


STARTS = {"run": (play_service, "play"), "check": (check_runner, "run_match"),
          "batch": (batch_service, "plan_batch"),
          "tournament": (batch_service, "plan_tournament"),
          "compare": (compare_service, "plan_compare")}


def api_outcome(command: str, name: str, value: Any, tmp_path: Path) -> str:
    """'reached', or the InputError's message."""
    try:
        _call(command, tmp_path / "api.sqlite", {name: value})
    except Reached:
        return "reached"
    except api.InputError as exc:
        return str(exc)
    raise AssertionError("neither refused nor reached its work")


def cli_outcome(command: str, name: str, value: Any, tmp_path: Path, capsys) -> str:
    """'reached', or the one `error:` line's message (exit status 2)."""
    capsys.readouterr()
    try:
        cli.main(_argv(command, tmp_path / "cli.sqlite", {name: value}))
    except Reached:
        return "reached"
    except SystemExit as exc:
        err = capsys.readouterr().err.strip().splitlines()
        assert exc.code == 2 and len(err) == 1 and err[0].startswith("error: "), (exc, err)
        return err[0][len("error: "):]
    raise AssertionError("neither refused nor reached its work")


def bad_values(row: arguments.Argument) -> list[tuple[Any, bool]]:
    """Values the row refuses, each with whether the command line can give it (a number
    of the option's type; a str, a bool or a float for a whole number only the API can)."""
    below = row.low if row.low_open else row.low - (1 if row.whole else 0.001)
    above = row.high if row.high_open else row.high + (1 if row.whole else 0.001)
    if row.whole:
        return [(int(below), True), (int(above), True), (2 ** 70, True),
                (99999999999999999999999, True), ("abc", False), ("7", False),
                (1.5, False), (float(row.example), False), (True, False)]
    return [(below, True), (above, True), (math.inf, True), (-math.inf, True),
            (math.nan, True), ("0.1", False), (True, False)]


def good_values(row: arguments.Argument) -> list[Any]:
    """The usual value, and each end of the range that belongs to it."""
    kind = int if row.whole else float
    return [kind(row.example)] + [kind(end) for end, shut in ((row.low, not row.low_open),
                                                              (row.high, not row.high_open))
                                  if shut]


CASES = [(name, command) for name, row in ARGUMENTS.items() for command in row.commands]


@pytest.fixture
def stopped(monkeypatch):
    for module, attr in STARTS.values():
        monkeypatch.setattr(module, attr, _reached)


@pytest.mark.parametrize("name,command", CASES)
def test_a_bad_value_is_the_same_one_line_error_on_both_fronts(name, command, tmp_path,
                                                               capsys, stopped) -> None:
    row = ARGUMENTS[name]
    rule = f"must be {row.rule()}"
    for value, on_cli in bad_values(row):
        said = api_outcome(command, name, value, tmp_path)
        assert said == f"{row.flag} {arguments.shown_value(value)}: {rule}", (value, said)
        assert "\n" not in said
        if on_cli:
            assert cli_outcome(command, name, value, tmp_path, capsys) == said, value


@pytest.mark.parametrize("name,command", CASES)
def test_a_good_value_passes_the_checks_on_both_fronts(name, command, tmp_path, capsys,
                                                       stopped) -> None:
    row = ARGUMENTS[name]
    usual, *ends = good_values(row)
    assert api_outcome(command, name, usual, tmp_path) == "reached"
    assert cli_outcome(command, name, usual, tmp_path, capsys) == "reached"
    for value in ends:             # an end may break a rule between arguments, not the row's
        for said in (api_outcome(command, name, value, tmp_path),
                     cli_outcome(command, name, value, tmp_path, capsys)):
            assert row.rule() not in said, (value, said)


def test_every_command_named_by_the_table_takes_the_argument() -> None:
    """The table's commands are the API functions and commands that have the argument."""
    from orchestrator.options import accepted

    functions = {"run": api.play, "check": api.check, "batch": api.batch,
                 "tournament": api.tournament, "compare": api.compare}
    for name, row in ARGUMENTS.items():
        for command, function in functions.items():
            takes = name in accepted(function)     # a parameter, or a field of its groups
            assert takes == (command in row.commands), (name, command)


def test_the_largest_seed_plays_and_is_stored(tmp_path) -> None:
    played = api.play(["hunter", "beeline"], seed=SEED_MAX, max_turns=2, progress=False,
                      record=False)
    assert played.seed == SEED_MAX
    db = tmp_path / "runs.sqlite"
    found = api.batch(["hunter", "beeline"], seeds=1, first_seed=SEED_MAX, max_turns=2,
                      db=db, progress=False, workers=1)
    assert found.to_json()["matches"] == 1
    with pytest.raises(api.InputError, match=r"--first-seed 9223372036854775807: the run's "
                                             r"seeds would go past 9223372036854775807"):
        api.batch(["hunter", "beeline"], seeds=2, first_seed=SEED_MAX, max_turns=2, db=db,
                  progress=False)


def test_a_seed_too_large_is_one_error_line_not_a_traceback() -> None:
    import subprocess

    from tests.support.paths import ARENA_CMD, ROOT

    done = subprocess.run(ARENA_CMD + ["run", "--seed", "99999999999999999999999",
                                       "--max-turns", "3"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: --seed 99999999999999999999999: must be a whole number from 0 to "
        "9223372036854775807"]
