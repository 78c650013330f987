"""The typed shape of a played match: what `run_match` returns, a worker sends back, the
store records and `--json` prints. Plain JSON data (TypedDicts, not classes), so that it
crosses a process pipe, a Dask cluster and the results file as it is, and a type checker
checks every key read on the way.
"""

from typing import Any, NotRequired, TypedDict


class PlayerData(TypedDict):
    """One AI of a match, by seat: its rank, and what became of it."""

    name: str                       # as the match names it (unique within the match)
    seat: int
    bot: str                        # its file, as given
    sha256: str
    rank: int
    status: str                     # ok, erased, forfeit or load_error
    reason: str | None              # why it is not ok
    turn: int | None                # the turn it was erased or forfeited at
    overheats: int
    cpu_s: float
    own_s: float                    # its requests' own time: their wall less run-queue wait
    peak_rss_mb: float
    stats: dict[str, Any]           # the game's own counts (faults, score, ...)
    warnings: list[str]
    errors: list[str]
    output: str
    output_dropped: int
    violations: list[str]
    scratch: NotRequired[dict[str, str]]     # an executable bot's files, in base64
    description: NotRequired[str]            # its docstring's, never a jail's word
    # The service's words for what it did wrong (orchestrator/results/notes.py).
    note: NotRequired[str]
    penalties: NotRequired[list[str]]


class JailKill(TypedDict):
    """A match jail that failed, and the bot it blamed (unverified)."""

    seat: int | None
    player: str | None
    reason: str
    unverified: bool


class MatchData(TypedDict):
    """One match: everything a result says, the seed and the engine version with it."""

    game: str
    engine_version: str
    seed: int
    map: str
    rules: dict[str, Any]
    turns: int
    end: str
    winner: str | None
    runner_up: str | None
    restarts: int
    sandbox_mode: str
    players: list[PlayerData]
    replay: str | None              # where its replay file is kept, once it is
    moves: NotRequired[str]         # a digest of every move, for `compare`'s same-game test
    sandbox: NotRequired[list[str]]
    sandbox_missing: NotRequired[dict[str, str]]
    sandbox_note: NotRequired[str]
    jail_kills: NotRequired[list[JailKill]]
    score: NotRequired[str]         # `arena run --json`, `api.play`: the game's score, by
                                    # rank (results/score.py), for a game that keeps one


class Played(TypedDict):
    """What a worker sends back for one planned match: its result or its error. An error
    with a `fault` is ours, not the input's: `fault` is its whole traceback, which the
    parent raises again as an InternalError (orchestrator/faults.py)."""

    wall_s: float
    result: NotRequired[MatchData]
    error: NotRequired[str]
    fault: NotRequired[str]
    replay: NotRequired[bytes]      # the replay file's bytes, which the parent writes
