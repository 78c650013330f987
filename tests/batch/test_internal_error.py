"""A bug of ours in a batch's worker shows as ours: one `internal error:` line, exit
status 70, the worker's whole traceback in a file the line names, never the user's
`error:` line and exit status 2; the matches played before it stay recorded, and the same
command plays the rest. `arena --debug` shows the log lines of the matches and the
traceback.

The fault is put in by the test alone: a `sitecustomize` on the PYTHONPATH of the `arena`
the test starts patches the runner's `_result` (orchestrator/runner/match.py) in every
process of that command, so that the match of seed 2 raises in its worker. Nothing the
command reads (bots, maps, options, the environment) can do that to the product.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from orchestrator.cli import failure
from orchestrator.faults import EXIT_INTERNAL
from orchestrator.runner import execute
from tests.support.cli import arena
from tests.support.paths import BOTS, ROOT

FAULTY_SEED = 2
INJECTED = '''
"""Test only: the match of seed %(seed)d raises in the runner's `_result` (or its worker
ends, %(dies)r)."""
import os
import sys

TARGET = "orchestrator.runner.match"
original = None


def injected_fault(spec, *args, **kwargs):
    if spec.seed == %(seed)d:
        if %(dies)r:
            os._exit(3)                  # the worker process itself ends
        raise RuntimeError("injected fault in the match's result")
    return original(spec, *args, **kwargs)


class Patcher:
    def find_spec(self, name, path=None, target=None):
        if name != TARGET:
            return None
        for finder in sys.meta_path:
            found = None if finder is self else finder.find_spec(name, path, target)
            if found is not None:
                break
        else:
            return None
        run = found.loader.exec_module

        def exec_module(module):
            global original
            run(module)
            original, module._result = module._result, injected_fault

        found.loader.exec_module = exec_module
        return found


sys.meta_path.insert(0, Patcher())
'''


def batch_args(db: Path) -> list[str]:
    return ["batch", str(BOTS / "hunter.py"), str(BOTS / "beeline.py"), "--seeds", "3",
            "--first-seed", "1", "--map", "tiny", "--robots", "3", "--max-turns", "20",
            "--workers", "2", "--db", str(db), "--json"]


def fault_env(tmp_path: Path, injected: bool, dies: bool = False) -> dict[str, str]:
    """The environment of an `arena` whose tracebacks go under tmp_path, and with
    `injected`, whose match faults (or whose worker dies) at FAULTY_SEED."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    if injected:
        folder = tmp_path / "inject"
        folder.mkdir(exist_ok=True)
        (folder / "sitecustomize.py").write_text(INJECTED % {"seed": FAULTY_SEED,
                                                             "dies": dies})
        env["PYTHONPATH"] = os.pathsep.join([str(folder), str(ROOT)])
    return env


def test_a_worker_fault_is_an_internal_error_with_its_traceback_and_the_rest_resumes(
        tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    done = arena(*batch_args(db), env=fault_env(tmp_path, injected=True))
    assert done.returncode == EXIT_INTERNAL, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr                  # quiet: no log, no traceback
    line = lines[0]
    assert line.startswith(f"internal error: match with seed {FAULTY_SEED}: RuntimeError: "
                           f"injected fault in the match's result; "), line
    assert not line.startswith("error:") and "Traceback" not in done.stderr
    assert line.endswith("; please report it)"), line
    folder = tmp_path / "cache" / "robot-arena" / "tracebacks"
    written = Path(line.split("(traceback written to ")[1].split("; please")[0])
    assert written.parent == folder and written.is_file(), line
    assert written.stat().st_mode & 0o077 == 0              # the user's own
    text = written.read_text()
    assert text.startswith("robot-arena ") and "\ncommand: " in text   # what to report
    # The worker's whole traceback: where it raised, through the runner, not one line.
    assert "Traceback (most recent call last)" in text
    assert "in injected_fault" in text and "in run_match" in text and \
        "in play_planned" in text, text
    assert "RuntimeError: injected fault in the match's result" in text

    # What was played is kept (at least seed 1's match, in play beside the faulty one):
    # the same command, the fault gone, plays only the rest.
    saved = int(line.split("; ")[1].split(" of 3 matches are saved")[0])
    assert 1 <= saved <= 2, line
    again = arena(*batch_args(db), env=fault_env(tmp_path, injected=False))
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["matches"] == 3 and report["skipped"] == saved


@pytest.mark.parametrize("flag", ["--debug", "-v"])
def test_debug_shows_the_log_of_the_matches_and_the_traceback(tmp_path: Path,
                                                               flag: str) -> None:
    done = arena(flag, *batch_args(tmp_path / "results.sqlite"),
                 env=fault_env(tmp_path, injected=True))
    assert done.returncode == EXIT_INTERNAL, done.stderr
    err = done.stderr
    assert " DEBUG " in err and "orchestrator.runner.execute: worker " in err
    assert "orchestrator.runner.match: match start: arena on tiny.txt, seed 1, sandbox " \
        "standard, bots " in err, err
    assert "orchestrator.runner.match: match end: seed 1, " in err, err
    assert "sandbox.host: AI 0: child " in err, err
    assert f"orchestrator.service.batch: match with seed {FAULTY_SEED} " in err, err
    # The traceback shown, then the one line, last.
    assert "Traceback (most recent call last)" in err and "in injected_fault" in err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"internal error: match with seed {FAULTY_SEED}: "), last
    assert not any(line.startswith("error:") for line in err.splitlines())


