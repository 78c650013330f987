"""The CI gate for one submission (`arena check`, `api.check`, the ladder's upload check,
in a worker: orchestrator/runner/execute.py); what a user gives it is checked first by
orchestrator/service/check.py.

It plays the bot in the sandbox against sample bots for a few turns and judges how it
behaved: did it load, stay within its CPU, memory and time, keep to the protocol, and
overheat (raise or answer nonsense) rarely enough? Would a full match at its pace of own
time stay within what the game allows (orchestrator/runner/pace.py)? And, asked to
(`arena check` is, unless `--once`), whether it plays the same game twice on one seed:
`arena replay` refuses a match that ends differently, and `compare` of a bot with itself
never says identical, if a bot draws from a generator it did not seed or iterates what
its runtime orders at random.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from engine import InputError
from orchestrator import arguments
from orchestrator.games import DEFAULT_GAME, get_game
from orchestrator.options import CheckSettings
from orchestrator.results import notes, penalties
from orchestrator.results.match_result import MatchData
from orchestrator.runner.bots import BotFile, read_bot
from orchestrator.runner.match import MatchSpec, run_match
from orchestrator.runner.pace import Pace, PaceWatch, check_limits, cut_turn
from orchestrator.text import shown
from sandbox import modes
from sandbox.botlib import child_module
from sandbox.host import WALL_LIMIT
from sandbox.limits import Limits
from sandbox.programs import BY_NAME, PERSISTENT, PERSISTENT_LINES

if TYPE_CHECKING:
    from _attempts import FAILING
else:
    FAILING = child_module("_attempts").FAILING
# A check of one game (the ladder's upload check, and the default here): `arena check`
# plays two unless `--once`.
ONE_GAME = CheckSettings(once=True)
# The host's wall limit as a verdict says it (`verdict`: the kind said once).
HUNG = WALL_LIMIT.removesuffix(" (hang)")

FAILURES = ("load_error", "hang", "stalls", "timeout", "cpu", "memory", "crash", "protocol",
            "sandbox", "overheats", "output", "invalid", "nondeterministic")
# An executable bot's turns that went wrong, as the sandbox counts them, and what each says.
PROGRAM_FAULTS = notes.PROGRAM_FAULTS


def failure_kind(status: str, reason: str) -> str:
    """Which of FAILURES an erase or load error is, from its recorded reason."""
    if status == "load_error":
        return "load_error"
    text = reason.lower()
    for marker, kind in (("time bank", "stalls"), ("hang", "hang"), ("timeout", "timeout"),
                         ("cpu", "cpu"),
                         ("thread", "cpu"),
                         ("memory", "memory"), ("protocol", "protocol")):
        if marker in text:
            return kind
    return "crash"


# A submission whose every call of a turn ran out of time on this many turns in a row fails
# at once: the check stops there rather than wait out the other turns' time limits.
HUNG_TURNS = 3
# The out-of-time counts a game's stats keep: a Python bot's timed-out calls (Race, Robot
# Game) and a program's turns without an answer in time (Cave), in the failure they give.
OUT_OF_TIME = (("timeouts", "timeout"), ("hang", "hang"), ("cpu", "cpu"))
OUT_OF_TIME_SAYS = {"timeout": "every call went past its time limit",
                    "hang": "no answer in time", "cpu": "went past its CPU limit"}


class HangWatch:
    """`run_match`'s stop predicate for a check: stops the match once the checked seat's
    calls have all run out of time on `HUNG_TURNS` turns in a row, and keeps the verdict;
    and once the checked seat is out of the match (erased, forfeit or never loaded), whose
    record already holds the verdict: the other seats' turns after it would judge nothing."""

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat
        self.seen: dict[str, int] = {}
        self.streak = 0
        self.failure: str | None = None
        self.reason: str | None = None
        self.turn: int | None = None

    def __call__(self, turn: int, stats: dict[int, dict[str, Any]],
                 own: dict[int, float] | None = None) -> bool:
        seat_stats = stats.get(self.seat)
        if seat_stats is None:                 # erased or never loaded: its verdict says
            return True
        counts = {"decisions": seat_stats.get("decisions", 0),
                  **(seat_stats.get("faults") or {}), "timeouts": seat_stats.get("timeouts", 0)}
        grew = {key: counts.get(key, 0) - self.seen.get(key, 0) for key in counts}
        self.seen = counts
        asked = grew.get("decisions", 0)
        if asked <= 0:                         # not asked this turn: the streak stands
            return False
        late = [(grew.get(key, 0), kind) for key, kind in OUT_OF_TIME if grew.get(key, 0)]
        if sum(n for n, _ in late) < asked:
            self.streak = 0
            return False
        self.streak += 1
        if self.streak < HUNG_TURNS:
            return False
        self.failure = max(late)[1]
        self.turn = turn
        self.reason = (f"{self.failure}: {OUT_OF_TIME_SAYS[self.failure]} on {HUNG_TURNS} "
                       f"turns in a row (turn {turn}); stopped early")
        return True


