"""The cost model: where one Robot Game match's CPU goes, per mode, in one table.

Plays `--games` matches of one pair of the samples in `bots/robotgame/` (seeds 1..games,
a warm-up match first, untimed), the modes interleaved match by match, all in this process
(as a batch's worker plays them), and prints, per mode, the median over the matches of:

- start+stop: the players' life outside their turns. Host: this thread's CPU clock in
  loading the players, telling them the match and closing them (`Children`,
  `InProcessPlayers`, `Seats.start`, `Seats.close`); rgkit: everything outside its turn
  loop (`Runner()`, its players loaded again per game, the game made, the scores).
  Children: their CPU over the match (RUSAGE_CHILDREN, once reaped) less their turns
  (below): the fork's tail, hardening, the interpreter, the bot's import, the start frame,
  the exit.
- a turn's exchange, p50 and p99 over every turn (that asked a bot) of every match.
  Host: this thread's CPU clock (`time.thread_time_ns`) from sending a turn's requests
  to having every reply decoded (`host.exchange`; off: `InProcessPlayers.exchange`; rgkit: its
  `Game._get_robots_responses`), less the bots' act calls where they run in this
  process. Child: per child and turn, the child's CPU clock, read by the host as it does
  (after the previous reply to after this one), less the bot's own act calls. All: the
  host's side and every child's of the same turn.
- a guarded call: what `guarded(guard, f)` costs over `f()` for a trivial `f`, per call,
  on the thread's CPU clock: standard's `Guard`, in a forked process with the guard's
  timers armed (after a first call, as in a child); off's `NoGuard`, in this process.
- bots: the two bots' act calls, CPU per match, as each bot reads its own thread's CPU
  clock around `Robot.act` (see WRAPPER: each sample is played with a few lines added that
  time its acts and print the sum once a turn; the print's own cost is charged to the
  acts, the next turn).
- other: this process's CPU per match outside the above (the engine, the match loop, the
  result); rgkit: its turn loop less its calls to the bots.
- total: this process's CPU (all threads) and its reaped children's, per match.

Wall time is left out: on a shared machine it measures the neighbours. `match` (the
whole match in one jail) is seen only whole from here: its total and the bots' acts (read
from each bot's output in the result); its other columns are not measured (`-`). What a
zygote's fork costs the zygote, and what the kernel does after a child died, are in no
column (compare whole commands with `perf stat` for those).

The "floor" line is the least rgkit's loop and `off` spend (per column), the "overhead"
line standard less off (a part off has not, a child, counts 0 there). `--json` prints the
figures as JSON instead of the table, `--markdown` the table as docs/cost-model.md shows it.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots" / "robotgame"
MODES = ("rgkit", "off", "standard", "match")
REPORT = "cost-model acts "
WARMUP_SEED = 1000

# key: (header, unit, clock)
COLUMNS = {
    "start_host_ms": ("start+stop host", "ms", "this thread's CPU"),
    "start_children_ms": ("start+stop children", "ms", "the children's CPU (rusage)"),
    "turn_host_p50_us": ("turn host p50", "µs", "this thread's CPU, less acts"),
    "turn_host_p99_us": ("turn host p99", "µs", "this thread's CPU, less acts"),
    "turn_child_p50_us": ("turn child p50", "µs", "the child's CPU clock, less acts"),
    "turn_child_p99_us": ("turn child p99", "µs", "the child's CPU clock, less acts"),
    "turn_all_p50_us": ("turn all p50", "µs", "host + every child, less acts"),
    "turn_all_p99_us": ("turn all p99", "µs", "host + every child, less acts"),
    "guarded_call_us": ("guarded call", "µs", "thread CPU, guarded(f) - f()"),
    "bots_ms": ("bots' acts", "ms", "each bot's thread CPU around act"),
    "other_ms": ("other", "ms", "this process's CPU, the rest"),
    "total_ms": ("total", "ms", "this process's CPU + its children's"),
}
# The columns each mode has (the rest: it has no such part, or it is not seen from here).
APPLIES = {
    "rgkit": {"start_host_ms", "turn_host_p50_us", "turn_host_p99_us", "turn_all_p50_us",
              "turn_all_p99_us", "bots_ms", "other_ms", "total_ms"},
    "off": {"start_host_ms", "turn_host_p50_us", "turn_host_p99_us", "turn_all_p50_us",
            "turn_all_p99_us", "guarded_call_us", "bots_ms", "other_ms", "total_ms"},
    "standard": set(COLUMNS),
    "match": {"bots_ms", "total_ms"},
}
# A part off has not (it starts no child): 0 in the overhead line.
OFF_HAS_NONE = {"start_children_ms", "turn_child_p50_us", "turn_child_p99_us"}

# Added to each sample for the run: times its acts on its thread's CPU clock and prints
# their sum once a turn, at its last robot's act (its own robots counted from the board
# at its first). The print's cost is added to the next turn's sum. The same lines in every
# mode: what they cost is the bots'.
WRAPPER = f'''

# --- bench/cost_model.py's act clock, added for the run (not part of the sample) ---
import time as _cost_time


def _cost_timed(cls):
    act, clock = cls.act, _cost_time.thread_time_ns
    state = {{"turn": None, "left": 0, "ns": 0, "print_ns": 0}}

    def timed_act(self, game):
        began = clock()
        if game.turn != state["turn"]:
            state["turn"] = game.turn
            state["left"] = sum(1 for robot in game.robots.values()
                                if robot.player_id == self.player_id)
            state["ns"] = state["print_ns"]
        try:
            return act(self, game)
        finally:
            state["left"] -= 1
            state["ns"] += clock() - began
            if state["left"] <= 0:
                began = clock()
                print("{REPORT}%d" % state["ns"])
                state["print_ns"] = clock() - began

    cls.act = timed_act


_cost_timed(Robot)
'''


def reports(text: str) -> list[int]:
    """The act sums a bot's output holds."""
    return [int(line[len(REPORT):]) for line in text.splitlines()
            if line.startswith(REPORT) and line[len(REPORT):].isdigit()]