def test_a_fault_in_the_commands_own_process_is_an_internal_error_too(
        tmp_path: Path) -> None:
    """`arena run` plays its match in its own process: a fault there was a Python
    traceback and exit status 1."""
    done = arena("run", str(BOTS / "hunter.py"), str(BOTS / "beeline.py"), "--seed",
                 str(FAULTY_SEED), "--map", "tiny", "--robots", "3", "--max-turns", "20",
                 "--json", env=fault_env(tmp_path, injected=True))
    assert done.returncode == EXIT_INTERNAL, done.stderr
    assert "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("internal error: RuntimeError: injected fault in the match's "
                           "result (traceback written to "), line
    written = Path(line.split("(traceback written to ")[1].split("; please")[0])
    assert "in injected_fault" in written.read_text()


def test_a_worker_that_dies_is_an_internal_error_too(tmp_path: Path) -> None:
    """A worker that dies under a match three times (its bots are in sandbox children, so
    not theirs) was `error:` and exit status 2 too."""
    done = arena(*batch_args(tmp_path / "results.sqlite"),
                 env=fault_env(tmp_path, injected=True, dies=True))
    assert done.returncode == EXIT_INTERNAL, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"internal error: match with seed {FAULTY_SEED}: its worker died three times (the "
        f"last: exit status 3); "), done.stderr
    written = Path(lines[0].split("(traceback written to ")[1].split("; please")[0])
    assert "no traceback: the worker process itself ended" in written.read_text()


def test_a_worker_reports_its_fault_whole_and_the_inputs_error_as_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """play_planned: a fault comes back with its whole traceback (it was cut to 500
    characters before, and read as bad input); the input's error as one line, no fault."""
    from engine import InputError

    def deep(n: int) -> None:
        if n == 0:
            raise KeyError("x" * 600)
        deep(n - 1)

    def broken_match(spec, replays=None):
        deep(20)

    monkeypatch.setattr(execute, "run_match", broken_match)
    outcome = execute.play_planned(execute.MatchSpec("arena", Path("tiny.txt"), [], 1, None))
    assert "fault" in outcome and len(outcome["fault"]) > 1000
    assert "in deep" in outcome["fault"] and "in broken_match" in outcome["fault"]
    assert outcome["fault"].endswith(f"KeyError: '{'x' * 600}'\n")
    assert outcome["error"].startswith("KeyError: 'xxx") and "\n" not in outcome["error"]

    def refused(spec, replays=None):
        raise InputError("tiny.txt: no such map")

    monkeypatch.setattr(execute, "run_match", refused)
    outcome = execute.play_planned(execute.MatchSpec("arena", Path("tiny.txt"), [], 1, None))
    assert outcome["error"] == "tiny.txt: no such map" and "fault" not in outcome


def test_a_traceback_is_never_written_through_a_link(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "cache" / "robot-arena").mkdir(parents=True)
    (tmp_path / "cache" / "robot-arena" / "tracebacks").symlink_to(elsewhere)
    monkeypatch.setattr(failure.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    written = failure.write_traceback("Traceback: the text\n")
    assert list(elsewhere.iterdir()) == []                  # not through the link
    assert written.parent == tmp_path / "tmp" and written.read_text() == "Traceback: the text\n"
    assert written.stat().st_mode & 0o077 == 0

    (tmp_path / "cache" / "robot-arena" / "tracebacks").unlink()
    kept = failure.write_traceback("again\n")
    assert kept.parent == tmp_path / "cache" / "robot-arena" / "tracebacks"
    assert kept.read_text() == "again\n" and kept.stat().st_mode & 0o077 == 0