class CheckVerdict(TypedDict):
    """A check's verdict, the `arena check --json` shape: passed or why not (`failure`,
    its kind; `reason`, in words), and what the bot did in the check's match."""

    ok: bool
    reason: str | None
    failure: str | None
    game: str
    name: str
    bot: str
    sha256: str
    description: str
    engine_version: str
    seed: int
    map: str
    turns: int | None               # played, or the turn it failed at
    overheats: int
    decisions: int
    cpu_s: float
    peak_rss_mb: float
    errors: list[str]
    warnings: list[str]
    violations: list[str]
    output: str
    sandbox: list[str]
    sandbox_mode: str
    sandbox_missing: dict[str, str]
    deterministic: bool | None      # two games alike (`twice`); None: one played
    own_s: NotRequired[float | None]            # the time gate's (`judge_pace`)
    pace: NotRequired[dict[str, Any] | None]
    warned: NotRequired[list[str]]  # its warnings (`warnings_of`)


def check_bot(path: str | Path, game: str = DEFAULT_GAME, checking: CheckSettings = ONE_GAME,
              sandbox: str = "standard", limits: Limits | None = None) -> CheckVerdict:
    """Play the bot file and return the verdict in the `arena check --json` shape."""
    bot = read_bot(path, get_game(game).name)
    return check_submission(bot, game, checking, sandbox=sandbox, limits=limits)


def check_strict(strict: object) -> None:
    """`strict` (`arena check --strict`, `api.check(strict=...)`): true or false."""
    if not isinstance(strict, bool):
        raise InputError(f"--strict {shown(repr(strict))[:40]}: must be true or false")


def warnings_of(judged: CheckVerdict) -> list[str]:
    """A verdict's warnings, in penalties' words: rule 1's (module state changed by
    move(): robots of one AI sharing memory), the attempts the sandbox refused that do
    not fail a check by themselves, and a slow pace of own time (`pace`)."""
    said = [f"rule 1: {shown(text)}" for text in judged.get("warnings") or ()]
    refused = penalties.refused({"violations": judged.get("violations") or ()})
    pace = judged.get("pace") or {}
    slow = [str(pace["said"])] if pace.get("verdict") == "slow" else []
    return said + ([refused] if refused else []) + slow


def judge_pace(judged: CheckVerdict, watch: PaceWatch, limits: Limits) -> None:
    """The time gate's part of a verdict (orchestrator/runner/pace.py): `own_s` and `pace`
    (`Pace.as_dict`, its line in `said`) for `--json` and the lines; a bot whose pace
    stalls a full match fails (`stalls`; stopped early if it showed within the check, as
    a slow one does under `strict`), and one whose turn went past the check's own time a
    turn (a hang) is told what a full match would take at that pace, at least. A `sandbox`
    failure stays: the refused attempts are the fault, and may be what took the time."""
    found: Pace | None = watch.stopped or watch.pace()
    if judged["failure"] == "hang" and HUNG in (judged["reason"] or ""):
        seen = found.own_s if found else 0.0
        found = cut_turn(seen + limits.own_per_turn_s, (found.turns if found else 0) + 1,
                         limits, watch.call, watch.match_turns)
        judged["reason"] = f"{judged['reason']}; {found.said()}"
    judged["own_s"] = round(found.own_s, 3) if found else None
    judged["pace"] = found.as_dict() if found else None
    if found is None or found.at_least:
        return
    # An attempt the sandbox refused is the bot's fault, whatever time the refusals cost.
    if judged["failure"] == "sandbox" or judged["failure"] is not None and watch.stopped is None:
        return
    if watch.stopped is not None:
        where = f" (turn {watch.turn}); stopped early"
        if found.verdict == "stalls":
            judged.update({"ok": False, "failure": "stalls", "reason": found.said() + where,
                           "turns": watch.turn})
        else:                                  # slow, and --strict: its warning fails it
            judged.update({"ok": False, "failure": "warnings",
                           "reason": f"warnings (--strict): {found.said()}{where}",
                           "turns": watch.turn})
    elif found.verdict == "stalls":
        judged.update({"ok": False, "failure": "stalls", "reason": found.said()})