class Sink:
    """This process's stdout and stderr while an in-process match plays: the bots' act
    reports are kept (`take`), any other text goes on to the real stderr."""

    def __init__(self, real) -> None:
        self.real = real
        self.found: list[int] = []

    def write(self, text: str) -> int:
        if REPORT in text:
            self.found.extend(reports(text))
        elif text.strip():
            self.real.write(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def take(self) -> int:
        total = sum(self.found)
        self.found.clear()
        return total


def children_cpu_ns() -> int:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round((usage.ru_utime + usage.ru_stime) * 1e9)


class Meter:
    """One match's figures, filled by the instrumented functions (`instrument`)."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.start_host = 0            # ns
        self.exchange_host = 0         # ns, acts included where they run here
        self.acts = 0                  # ns, both bots
        self.child_turns = 0           # ns, the children's turns, acts included
        self.turn_loop = 0             # ns, rgkit's turn loop
        self.calls = 0                 # act calls asked of the players
        self.host_turns: list[int] = []
        self.all_turns: list[int] = []         # host + every child, less acts
        self.child_turn_samples: list[int] = []
        self.last_reading: dict[int, float] = {}   # id(child) -> its CPU clock, s


METER = Meter()
SINK = Sink(sys.stderr)


def _thread_timed(fn, field: str):
    def wrapper(*args, **kwargs):
        began = time.thread_time_ns()
        try:
            return fn(*args, **kwargs)
        finally:
            setattr(METER, field, getattr(METER, field) + time.thread_time_ns() - began)
    return wrapper


def instrument() -> None:
    """Wrap the players' life and the turn exchange of every mode measured in this process
    (the benchmark's own process: nothing of it reaches a bot)."""
    from sandbox import host, inprocess, players
    host.Children.__init__ = _thread_timed(host.Children.__init__, "start_host")
    inprocess.InProcessPlayers.__init__ = _thread_timed(inprocess.InProcessPlayers.__init__,
                                                        "start_host")
    players.Seats.start = _thread_timed(players.Seats.start, "start_host")
    players.Seats.close = _thread_timed(players.Seats.close, "start_host")

    standard_exchange = host.exchange

    def exchange(children, payloads):
        began = time.thread_time_ns()
        replies, failed = standard_exchange(children, payloads)
        spent = time.thread_time_ns() - began
        METER.calls += sum(calls for _, calls in payloads.values())
        METER.exchange_host += spent
        if not payloads:                # a turn with no robot asks nobody: no sample
            return replies, failed
        METER.host_turns.append(spent)
        whole = spent
        for ai, reply in replies.items():
            child = children[ai]
            said = reports(reply.get("out") or "")
            if not said and payloads[ai][1]:
                raise SystemExit(f"error: seat {ai}'s bot reported no acts for a turn (its "
                                 f"output past the sandbox's cap?): try fewer --turns")
            acts = sum(said)
            before = METER.last_reading.get(id(child), child._sent_at_cpu)
            turn = round((child.cpu_used - before) * 1e9)
            METER.last_reading[id(child)] = child.cpu_used
            METER.acts += acts
            METER.child_turns += turn
            METER.child_turn_samples.append(turn - acts)
            whole += turn - acts
        METER.all_turns.append(whole)
        return replies, failed

    host.exchange = exchange
    off_exchange = inprocess.InProcessPlayers.exchange

    def in_process(self, payloads):
        began = time.thread_time_ns()
        result = off_exchange(self, payloads)
        spent = time.thread_time_ns() - began
        METER.calls += sum(calls for _, calls in payloads.values())
        acts = SINK.take()
        METER.exchange_host += spent
        METER.acts += acts
        if payloads:
            METER.host_turns.append(spent - acts)
            METER.all_turns.append(spent - acts)
        return result

    inprocess.InProcessPlayers.exchange = in_process


def instrument_rgkit() -> None:
    from rgkit import game
    responses = game.Game._get_robots_responses
    turn_loop = game.Game.run_all_turns

    def timed_responses(self, *args, **kwargs):
        began = time.thread_time_ns()
        result = responses(self, *args, **kwargs)
        spent = time.thread_time_ns() - began
        acts = SINK.take()
        METER.exchange_host += spent
        METER.acts += acts
        if acts:                        # its bots were asked (each reports its acts)
            METER.host_turns.append(spent - acts)
            METER.all_turns.append(spent - acts)
        return result

    def timed_turns(self, *args, **kwargs):
        began = time.thread_time_ns()
        try:
            return turn_loop(self, *args, **kwargs)
        finally:
            METER.turn_loop += time.thread_time_ns() - began

    game.Game._get_robots_responses = timed_responses
    game.Game.run_all_turns = timed_turns


def rgkit_match(paths: list[Path], seed: int, turns: int) -> None:
    """One game in rgkit's own loop, as one of `rgrun -H`'s workers plays it (the bots
    loaded anew, then the game), `turns` long, with rgkit's own `rg` module."""
    import rgkit.rg
    from rgkit.run import Options, Runner
    from rgkit.settings import settings
    kept_rg, kept_turns = sys.modules.get("rg"), settings.max_turns
    sys.modules["rg"] = rgkit.rg
    settings.max_turns = turns
    try:
        options = Options(map_filepath=Runner.default_map(), headless=True, quiet=4,
                          n_of_games=1, start=seed)
        Runner(player_files=[str(p) for p in paths], options=options).run()
    finally:
        settings.max_turns = kept_turns
        if kept_rg is not None:
            sys.modules["rg"] = kept_rg


def play(mode: str, paths: list[Path], seed: int, turns: int) -> dict[str, float]:
    """One match of `mode`: its per-match figures (ms), and its turn samples (µs) kept on
    METER."""
    from orchestrator.games import get_game
    from orchestrator.runner.bots import read_bot
    from orchestrator.runner.match import MatchSpec, run_match
    METER.clear()
    SINK.take()
    host_began, children_began = time.process_time_ns(), children_cpu_ns()
    stdout, stderr = sys.stdout, sys.stderr
    result = None
    sys.stdout = sys.stderr = SINK
    try:
        if mode == "rgkit":
            rgkit_match(paths, seed, turns)
        else:
            game = get_game("robotgame")
            map_path = game.find_map(None)
            result = run_match(MatchSpec("robotgame", map_path,
                                         [read_bot(p, "robotgame") for p in paths], seed,
                                         game.rules("rgkit", max_turns=turns), sandbox=mode,
                                         map_text=map_path.read_text()))
    finally:
        sys.stdout, sys.stderr = stdout, stderr
    host_ns = time.process_time_ns() - host_began
    children_ns = children_cpu_ns() - children_began
    if result is not None:
        problems = [p.get("reason") for p in result["players"] if p.get("status") != "ok"]
        if problems:
            raise SystemExit(f"error: {mode}: a bot did not finish the match: {problems}")
    ms = 1e-6
    figures = {"total_ms": (host_ns + children_ns) * ms, "bots_ms": METER.acts * ms}
    if mode == "match":
        figures["bots_ms"] = sum(sum(reports(p.get("output") or ""))
                                 for p in result["players"]) * ms    # type: ignore[index]
    elif mode == "rgkit":
        figures["start_host_ms"] = (host_ns - METER.turn_loop) * ms
        figures["other_ms"] = (METER.turn_loop - METER.exchange_host) * ms
    else:
        figures["start_host_ms"] = METER.start_host * ms
        figures["other_ms"] = (host_ns - METER.start_host - METER.exchange_host) * ms
        if mode == "standard":
            figures["start_children_ms"] = (children_ns - METER.child_turns) * ms
    return figures


def _trivial():
    return None


def _loops(guard, guarded, calls: int, rounds: int) -> float:
    """µs per call that guarded(guard, f) costs over f(), the median of `rounds`."""
    f = _trivial
    guarded(guard, f)                  # the first call arms a Guard's timers
    diffs = []
    for _ in range(rounds):
        began = time.thread_time_ns()
        for _ in range(calls):
            f()
        plain = time.thread_time_ns() - began
        began = time.thread_time_ns()
        for _ in range(calls):
            guarded(guard, f)
        diffs.append((time.thread_time_ns() - began - plain) / calls / 1000)
    return statistics.median(diffs)


def guard_cost(mode: str, calls: int, rounds: int = 5) -> float:
    """One guarded call's cost in `mode`: off's NoGuard here, standard's Guard in a forked
    process (a child's shape: one thread, its guard's timers armed)."""
    from sandbox.inprocess import child_runtime
    runtime = child_runtime()
    if mode == "off":
        return _loops(runtime.NoGuard(), runtime.guarded, calls, rounds)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                    # the child: report, and go
        try:
            os.close(read)

            def fatal(reason):
                os.write(write, f"fatal {reason}".encode())
                os._exit(1)

            guard = runtime.Guard(1.0, 5.0, fatal, {"watchdog_grace_s": 10.0})
            os.write(write, repr(_loops(guard, runtime.guarded, calls, rounds)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    os.waitpid(pid, 0)
    try:
        return float(said)
    except ValueError:
        raise SystemExit(f"error: the guarded-call measurement failed: {said!r}") from None


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile `q` (0-100) of `values`."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def measure(modes: list[str], pair: list[str], games: int, turns: int,
            guarded_calls: int) -> dict:
    """Every figure of the table: per mode, per column (None: not this mode's)."""
    instrument()
    if "rgkit" in modes:
        instrument_rgkit()
    per_match: dict[str, dict[str, list[float]]] = {m: defaultdict(list) for m in modes}
    calls: dict[str, list[int]] = defaultdict(list)
    sums: dict[str, dict[str, list[float]]] = {m: defaultdict(list) for m in modes}
    host_turns: dict[str, list[float]] = defaultdict(list)
    child_turns: dict[str, list[float]] = defaultdict(list)
    all_turns: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="cost-model-") as folder:
        paths = []
        for i, name in enumerate(pair):             # two copies of a sample stay apart
            path = Path(folder) / str(i) / name
            path.parent.mkdir()
            path.write_text((BOTS / name).read_text() + WRAPPER)
            paths.append(path)
        for mode in modes:
            play(mode, paths, WARMUP_SEED, turns)   # the zygotes, the imports, the caches
        for seed in range(1, games + 1):
            for mode in modes:
                figures = play(mode, paths, seed, turns)
                for key, value in figures.items():
                    per_match[mode][key].append(value)
                host_turns[mode] += [ns / 1000 for ns in METER.host_turns]
                child_turns[mode] += [ns / 1000 for ns in METER.child_turn_samples]
                all_turns[mode] += [ns / 1000 for ns in METER.all_turns]
                if METER.calls:
                    calls[mode].append(METER.calls)
                for side, samples in (("host", METER.host_turns),
                                      ("child", METER.child_turn_samples)):
                    if samples:
                        sums[mode][side].append(sum(samples) / 1e6)
            for mode in modes:
                if "guarded_call_us" in APPLIES[mode]:
                    per_match[mode]["guarded_call_us"].append(guard_cost(mode,
                                                                            guarded_calls))
    rows = {}
    for mode in modes:
        row: dict[str, float | None] = {key: None for key in COLUMNS}
        for key, values in per_match[mode].items():
            row[key] = statistics.median(values)
        for side, samples in (("host", host_turns[mode]), ("child", child_turns[mode]),
                              ("all", all_turns[mode])):
            if f"turn_{side}_p50_us" in APPLIES[mode] and samples:
                row[f"turn_{side}_p50_us"] = percentile(samples, 50)
                row[f"turn_{side}_p99_us"] = percentile(samples, 99)
        rows[mode] = {key: (row[key] if key in APPLIES[mode] else None) for key in COLUMNS}
    figures = {"games": games, "turns": turns, "pair": pair, "seeds": [1, games],
               "guarded_calls": guarded_calls, "machine": machine(),
               # act calls a match asks of the players (off and standard: the same match)
               "acts_per_match": {m: statistics.median(c) for m, c in calls.items()},
               # a match's turns, less the acts, summed (ms, medians): the per-turn
               # columns' share of the total
               "turns_ms_per_match": {m: {side: statistics.median(v) for side, v in s.items()}
                                      for m, s in sums.items() if s},
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "columns": {key: {"header": h, "unit": u, "clock": c}
                           for key, (h, u, c) in COLUMNS.items()},
               "rows": rows}
    figures["floor"] = floor(rows)
    figures["overhead"] = overhead(rows)
    return figures


def floor(rows: dict) -> dict[str, float | None]:
    """Per column, the least rgkit's loop and off spend."""
    line: dict[str, float | None] = {}
    for key in COLUMNS:
        values = [rows[m][key] for m in ("rgkit", "off") if m in rows and
                  rows[m][key] is not None]
        line[key] = min(values) if values else None
    return line


def overhead(rows: dict) -> dict[str, float | None]:
    """Per column, standard less off (a part off has not counts 0)."""
    if "standard" not in rows or "off" not in rows:
        return {key: None for key in COLUMNS}
    line: dict[str, float | None] = {}
    for key in COLUMNS:
        mine, base = rows["standard"][key], rows["off"][key]
        if base is None and key in OFF_HAS_NONE:
            base = 0.0
        line[key] = None if mine is None or base is None else mine - base
    return line


def machine() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), "")
    except OSError:
        pass
    return (f"{os.cpu_count()} cores {model}, Linux {platform.release()}, "
            f"Python {platform.python_version()}").replace("  ", " ")


