"""The sandbox modes: one record each (`Mode`) and the registry of them (`MODES`).

A mode is what `--sandbox` names: how the bots of a match are loaded and asked for their
moves (its players, `sandbox/players.py`), and what may use it. Each record says all of
that once; every command, the API, the ladder and the workers ask it here. The registry
knows no game and no command.

Built in: standard, strict, bwrap, match and off, and `match:inside`, how a match jail
plays inside (never offered). A mode kept elsewhere is an installed distribution's entry
point in the group `robot_arena.sandbox_modes`, naming its `Mode` (docs/architecture.md),
or, ad hoc (a test's, say), a Python file that defines `MODE = Mode(...)`, named in the
`ARENA_SANDBOX_MODES` environment variable (several separated as in PATH), which the
processes started from here inherit. Plugins load when the registry (`MODES`) is first
asked, not when this module is imported; no plugin may take a built-in mode's name.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine import InputError
from sandbox import plugins
from sandbox.host import Children
from sandbox.inprocess import InProcessPlayers
from sandbox.isolation import TIERS
from sandbox.jailplayers import JailPlayers
from sandbox.limits import Limits
from sandbox.players import Players, PlayersFactory
from sandbox.shown import shown

PLUGINS_VARIABLE = "ARENA_SANDBOX_MODES"
PLUGIN_MODULE = "arena_mode_"       # a mode kept elsewhere is this module + its file's stem
PRESTARTS = (None, "zygote", "jail")


@dataclass(frozen=True)
class Mode:
    """One sandbox mode, stated once."""

    name: str                         # what `--sandbox` takes, and results' `sandbox_mode`
    help: str                         # its sentence in `--sandbox`'s help
    # Loads an attempt's bots (`Players`); None: the mode plays whole matches elsewhere
    # (`whole_match`), and has no players in this process.
    players: PlayersFactory | None
    tier: str | None = "standard"     # the isolation tier of its processes (Isolation)
    isolates: bool = True             # False: bots run here, without limits or isolation
    whole_match: bool = False         # the engine and the bots play in one jail (match)
    programs: bool = True             # runs executable bots (else they play in standard)
    checks: bool = True               # `arena check` may use it
    check_refusal: str | None = None  # why not, where it may not (for the error line)
    ladder_refusal: str | None = None  # why the ladder never uses it (None: it may)
    # What `arena` starts ahead, while the command imports: the bots' "zygote" (commands
    # that play one match), the "jail" zygote (batches), or nothing.
    prestart: str | None = None
    hidden: bool = False              # never offered to users (the jail's inside)

    def __post_init__(self) -> None:
        if (self.players is None) != self.whole_match:
            raise ValueError(f"mode {self.name}: players, or whole matches, not both")
        if self.tier is not None and self.tier not in TIERS:
            raise ValueError(f"mode {self.name}: no tier {self.tier!r} (tiers: {TIERS})")
        if self.prestart not in PRESTARTS:
            raise ValueError(f"mode {self.name}: prestart is one of {PRESTARTS}")

    def load(self, bot_side: str, bots: dict, limits: Limits,
             skip: tuple[str, ...] = ()) -> Players:
        """This mode's players of an attempt, every bot of `bots` loaded (or failed)."""
        if self.players is None:
            raise ValueError(f"--sandbox {self.name} plays whole matches: no players here")
        return self.players(self, bot_side, bots, limits, skip)


STANDARD = Mode(
    "standard", "each AI in its own limited, isolated process, with every isolation layer "
    "this machine allows (a warning names any missing).", Children, prestart="zygote")
STRICT = Mode("strict", "the same, but refuse to run if any layer is missing.", Children,
              tier="strict", prestart="zygote")
BWRAP = Mode("bwrap", "strict, with each AI inside bubblewrap too.", Children, tier="bwrap")
MATCH = Mode(
    "match", "the whole match in one such jail, fast; it protects your machine, not the "
    "bots from each other.", None, whole_match=True, programs=False, checks=False,
    check_refusal="a check judges one bot's CPU, memory and what the sandbox refused it, "
                  "and a whole-match jail does not tell the bots apart",
    ladder_refusal="it keeps the host safe but not the bots from each other "
                   "(docs/security.md)", prestart="jail")
OFF = Mode("off", "bots run in this process, unlimited, for pdb.", InProcessPlayers,
           tier=None, isolates=False, checks=False,
           check_refusal="its bots run unlimited, so no limit can judge them",
           ladder_refusal="its bots would run unlimited in the server's own processes")
