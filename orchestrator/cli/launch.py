"""The `arena` entry point: warms the sandbox up while the command's modules import.

`arena run` and `arena check` each need the sandbox's zygote (a fresh interpreter that
forks the children), and `batch`, `tournament` and `compare` with `--sandbox match` the
match jail's zygote (sandbox/_jailzygote.py): the mode's record says which
(`Mode.prestart`). Started first, it boots on the other core while this process imports
typer, rich, the engines and numpy, instead of after them.

So this reads the command line by hand, before click does: only the few words that decide
what to start ahead (the command, `--sandbox`, `--backend`, `--game`, `--help`), in the
two spellings click accepts (`--name value`, `--name=value`). A mistake in them is not
this module's to report: the command line proper parses the whole again, and says it.
Parsing it with click here would import what the zygote is started to overlap.
"""
import os
import sys

from engine import InputError
from orchestrator.cli.version import version_line

WARM_COMMANDS = ("run", "check")
JAIL_COMMANDS = ("batch", "tournament", "compare")
GLOBAL_FLAGS = ("--debug", "-v")               # the app's own options before the command


def _command(args: list[str]) -> str:
    """The command this command line names: its first word after the app's own flags."""
    return next((arg for arg in args if arg not in GLOBAL_FLAGS), "")


def _plays(args: list[str], commands: tuple[str, ...]) -> bool:
    """Whether this command line runs one of `commands` (its help plays nothing)."""
    return _command(args) in commands and "--help" not in args


def _option(args: list[str], name: str, default: str) -> str:
    """The last value given to `--name` (as `--name value` or `--name=value`)."""
    value = default
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(f"{name}="):
            value = arg.partition("=")[2]
    return value


def _prestart(args: list[str]) -> str | None:
    """What the mode named on this command line starts ahead, if anything."""
    from sandbox.modes import DEFAULT_MODE, MODES
    name = _option(args, "--sandbox", DEFAULT_MODE)
    # A built-in mode is known without the plugins, whose loading would delay the start.
    mode = MODES.built_in(name) or MODES.get(name)
    return mode.prestart if mode is not None and not mode.hidden else None


def wants_zygote(args: list[str]) -> bool:
    """Whether this command line will start sandbox children through the zygote."""
    return _plays(args, WARM_COMMANDS) and _prestart(args) == "zygote"


def wants_jail_zygote(args: list[str]) -> bool:
    """Whether this command line will play its matches in match jails, from this process
    (the local backend drives them from threads: orchestrator/runner/execute.py, JailPool)."""
    return _plays(args, JAIL_COMMANDS) and _prestart(args) == "jail" \
        and _option(args, "--backend", "local") == "local"


def jail_games(args: list[str]) -> tuple[str, ...]:
    """The game a jailed command names (`--game`), for its jail zygote to load only what
    that game's engine needs; () (every game's) when the bots will say which."""
    game = _option(args, "--game", "")
    return (game,) if game else ()


HASH_SEED = "PYTHONHASHSEED"


def same_hashes(args: list[str]) -> None:
    """`--sandbox off` plays the standard mode's game: its bots run in this process, which
    must hash strings as a standard child does (`sandbox/paths.py`'s CHILD_ENV: seed 0), or
    a bot iterating a set of strings plays another game in every run. So a process started
    with Python's random hash seed starts itself again, before it imports or runs anything
    else, with the children's seed (pdb, `python -X ...`: the same command line again),
    when it is told `--sandbox off`, or to `replay` (a stored match plays again in the
    mode it was played in, `off` too). Unless it already had the seed and ignores it (-E,
    -I): then there is nothing to gain. It starts itself again, too, without address space
    layout randomisation, as the children run (`_fixed_layout_next`)."""
    if not args or "--help" in args:
        return
    from sandbox.modes import DEFAULT_MODE
    if _option(args, "--sandbox", DEFAULT_MODE) != "off" and _command(args) != "replay":
        return
    hashes = sys.flags.hash_randomization and os.environ.get(HASH_SEED) != "0"
    if not hashes and not _fixed_layout_next():
        return
    from sandbox.paths import CHILD_ENV
    command = list(sys.orig_argv)
    if command[len(command) - len(args):] != args or len(command) <= len(args):
        # Not this interpreter's own command line (a process forked to run it, or main()
        # called from other code): the command itself, as `python -m orchestrator`.
        command = [sys.executable, "-m", "orchestrator", *args]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, command, {**os.environ, **CHILD_ENV})


def _fixed_layout_next() -> bool:
    """Whether this process runs with a randomised address layout, which its next exec can
    leave out (the flag is set here): the bots of `--sandbox off` run in it, and a bot that
    draws from an address (`id(None)`) must play the standard children's game, whose
    layout is fixed (`sandbox/paths.py`, `fixed_layout`). False where it is fixed already
    (this is that exec) or the kernel refuses the flag."""
    import ctypes

    from sandbox.paths import ADDR_NO_RANDOMIZE
    personality = ctypes.CDLL(None, use_errno=True).personality
    current = personality(0xFFFFFFFF)
    if current == -1 or current & ADDR_NO_RANDOMIZE:
        return False
    personality(current | ADDR_NO_RANDOMIZE)
    return bool(personality(0xFFFFFFFF) & ADDR_NO_RANDOMIZE)


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        # Said before the command line imports (typer, the registries): the app's own
        # `--version` says the same line, later (`arena --version` in a blink).
        print(version_line())
        return
    try:
        same_hashes(sys.argv[1:])
        if wants_zygote(sys.argv[1:]):
            from sandbox.zygote import prestart
            prestart()
        elif wants_jail_zygote(sys.argv[1:]):
            from orchestrator.runner import JAIL_JOB  # the package's name alone
            from sandbox.matchjail import jail_zygote
            jail_zygote(JAIL_JOB, jail_games(sys.argv[1:]))
        from orchestrator.cli.app import main as cli_main
        cli_main()
    except KeyboardInterrupt:
        # Ctrl-C before a command could handle it (while it imports and parses): no bot
        # has run; a zygote started early ends with this process (its parent-death signal).
        sys.stderr.write("error: interrupted; every bot process was stopped\n")
        sys.exit(130)
    except InputError as exc:
        # A registry that cannot load (a game or a mode named in the environment that is
        # not there) fails before the command line could report it.
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(2)