def check_submission(bot: BotFile, game: str = DEFAULT_GAME,
                     checking: CheckSettings = ONE_GAME, sandbox: str = "standard",
                     limits: Limits | None = None) -> CheckVerdict:
    """Play a bot (from a file or an upload) against the game's check lineup; its verdict.
    `checking.strict`: any warning (`warnings_of`) fails it too (failure `warnings`).
    Unless `checking.once`, a bot that passed plays the same match again, and fails
    `nondeterministic` if the two games differ (the verdict's `deterministic`: true, false,
    or null when the second game was not played)."""
    turns, seed, max_overheat_share = checking.turns, checking.seed, checking.max_overheats
    strict, twice = checking.strict, not checking.once
    modes.for_check(sandbox)
    arguments.check(seed=seed, turns=turns, max_overheats=max_overheat_share)
    check_strict(strict)
    found = get_game(game)
    preset = found.rules(found.presets[0])
    turns = turns if turns is not None else found.check.turns or preset.max_turns
    opponents = [read_bot(p) for p in found.check_lineup()]
    rules = found.rules(found.presets[0], max_turns=turns)
    played = check_limits(limits or found.limits)
    spec = MatchSpec(game=found.name, map_path=found.find_map(found.check.map),
                     bots=[bot, *opponents], seed=seed, rules=rules, limits=played,
                     sandbox=sandbox)
    watch = HangWatch()
    pace = PaceWatch(preset.max_turns, played.own_bank_s, found.check.call, strict=strict)
    result = run_match(spec, stop=lambda turn, stats, own: watch(turn, stats) or
                       pace(turn, stats, own))
    judged = verdict(result, bot, max_overheat_share, played.output_bytes, played)
    if watch.reason is not None:
        hint = slow_start_hint(game, bot, played) if watch.failure in ("hang", "cpu") else ""
        judged.update({"ok": False, "failure": watch.failure, "reason": watch.reason + hint,
                       "turns": watch.turn})
    judge_pace(judged, pace, played)
    if judged["failure"] in ("stalls", "warnings") and judged["pace"] and judged["reason"]:
        judged["reason"] += slow_start_hint(game, bot, played, pace=True)
    judged["warned"] = warnings_of(judged)
    if strict and judged["ok"] and judged["warned"]:
        judged.update({"ok": False, "failure": "warnings",
                       "reason": f"warnings (--strict): {'; '.join(judged['warned'])}"})
    if twice and judged["ok"]:
        again = run_match(spec, stop=HangWatch())
        differs = game_difference(result, again)
        judged["deterministic"] = differs is None
        second = verdict(again, bot, max_overheat_share, played.output_bytes, played)
        if differs is not None and not second["ok"]:
            # The second game failed where the first passed (a turn past its limit, on a
            # machine busier then): that failure, not "nondeterministic", is the verdict.
            judged.update({"ok": False, "failure": second["failure"],
                           "reason": f"{second['reason']} (in the second of two games of "
                                     f"seed {seed}; the first passed)"})
        elif differs is not None:
            judged.update({"ok": False, "failure": "nondeterministic", "reason": (
                f"nondeterministic: two games of seed {seed} differed ({differs}); "
                f"`arena replay` and `compare` need the same game for the same inputs: seed "
                f"any random generator yourself, and iterate nothing in an order your "
                f"runtime draws at random (`--once` skips this)")})
    return judged


def game_difference(first: MatchData, second: MatchData) -> str | None:
    """How two games of one match spec differ, in a few words; None when they do not: the
    moves every bot played (`moves`, a digest of each turn's decoded moves), the turns,
    how it ended, and every seat's status and rank."""
    def seats(result: MatchData) -> list[Any]:
        return sorted((p["seat"], p["status"], p["rank"]) for p in result["players"])
    if first["turns"] != second["turns"]:
        return f"{first['turns']} turns, then {second['turns']}"
    if first["end"] != second["end"] or seats(first) != seats(second):
        return f"ended {first['end']}, then {second['end']}, with other ranks"
    if first["moves"] != second["moves"]:
        return f"the moves played, over {first['turns']} turns"
    return None


