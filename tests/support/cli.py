"""The tests' one `arena` runner: a command run as a user would run it, piped, its output
read back as text.

Every test that starts `arena` goes through `arena()`, so the timeout, the environment a
command gets and the message of a failed exit are written once (tests/test_house.py holds
that no other test file defines one).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from tests.support.forked import forked_arena
from tests.support.paths import ARENA_CMD, ROOT

# How long one command may take before the test fails on it rather than hangs: a match,
# a batch or a compare of a few games, on a machine the tests share.
TIMEOUT = 300
# A terminal wide enough that no table row wraps: the tests count and read rows.
WIDE = {"COLUMNS": "1000"}


def arena(*args: str, cwd: Path | str = ROOT, code: int | None = None,
          timeout: float = TIMEOUT, env: Mapping[str, str | None] | None = None,
          command: Sequence[str] = ARENA_CMD, forked: bool = False,
          input: str | None = None, memory: int | None = None) -> subprocess.CompletedProcess:
    """`arena ARGS` in `cwd`, piped, in text mode.

    `code`: the exit status it must end with (its stderr is the failure's message); None
    accepts any. `env`: names added to the tests' environment, or taken out of it with None.
    `command`: the command line of `arena` (an installed one's `bin/arena`). `forked`: run
    in a process forked from one that imported the CLI once (tests/support/forked.py): the
    import is most of a short command's CPU. Its stdin is `input`, or /dev/null: a command
    that waits for a key ends rather than hangs the test. `memory`: an address-space cap
    in bytes, so that a file that would run the machine out of memory ends in a
    MemoryError in that command, not in an OOM of the machine the tests share.
    """
    environ = dict(os.environ)
    for name, value in (env or {}).items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    if forked:
        assert input is None and memory is None, "a forked command: /dev/null, no cap"
        done = forked_arena(tuple(command), environ).run(list(args), Path(cwd), timeout,
                                                          environ)
    else:
        done = subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True,
                              timeout=timeout, env=environ, input=input,
                              stdin=subprocess.DEVNULL if input is None else None,
                              preexec_fn=None if memory is None else _capped(memory))
    if code is not None:
        assert done.returncode == code, (
            f"`arena {' '.join(args)}` exited {done.returncode}, not {code}:\n"
            f"{done.stderr[-3000:]}\n{done.stdout[-1500:]}")
    return done


def _capped(memory: int) -> Callable[[], None]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return cap


def as_json(done: subprocess.CompletedProcess) -> Any:
    """The JSON a `--json` command printed on its stdout."""
    return json.loads(done.stdout)


def one_error_line(done: subprocess.CompletedProcess, *parts: str) -> str:
    """The house rule for bad input: exit status 2 and one `error:` line, no traceback,
    naming each of `parts`. Returns that line."""
    assert done.returncode == 2 and done.stderr.startswith("error: "), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    for part in parts:
        assert part in done.stderr, done.stderr
    return done.stderr


def commands(group: click.Group,
             path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command of a click group, its subgroups' too, with its path of names."""
    for name, command in group.commands.items():
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from commands(command, path + (name,))
