"""Play one match: load the AIs, drive the engine turn by turn, erase and replay on failure.

The flow runs one way: map and bots go in, the engine and the sandbox talk once per AI
per turn, and a plain result dict comes out.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from engine import ENGINE_VERSION
from engine.protocol import Match
from engine.streams import bot_key
from orchestrator.games import get_game, wrong_game_hint
from orchestrator.games.entry import Game
from orchestrator.replay import debug as debug_marks
from orchestrator.replay import file as replay
from orchestrator.results.match_result import MatchData, PlayerData
from orchestrator.runner import JAIL_JOB, jail_result
from orchestrator.runner.bots import BotFile, unique_names
from sandbox.isolation import CGROUP_SLACK_MB
from sandbox.limits import Limits
from sandbox.modes import IN_JAIL, get_mode
from sandbox.players import Players, as_usage

logger = logging.getLogger(__name__)
if TYPE_CHECKING:
    from sandbox.replies import Reply


@dataclass(frozen=True)
class MatchSpec:
    """Everything a match is a pure function of: the one shape of a match from the
    service that builds it, through the schedule that plans it and the worker or jail that
    plays it, to the store that records it (`record_of`) and `arena replay DB:ID`, which
    reads it back (service/stored_replay.py)."""

    game: str
    map_path: Path
    bots: list[BotFile]
    seed: int
    rules: Any
    limits: Limits | None = None           # None: the game's default limits
    sandbox: str = "standard"
    skip_layers: tuple[str, ...] = ()      # isolation layers left off (benchmarks, tests)
    map_text: str | None = None            # the map itself, when it travels as data
    # Executable bots: the files each bot's scratch directory starts with (by seat), the
    # ones it left at the end of its previous game of the series.
    scratch: list[dict[str, Any]] | None = None
    # A position file's game state (orchestrator/replay/position.py, checked): the match starts
    # there instead of at turn 0, with the position's seed, rules and map text.
    start: dict[str, Any] | None = None
    turns: int | None = None               # stop after this many turns (None: play on)
    replay: bool = False                   # a worker sends the match's replay file back


def record_of(spec: MatchSpec) -> dict[str, Any]:
    """What the store keeps of a played match's spec to play it again (`arena replay
    DB:MATCH_ID`): everything but the map's and the bots' text, which stay in their files
    and are named by path and sha256 (a replay refuses a file that changed since). A bot's
    `file` is its absolute path, where it is read again; its `path` stays as it was given,
    as the match's results and replay name it. Read back by stored_replay.checked_record."""
    assert spec.map_text is not None and spec.limits is not None    # a planned match's
    record: dict[str, Any] = {
        "game": spec.game, "map_name": spec.map_path.name,
        "map_path": str(spec.map_path.resolve()), "rules": spec.rules.as_dict(),
        "seed": spec.seed, "limits": dataclasses.asdict(spec.limits), "sandbox": spec.sandbox,
        "bots": [{"path": bot.path, "name": bot.name, "sha256": bot.sha256,
                  "file": str(Path(bot.path).resolve())} for bot in spec.bots],
    }
    if spec.scratch is not None:
        record["scratch"] = [scratch_text(files) for files in spec.scratch]
    record["map_sha256"] = hashlib.sha256(spec.map_text.encode()).hexdigest()
    return record


@dataclass
class Timing:
    """Per-turn wall times, for benchmarks: engine, the whole exchange, and bot code."""

    engine_s: list[float] = field(default_factory=list)
    exchange_s: list[float] = field(default_factory=list)
    bot_s: list[float] = field(default_factory=list)
    child_busy_s: list[float] = field(default_factory=list)
    decisions: int = 0


@dataclass
class Seat:
    """One AI of the lineup and what became of it."""

    bot: BotFile
    name: str
    status: str = "ok"
    reason: str | None = None
    turn: int | None = None
    cpu_s: float = 0.0
    own_s: float = 0.0             # its requests' own time: wall less run-queue wait
    peak_rss_mb: float = 0.0
    output: str = ""
    output_dropped: int = 0
    violations: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    scratch: dict[str, Any] | None = None      # an executable bot's scratch files, as it left them


def _load_players(spec: MatchSpec, seats: dict[int, Seat]) -> Players:
    """The AIs of one attempt, loaded by the spec's sandbox mode (sandbox/modes.py)."""
    game = get_game(spec.game)
    bots = {i: game.bot_spec(seat.bot, seat.scratch) for i, seat in seats.items()}
    assert spec.limits is not None         # run_match puts the game's in first
    return get_mode(spec.sandbox).load(game.bot_side, bots, spec.limits, spec.skip_layers)


# `stop(turn, stats, own)` after each turn: the turn just played (as the game counts),
# each playing seat's stats so far (the game's own, `Match.stats`) and, apart from them,
# each seat's own time so far where its players measure it; True ends the match there.
StopWhen = Callable[[int, dict[int, dict[str, Any]], dict[int, float]], bool]


def run_match(spec: MatchSpec, on_turn: Callable[[int, int], None] | None = None,
              timing: Timing | None = None, trace: Callable[[Match], None] | None = None,
              replays: list[dict[str, Any]] | None = None,
              stop: StopWhen | None = None) -> MatchData:
    """Play the match, replaying it from turn 0 after each erase. Returns the result.

    With a `replays` list, the match's replay is appended to it.
    `on_turn(turn, max_turns)` reports progress; `trace(match)` sees the state after every
    turn of the attempt that counts (and of erased attempts too, before their erase).
    `stop` (only `arena check` passes one) may end the match early, once its outcome no
    longer matters to the caller: the result's `end` is then "stopped".
    """
    game = get_game(spec.game)
    if spec.limits is None:
        spec = dataclasses.replace(spec, limits=game.limits)
    logger.debug("match start: %s on %s, seed %d, sandbox %s, bots %s", spec.game,
                 spec.map_path.name, spec.seed, spec.sandbox,
                 ", ".join(f"{bot.path} ({bot.sha256[:12]})" for bot in spec.bots))
    if get_mode(spec.sandbox).whole_match:
        return _jailed(spec, on_turn, replays, trace, stop)
    arena_map = game.parse_map(spec.map_text, spec.map_path.name) \
        if spec.map_text is not None else game.load_map(spec.map_path)
    names = unique_names([bot.name for bot in spec.bots], [bot.path for bot in spec.bots])
    seats = [Seat(bot, name) for bot, name in zip(spec.bots, names, strict=True)]
    no_scratch: list[dict[str, Any] | None] = [None] * len(seats)
    start_scratch = spec.scratch or no_scratch
    attempt = _Attempt(spec, game, arena_map, record=replays is not None, on_turn=on_turn,
                       timing=timing, trace=trace, stop=stop)
    restarts = 0
    sandbox: tuple[list[str], dict[str, str]] | None = None
    marks: list[dict[str, Any]] = []
    while True:
        playing = {i: s for i, s in enumerate(seats) if s.status == "ok"}
        for i, seat in playing.items():          # an erase replays from the same start
            seat.scratch = start_scratch[i]
        outcome = attempt.play(playing)
        if sandbox is None:
            sandbox = outcome.sandbox
        for seat in seats:
            if seat.status in ("erased", "forfeit") and not any(
                    m["player"] == seat.name for m in marks):
                marks.append({"turn": seat.turn, "kind": seat.status, "player": seat.name,
                              "reason": seat.reason})
        if isinstance(outcome, Finished):
            break
        restarts += 1
        logger.debug("seed %d: replayed from its start without the erased (restart %d)",
                     spec.seed, restarts)
    result = _result(spec, game, arena_map, seats, outcome.match, lineup=outcome.lineup,
                     restarts=restarts)
    result["moves"] = outcome.moves
    if outcome.stopped:
        result["end"] = "stopped"
    if any(seat.status == "forfeit" or seat.status == "load_error" and game.failure ==
           "forfeit" for seat in seats):
        result["end"] = "forfeit"
    if outcome.recorder is not None:
        assert replays is not None         # a recorder only where replays is a list
        replays.append(replay.build(result, outcome.recorder, marks))
    result["sandbox"], result["sandbox_missing"] = sandbox or ([], {})
    logger.debug("match end: seed %d, %s after %d turns, winner %s, %d restarts", spec.seed,
                 result["end"], result["turns"], result["winner"], restarts)
    return result


FALLBACK_NOTE = "executable bots: played in the standard mode"


def match_fallback(game: Game, bots: list[BotFile]) -> str | None:
    """Why `--sandbox match` plays these bots in the standard mode, if it does: programs
    need a keeper that may start them, and the jail may start nothing."""
    if any(game.bot_spec(bot).program is not None for bot in bots):
        return FALLBACK_NOTE
    return None


def _jailed(spec: MatchSpec, on_turn: Callable[[int, int], None] | None,
            replays: list[dict[str, Any]] | None, trace: Callable[[Match], None] | None,
            stop: StopWhen | None) -> MatchData:
    """`--sandbox match`: the whole match in one jail (sandbox/matchjail.py). Its result
    is taken only where it charges no bot and checks out (orchestrator/runner/jail_result.py);
    otherwise the match, a pure function of map, bots, seed and rules, is played again in
    the standard mode, and that result stands, with what the jail claimed, unverified."""
    if trace is not None or stop is not None:
        raise ValueError("--sandbox match plays whole matches: no trace, no early stop")
    from sandbox import matchjail
    note = match_fallback(get_game(spec.game), spec.bots)
    if note:
        return _in_standard(spec, on_turn, replays, note)
    if spec.map_text is None:
        spec = dataclasses.replace(spec, map_text=spec.map_path.read_text())
    names = unique_names([bot.name for bot in spec.bots], [bot.path for bot in spec.bots])
    # The jail gets file names, as a standard child does, not where the host keeps them.
    told = dataclasses.replace(spec, map_path=Path(spec.map_path.name), bots=[
        dataclasses.replace(bot, path=Path(bot.path).name) for bot in spec.bots])

    limits = spec.limits
    assert limits is not None                  # run_match puts the game's in first

    def check(result: Any, replay: Any) -> tuple[str | None, int | None]:
        return jail_result.refusal(result, replay, jail_result.Asked(
            game=spec.game, seed=spec.seed, max_turns=spec.rules.max_turns, bots=told.bots,
            names=names, want_replay=replays is not None, output_bytes=limits.output_bytes))
    outcome = matchjail.run(told, check, on_turn, replays is not None, spec.rules.max_turns,
                            job_module=JAIL_JOB)
    if isinstance(outcome, matchjail.Played):
        result: MatchData = outcome.result     # checked by `check` above
        result["sandbox_mode"], result["sandbox"] = "match", outcome.layers
        result["sandbox_missing"], result["jail_kills"] = outcome.missing, []
        for player in result["players"]:       # the host's own reading, not the jail's
            player["bot"] = spec.bots[player["seat"]].path
            player["description"] = spec.bots[player["seat"]].description
        if replays is not None:
            for k, player in enumerate(outcome.replay["players"]):
                player["bot"] = spec.bots[k].path
            outcome.replay["sandbox_mode"] = "match"
            replays.append(outcome.replay)
        return result
    why, seat = outcome.reason, outcome.seat
    logger.info("seed %d: the match jail failed (%s, seat %s): played again in the standard "
                "mode", spec.seed, why[:200], seat)
    result = _in_standard(spec, on_turn, replays, f"the match jail failed ({why[:200]}): "
                                                  "played again in the standard mode")
    result["jail_kills"] = [{"seat": seat, "player": names[seat] if seat is not None and
                             0 <= seat < len(names) else None, "reason": why[:200],
                             "unverified": True}]
    return result


def _in_standard(spec: MatchSpec, on_turn: Callable[[int, int], None] | None,
                 replays: list[dict[str, Any]] | None,
                 note: str) -> MatchData:
    """A match asked for in `--sandbox match`, played in the standard mode, and why."""
    logger.debug("seed %d: played in the standard mode: %s", spec.seed, note)
    result = run_match(dataclasses.replace(spec, sandbox="standard"), on_turn,
                       replays=replays)
    result["sandbox_note"] = note
    return result


@dataclass
class Finished:
    """An attempt that played the match to its end (or to `stop`)."""

    match: Match
    lineup: list[int]                  # match-local index -> seat index
    stopped: bool                      # `stop` ended it early
    recorder: replay.Recorder | None   # its replay, when one was asked for
    sandbox: tuple[list[str], dict[str, str]] | None   # the children's isolation layers
    moves: str = ""                    # `moves_digest` of the moves played


@dataclass
class Erased:
    """An attempt cut short by a failed AI (now marked erased): the match is replayed
    without it."""

    sandbox: tuple[list[str], dict[str, str]] | None


class _Attempt:
    """One try at the whole match, from turn 0, with the seats still playing."""

    def __init__(self, spec: MatchSpec, game: Game, arena_map: Any, *, record: bool,
                 on_turn: Callable[[int, int], None] | None, timing: Timing | None,
                 trace: Callable[[Match], None] | None, stop: StopWhen | None) -> None:
        self.spec, self.game, self.arena_map = spec, game, arena_map
        self.record, self.on_turn, self.timing = record, on_turn, timing
        self.trace, self.stop = trace, stop

    def play(self, playing: dict[int, Seat]) -> Finished | Erased:
        """Load the AIs of `playing` and play. A seat that fails to load leaves `playing`
        (or, in a forfeit game, ends the match before it starts)."""
        spec, on_turn, timing, trace, stop = (self.spec, self.on_turn, self.timing,
                                              self.trace, self.stop)
        players = _load_players(spec, playing)
        forfeits = self.game.failure == "forfeit"
        try:
            sandbox = players.layers() if players.seats() else None
            for i, reason in players.failed.items():
                # A forfeit game keeps the seat, and the match ends before it starts.
                seat = playing[i] if forfeits else playing.pop(i)
                seat.status = "load_error"
                seat.reason = _hinted(memory_words(reason, spec), seat.bot, spec.game)
                logger.debug("seed %d: %s did not load: %s", spec.seed, seat.name, seat.reason)
            lineup = sorted(playing)                       # match-local index -> seat index
            local_names = [playing[i].name for i in lineup]
            match = self._new_match(local_names)
            recorder = replay.Recorder(match, self._setup(local_names), seats=lineup) \
                if self.record else None
            loaded = players.seats()
            for local, i in enumerate(lineup):
                if i in loaded:
                    playing[i].output, violations = players.start(
                        i, local_names, local, bot_key(spec.seed, local, len(lineup)),
                        match.start_info(local))
                    _note_violations(playing[i], violations)
            keeper = debug_marks.Keeper(len(lineup)) if recorder is not None else None
            forfeited = bool(players.failed) and forfeits
            played = 0                 # exchanges of this attempt (Race's round 0 adds none
                                       # to match.turn)
            digest = hashlib.sha256()
            while match.end is None and lineup and not forfeited:
                started = time.perf_counter()
                views = match.views()
                payloads = {lineup[ai]: (view, match.calls(ai)) for ai, view in views.items()}
                engine_s = time.perf_counter() - started
                replies, failed = players.exchange(payloads)
                exchanged = time.perf_counter()
                moves: dict[str, Any] = {}
                answers: list[list[Any]] = []
                marks: dict[int, dict[str, Any]] = {}
                for i, reply in replies.items():
                    local = lineup.index(i)
                    try:
                        moves.update(match.decode_answer(local, reply.get("moves")))
                    except ValueError as exc:
                        failed[i] = f"protocol: {exc}"
                        continue
                    # What the replay keeps is what the game validated, never the reply
                    # as the bot's side sent it.
                    answers.append([local, match.kept_answer(local, reply["moves"])])
                    _note_reply(playing[i], reply, spec.limits)  # type: ignore[arg-type]  # run_match fills it
                    if keeper is not None:
                        kept = keeper.keep(match, local, reply)
                        if kept is not None:
                            marks[local] = kept
                        if local in keeper.cut:
                            _warn(playing[i], debug_marks.CUT_WARNING)
                for i, reason in failed.items():
                    _fail(playing[i], memory_words(reason, spec), match, spec.game, forfeits)
                if failed and forfeits:
                    forfeited = True           # the match ends here; the failed AI loses
                    break
                if failed:
                    return Erased(sandbox)
                digest.update(moves_digest_line(moves))
                log = match.play_turn(moves)
                played += 1
                if recorder is not None:
                    recorder.turn(match, log, answers, marks)
                if timing is not None:
                    timing.engine_s.append(engine_s + time.perf_counter() - exchanged)
                    timing.exchange_s.append(exchanged - started - engine_s)
                    timing.bot_s.append(sum(r.get("bot_s", 0.0) for r in replies.values()))
                    timing.child_busy_s.append(max((r.get("busy_s", 0.0)
                                                    for r in replies.values()), default=0.0))
                    timing.decisions += sum(match.calls(ai) for ai in views)
                if on_turn is not None:
                    on_turn(match.turn, spec.rules.max_turns)
                if trace is not None:
                    trace(match)
                if stop is not None and match.end is None and stop(
                        played - 1 + match.first_turn, *_stop_stats(match, lineup, players)):
                    return Finished(match, lineup, True, recorder, sandbox,
                                    digest.hexdigest()[:MOVES_DIGEST])
                if spec.turns is not None and match.end is None and played >= spec.turns:
                    return Finished(match, lineup, True, recorder, sandbox,
                                    digest.hexdigest()[:MOVES_DIGEST])
            return Finished(match, lineup, False, recorder, sandbox,
                            digest.hexdigest()[:MOVES_DIGEST])
        finally:
            players.close()
            _account(players, playing)

    def _new_match(self, names: list[str]) -> Match:
        """The match at its first turn, or at the position the spec starts from."""
        spec = self.spec
        if spec.start is None:
            return self.game.new_match(self.arena_map, names, spec.seed, spec.rules)
        assert self.game.position is not None   # a start only for a game with positions
        return self.game.position.load(self.arena_map, names, spec.seed, spec.rules,
                                       spec.start)

    def _setup(self, names: list[str]) -> dict[str, Any]:
        """What a replay keeps to play its match again without the bots: the map's text,
        the AIs' names, the position it started from (if any); the answers come by turn."""
        spec = self.spec
        text = spec.map_text if spec.map_text is not None else _map_text(spec.map_path)
        setup: dict[str, Any] = {"map_text": text, "names": list(names)}
        if spec.start is not None:
            setup["start"] = spec.start
        return setup


def _map_text(path: Path) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


MOVES_DIGEST = 24             # hex digits of a result's `moves`


def moves_digest_line(moves: dict[str, Any]) -> bytes:
    """One turn's decoded moves, in a form that depends on the moves alone: keyed by the
    engine's robot, place or player index, never by a bot's name, so a pair of games two
    identical bots play with their seats swapped gives the same digest.

    The line is `repr(sorted(moves.items(), key=repr))`: a list's repr is its items'
    reprs joined, so each item's repr is made once, here, and sorted itself (equal reprs
    print alike, whatever their order), not made a second time for the list (which
    would take twice the time of the line)."""
    return ("[" + ", ".join(sorted(map(repr, moves.items()))) + "]\n").encode()


def _fail(seat: Seat, reason: str, match: Match, game: str, forfeits: bool) -> None:
    """Mark a seat whose AI failed this turn: forfeit or erased, or a load error."""
    seat.status = "forfeit" if forfeits else "erased"
    if reason.startswith(LATE_LOAD_ERROR):
        # A program that loads the bot itself (Ruby's driver) fails to load on its first
        # turn: a load error like Python's (its first line), not a crash.
        seat.status = "load_error"
        reason = _hinted(reason.removeprefix(LATE_LOAD_ERROR).splitlines()[0], seat.bot, game)
    # The number of the turn being played, as the game counts (arena from 1, Robot Game
    # from 0).
    seat.reason, seat.turn = reason, match.turn + match.first_turn
    if seat.status == "load_error":
        seat.turn = None
    logger.debug("%s %s at turn %s: %s", seat.name, seat.status, seat.turn, reason)


LATE_LOAD_ERROR = "load_error: "
# The sandbox's words for a memory erase (sandbox/botlib/_runtime.py, host.py, matchjail.py):
# an allocation refused (a MemoryError), memory held past the alarm (the peak RSS), or the
# memory cgroup's OOM kill.
MEMORY, ALLOCATION, CGROUP = "memory limit", ": an allocation failed", " (memory cgroup)"


def memory_words(reason: str, spec: MatchSpec) -> str:
    """A memory erase's reason with the figure the AI hit, which the peak it was seen
    holding is not (a refused 2 GiB allocation leaves a 14 MB peak): `memory limit: an
    allocation went past the 512 MB cap`, `memory limit: held over 410 MB (80 % of the
    512 MB cap)`. Other reasons, and `--sandbox off`'s (no cap), as they are."""
    limits = spec.limits
    if not reason.startswith(MEMORY) or limits is None or spec.sandbox == "off":
        return reason
    rest = reason.removeprefix(MEMORY)
    at_import = " at import" if rest.endswith(" at import") else ""
    rest = rest.removesuffix(" at import")
    cap = limits.memory_mb
    if rest == ALLOCATION:
        said = f": an allocation went past the {cap} MB cap"
    elif rest == CGROUP:
        said = f" (memory cgroup): held over {cap + CGROUP_SLACK_MB} MB"
    elif rest == "":
        said = (f": held over {cap * limits.memory_alarm:.0f} MB "
                f"({limits.memory_alarm * 100:.0f} % of the {cap} MB cap)")
    else:
        return reason
    return f"{MEMORY}{said}{at_import}"


def _hinted(reason: str, bot: BotFile, game: str) -> str:
    """A load error's reason, with the game the bot looks written for if not this one."""
    return reason + wrong_game_hint(bot.path, bot.source, game)


# What a result keeps of a seat's replies, at most (jail_result holds a jail's to it).
KEPT_NOTES = 20                       # warnings, errors, violations: each list
WARNING_TEXT, ERROR_TEXT, VIOLATION_TEXT = 92, 200, 100
WARNING = "module state changed by move(): "


def _note_reply(seat: Seat, reply: Reply, limits: Limits) -> None:
    """Keep a reply's output, rule-1 warnings and a few overheat messages. The reply
    passed its envelope (sandbox/replies.py): each list is short, each text bounded."""
    out = reply.get("out")
    if isinstance(out, str) and out:
        seat.output = (seat.output + out)[:limits.output_bytes]
    for name in reply.get("warn") or ():
        text = f"{WARNING}{str(name)[:60]}"
        if text not in seat.warnings and len(seat.warnings) < KEPT_NOTES:
            seat.warnings.append(text)
    for entry in reply.get("errors") or ():
        if len(seat.errors) < KEPT_NOTES and isinstance(entry, list) and len(entry) == 2:
            seat.errors.append(str(entry[1])[:ERROR_TEXT])
    dropped = reply.get("out_dropped")
    if isinstance(dropped, int):
        seat.output_dropped = max(seat.output_dropped, dropped)
    _note_violations(seat, reply.get("violations") or ())
    if reply.get("marks_cut"):
        _warn(seat, debug_marks.CUT_WARNING)
    if isinstance(reply.get("scratch"), dict):
        seat.scratch = reply["scratch"]


def _warn(seat: Seat, text: str) -> None:
    """A warning, once per seat."""
    if text not in seat.warnings and len(seat.warnings) < KEPT_NOTES:
        seat.warnings.append(text)


def _note_violations(seat: Seat, violations: Iterable[object]) -> None:
    """Attempts the sandbox blocked and could see (importing the engine, for one)."""
    for text in violations:
        text = str(text)[:VIOLATION_TEXT]
        if text not in seat.violations and len(seat.violations) < KEPT_NOTES:
            seat.violations.append(text)


def _account(players: Players, playing: dict[int, Seat]) -> None:
    for i in players.seats():
        if i in playing:
            cpu_s, peak_mb, own_s = as_usage(tuple(players.usage(i)))
            playing[i].cpu_s = round(cpu_s, 3)
            playing[i].own_s = round(own_s, 3)
            playing[i].peak_rss_mb = round(peak_mb, 1)


def _stop_stats(match: Match, lineup: list[int], players: Players
                ) -> tuple[dict[int, dict[str, Any]], dict[int, float]]:
    """What `stop` sees after a turn: each playing seat's stats so far, and, kept apart
    from the game's stats, where its players measure it, the own time its requests took
    so far (their wall time less their run-queue wait, as the host reads it at each
    reply)."""
    said: dict[int, dict[str, Any]] = {}
    own: dict[int, float] = {}
    for local, i in enumerate(lineup):
        said[i] = dict(match.stats(local))
        if i in players.seats():
            usage: tuple[float, ...] = tuple(players.usage(i))
            if len(usage) > 2:
                own[i] = usage[2]
    return said, own


def scratch_text(files: dict[str, Any]) -> dict[str, str]:
    """Scratch files for a JSON result: each file's bytes in base64."""
    return {str(name): base64.b64encode(data).decode() for name, data in files.items()
            if isinstance(data, bytes)}


def scratch_files(text: dict[str, Any]) -> dict[str, bytes]:
    """The inverse of `scratch_text`."""
    return {name: base64.b64decode(data) for name, data in (text or {}).items()}


def _result(spec: MatchSpec, game: Game, arena_map: Any, seats: list[Seat], match: Match,
            lineup: list[int], restarts: int) -> MatchData:
    ranks = match.ranking() if lineup else []
    in_match = {i: ranks[local] for local, i in enumerate(lineup)}
    ok = [i for i in lineup if seats[i].status == "ok"]
    # Among those who finished, the match's ranks; then the erased or forfeited; then the
    # bots that never loaded.
    rank_of = {i: 1 + sum(in_match[j] < in_match[i] for j in ok) for i in ok}
    lost = [i for i, s in enumerate(seats) if s.status in ("erased", "forfeit")]
    for i in lost:
        rank_of[i] = len(ok) + 1
    for i, seat in enumerate(seats):
        if seat.status == "load_error":
            rank_of[i] = len(ok) + len(lost) + 1
    players: list[PlayerData] = []
    for i, seat in enumerate(seats):
        local = lineup.index(i) if i in lineup else None
        stats = match.stats(local) if local is not None else {}
        players.append({
            "name": seat.name, "seat": i, "bot": seat.bot.path, "sha256": seat.bot.sha256,
            "rank": rank_of[i], "status": seat.status, "reason": seat.reason,
            "turn": seat.turn, "overheats": stats.get("overheats", 0), "cpu_s": seat.cpu_s,
            "own_s": seat.own_s, "peak_rss_mb": seat.peak_rss_mb, "stats": stats,
            "warnings": seat.warnings, "errors": seat.errors, "output": seat.output,
            "output_dropped": seat.output_dropped, "violations": seat.violations,
        })
        if seat.scratch is not None:
            players[-1]["scratch"] = scratch_text(seat.scratch)
        if spec.sandbox != IN_JAIL:     # the host reads it; a jail's result never says it
            players[-1]["description"] = seat.bot.description
    players.sort(key=lambda p: (p["rank"], p["name"]))
    best = sorted({p["rank"] for p in players if p["status"] == "ok"})
    at = {r: [p["name"] for p in players if p["rank"] == r and p["status"] == "ok"]
          for r in best}
    winner = at[best[0]][0] if best and len(at[best[0]]) == 1 else None
    runner_up = at[best[1]][0] if winner and len(best) > 1 and len(at[best[1]]) == 1 else None
    return {
        "game": spec.game, "engine_version": ENGINE_VERSION, "seed": spec.seed,
        "map": arena_map.name, "rules": spec.rules.as_dict(), "turns": match.turn,
        "end": match.end or "no_players", "winner": winner, "runner_up": runner_up,
        "restarts": restarts, "sandbox_mode": spec.sandbox, "players": players, "replay": None,
    }