# How `--sandbox match` plays inside its jail: the jail is the isolation.
INSIDE = Mode("match:inside", "the inside of a match jail.", JailPlayers, tier=None,
              checks=False, hidden=True)
BUILT_IN = (STANDARD, STRICT, BWRAP, MATCH, OFF, INSIDE)
DEFAULT_MODE = STANDARD.name
IN_JAIL = INSIDE.name
# The games a match jail's zygote is started for, comma-separated, in its environment (the
# host's `sandbox/matchjail.py` sets it; the job module's `preload` reads it and drops it):
# the zygote loads only what those games' engines import on first use.
JAIL_GAMES = "ARENA_JAIL_GAMES"


def _add(modes: dict[str, Mode], mode: Mode, plugin: str) -> None:
    """A plugin's mode (`plugin` names it in an error), if its name is free and well-formed."""
    if not isinstance(mode.name, str) or not plugins.NAME.fullmatch(mode.name):
        raise InputError(f"{plugin}: a mode's name is lower-case letters, digits, - and _, "
                         f"not {shown(repr(mode.name))[:60]}")
    problems = plugins.wording_problems({"help": mode.help, "check_refusal": mode.check_refusal,
                                         "ladder_refusal": mode.ladder_refusal})
    if problems:
        raise InputError(f"{plugin}: {problems[0]}")
    if mode.name in modes:
        raise InputError(f"{plugin}: --sandbox {mode.name} is already a mode")
    modes[mode.name] = mode


def _load_plugins(modes: dict[str, Mode]) -> None:
    """The installed modes (entry points), then those named in $ARENA_SANDBOX_MODES."""
    for name, mode in plugins.installed(plugins.MODES_GROUP, Mode, "a Mode"):
        _add(modes, mode, name)
    for ref in plugins.named(PLUGINS_VARIABLE):
        _add(modes, plugins.entry(ref, PLUGINS_VARIABLE, PLUGIN_MODULE, "MODE", Mode,
                                  "MODE = Mode(...)"), f"{ref} (in ${PLUGINS_VARIABLE})")


MODES: plugins.Registry = plugins.Registry({mode.name: mode for mode in BUILT_IN},
                                           _load_plugins)


def offered() -> list[Mode]:
    """The modes users may choose, in the registry's order."""
    return [mode for mode in MODES.values() if not mode.hidden]


def help_text() -> str:
    """`--sandbox`'s help: each offered mode and its sentence."""
    return " ".join(f"{mode.name}: {mode.help}" for mode in offered()) + \
        " See docs/security.md."


def names_text(modes: list[Mode]) -> str:
    """`standard, strict or bwrap`."""
    names = [mode.name for mode in modes]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _unknown(name: str, what: str, modes: list[Mode]) -> InputError:
    return InputError(f"unknown {what} {name!r} (choose from: "
                      f"{', '.join(mode.name for mode in modes)})")


def get_mode(name: str) -> Mode:
    """The mode `name`, offered or not (a match spec's). A built-in one without loading the
    plugins: the match jail asks for its inside's so, and loads none."""
    mode = MODES.built_in(name) or MODES.get(name)
    if mode is None:
        raise _unknown(name, "--sandbox mode", offered())
    return mode


def chosen(name: str) -> Mode:
    """The mode a user named for a match, a batch, a tournament or a comparison."""
    mode = MODES.get(name)
    if mode is None or mode.hidden:
        raise _unknown(name, "--sandbox mode", offered())
    return mode


def for_check(name: str) -> Mode:
    """The mode a user named for `arena check`, if its record lets check use it."""
    mode = MODES.get(name)
    allowed = [m for m in offered() if m.checks]
    if mode in allowed:
        return mode
    if mode is None or mode.hidden:
        raise _unknown(name, "--sandbox mode for check", allowed)
    why = f": {mode.check_refusal}" if mode.check_refusal else ""
    raise InputError(f"--sandbox {name} is not available for check{why} (check runs "
                     f"in {names_text(allowed)})")


def for_ladder(name: str) -> Mode:
    """The mode a user named for the ladder, if its record lets the ladder use it."""
    mode = chosen(name)
    if mode.ladder_refusal is not None:
        raise InputError(f"the ladder never uses --sandbox {name}: {mode.ladder_refusal}")
    return mode