def show(figures: dict) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"Robot Game, {' v '.join(figures['pair'])}, {figures['turns']} "
                        f"turns: CPU per match (median of {figures['games']}), per turn "
                        f"(p50/p99 of every turn), per guarded call")
    table.add_column("mode")
    for header, unit, _ in COLUMNS.values():
        table.add_column(f"{header}\n{unit}", justify="right")
    lines = [*figures["rows"].items(), ("floor", figures["floor"]),
             ("overhead", figures["overhead"])]
    for name, line in lines:
        table.add_row(name, *("-" if line[k] is None else f"{line[k]:.1f}" for k in COLUMNS),
                      end_section=name == list(figures["rows"])[-1])
    console = Console(width=max(Console().width, 168))
    console.print(table)
    console.print("clocks: " + "; ".join(f"{h}: {c}" for h, _, c in COLUMNS.values()))
    console.print(f"{figures['machine']}, {figures['date']}")


def markdown(figures: dict) -> str:
    """The table as docs/cost-model.md shows it."""
    lines = ["| mode | " + " | ".join(f"{h} ({u})" for h, u, _ in COLUMNS.values()) + " |",
             "|---" * (len(COLUMNS) + 1) + "|"]
    named = [*figures["rows"].items(), ("floor", figures["floor"]),
             ("overhead", figures["overhead"])]
    for name, line in named:
        lines.append(f"| {name} | " + " | ".join(
            "-" if line[k] is None else f"{line[k]:.1f}" for k in COLUMNS) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--pair", nargs=2, default=["example.py", "survivor.py"])
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--calls", type=int, default=20000,
                        help="calls per round of the guarded-call measurement")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--markdown", action="store_true",
                        help="print the table as docs/cost-model.md shows it")
    args = parser.parse_args()
    if args.games < 1 or args.turns < 1 or args.calls < 1:
        parser.exit(2, "error: --games, --turns and --calls are at least 1\n")
    for name in args.pair:
        if not (BOTS / name).is_file():
            parser.exit(2, f"error: --pair: no sample {name!r} in bots/robotgame/\n")
    if os.environ.get("PYTHONHASHSEED") != "0":
        # off plays the standard children's match only with their hash seed
        os.execve(sys.executable, [sys.executable, *sys.argv],
                  {**os.environ, "PYTHONHASHSEED": "0"})
    figures = measure(args.modes, args.pair, args.games, args.turns, args.calls)
    if args.json:
        print(json.dumps(figures, indent=1, ensure_ascii=False))
    elif args.markdown:
        print(markdown(figures))
    else:
        show(figures)


if __name__ == "__main__":
    main()