def slow_start_hint(game: str, bot: BotFile, limits: Limits | None, pace: bool = False) -> str:
    """For a per-turn program of a runtime that starts slowly (`Runtime.slow_start`: the
    JVM) that ran out of time, or (`pace`) whose starts add up past its own-time bank:
    why, and the way out (the persistent protocol)."""
    found = get_game(game)
    if not found.programs:
        return ""
    program = found.bot_spec(bot).program or {}
    runtime = BY_NAME.get(program.get("runtime") or "")
    if program.get("persistent") or runtime is None or not runtime.slow_start:
        return ""
    limits = limits or found.limits
    if pace:
        return (f"; {runtime.name} starts afresh every turn, and its starts are most of "
                f"that time: add `{PERSISTENT.decode()}` in a comment in its first "
                f"{PERSISTENT_LINES} lines, so that it starts once per game")
    return (f"; {runtime.name} starts afresh every turn and cannot start within the "
            f"{limits.wall_per_call_s:g} s a turn allows: add `{PERSISTENT.decode()}` in a "
            f"comment in its first {PERSISTENT_LINES} lines, so that it starts once per game "
            f"({limits.first_wall_s:g} s for its first turn)")


def verdict(result: MatchData, bot: BotFile, max_overheat_share: float, output_cap: int,
            limits: Limits | None = None) -> CheckVerdict:
    me = next(p for p in result["players"] if p["bot"] == bot.path)
    stats = me["stats"]
    decisions = stats.get("decisions", 0)
    reason = failure = None
    if me["status"] != "ok":
        failure = failure_kind(me["status"], me["reason"] or "")
        where = f" (turn {me['turn']})" if me["turn"] else ""
        detail = me["reason"] or ""
        # The kind said once: `hang: wall time limit`, not `hang: wall time limit (hang)`.
        detail = detail.removesuffix(f" ({failure})")
        reason = (detail if detail.startswith(failure) else f"{failure}: {detail}") + where
    elif faults := {k: n for k, n in (stats.get("faults") or {}).items()
                    if k in PROGRAM_FAULTS}:
        failure = max(faults, key=lambda kind: (faults[kind], -list(PROGRAM_FAULTS).index(kind)))
        last = me["output"].strip().splitlines()[-1:] if me["output"] else []
        said = f"; its last words: {last[0][:120]}" if last else ""
        hint = slow_start_hint(result["game"], bot, limits) if failure in ("hang", "cpu") else ""
        reason = (f"{failure}: the program {PROGRAM_FAULTS[failure]} in {faults[failure]} of "
                  f"{decisions} turns{hint}{said}")
    elif refused := [v for v in me["violations"] if v.partition(":")[0] in FAILING]:
        failure = "sandbox"
        reason = f"sandbox: refused {'; '.join(refused[:3])}"
    elif decisions and stats.get("timeouts", 0) / decisions > max_overheat_share:
        failure = "timeout"
        reason = (f"timeout: {stats['timeouts']} of {decisions} calls went past their time "
                  f"limit (the game played a default for each)")
    elif decisions and me["overheats"] / decisions > max_overheat_share:
        failure = "overheats"
        first = f"; first: {me['errors'][0]}" if me["errors"] else ""
        reason = (f"overheats: {me['overheats']} of {decisions} decisions "
                  f"({me['overheats'] / decisions:.0%}, more than {max_overheat_share:.0%})"
                  f"{first}")
    elif decisions and stats.get("invalid", 0) / decisions > max_overheat_share:
        failure = "invalid"
        reason = (f"invalid: {stats['invalid']} of {decisions} answers were invalid, missing "
                  f"or late (more than {max_overheat_share:.0%}); the game played a default "
                  f"for each")
    elif me["output_dropped"]:
        failure = "output"
        reason = (f"output: printed {me['output_dropped']} characters past the "
                  f"{output_cap}-character cap (leftover debugging?)")
    return {
        "ok": reason is None, "reason": reason, "failure": failure, "game": result["game"],
        "name": me["name"], "bot": me["bot"], "sha256": me["sha256"],
        "description": me.get("description", ""),
        "engine_version": result["engine_version"], "seed": result["seed"],
        "map": result["map"], "turns": result["turns"] if me["turn"] is None else me["turn"],
        "overheats": me["overheats"], "decisions": decisions, "cpu_s": me["cpu_s"],
        "peak_rss_mb": me["peak_rss_mb"], "errors": list(dict.fromkeys(me["errors"])),
        "warnings": me["warnings"], "violations": me["violations"],
        "output": me["output"], "sandbox": result["sandbox"],
        "sandbox_mode": result["sandbox_mode"], "sandbox_missing": result["sandbox_missing"],
        "deterministic": None,
    }
