"""The match protocol: what the orchestrator drives, the same for every game.

`Rulebook.new_match(map, names, seed, rules)` returns a `Match`. Each game's class for it
lives in `engine/<game>/game.py`; the rules it plays by live beside it (`match.py` and
friends). A game's class subclasses `MatchBase`, which gives the optional parts their
defaults, so the orchestrator calls every member without probing for it.

One match, as `orchestrator/runner/match.py` plays it:

    match = rulebook.new_match(map, names, seed, rules)
    start_info(ai) for each AI, once            -> sent with the match start
    while match.end is None:
        views()                                 -> {ai: view}, the AIs asked this turn
        calls(ai)                               -> bot calls that view stands for
        decode_answer(ai, reply)                -> moves (ValueError: a protocol fault)
        play_turn(all the moves)                -> the turn's log
    stats(ai), ranking()                        -> the result
    replay_static(), replay_frame(), replay_events(log)   -> the replay (docs/replay.md)

AIs are numbered 0..n-1 in the order of `names`. Everything a view or a start_info holds
must be plain data (msgpack-ready): it crosses into a sandboxed process.

`stats(ai)` is the game's own numbers, shown as its entry's columns, and the few the
orchestrator reads itself: REQUIRED_STATS, which every game gives, and COUNTED_STATS,
read where present (docs/architecture.md, "The game contract").
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

# The keys of `stats(ai)` the orchestrator reads, each with what reads it. tests/
# test_protocol.py holds every registered game to them and every reader to this list.
REQUIRED_STATS: dict[str, str] = {
    "decisions": "the bot calls (a program: the turns) the AI was asked for; arena check's "
                 "overheat, timeout and invalid gates and its hang watch divide by it, "
                 "so without it they never fire",
}
COUNTED_STATS: dict[str, str] = {
    "overheats": "exceptions and invalid moves: the result's `overheats` (0 without it) "
                 "and arena check's overheat gate",
    "timeouts": "calls past their time limit (the game played a default): arena check's "
                "timeout gate and hang watch",
    "invalid": "answers invalid, missing or late: arena check's invalid gate, arena run's note",
    "faults": "a program's failed turns, {kind: count}, the kinds those of arena check's "
              "PROGRAM_FAULTS (hang, cpu, memory, crash, output): arena check's verdict and "
              "hang watch, arena run's note",
    "score": "an integer score: a tournament's standings where the entry has "
             "ranked_by=\"score\" (then required), and arena compare's order of equal ranks",
    "alive": "how many pieces the AI still has (0 or false: out of the game): with "
             "last_alive_turn or turns, the turn `arena results --games` says it was out",
    "last_alive_turn": "the last turn the AI had pieces: results --games' turn out",
    "turns": "the turns the AI lasted: results --games' turn out where no last_alive_turn",
}


@runtime_checkable
class Match(Protocol):
    """One match of a game between AIs 0..n-1, advanced one turn at a time."""

    @property
    def first_turn(self) -> int:
        """The number of the first turn as the game counts (1, or 0 for rgkit's turns):
        results report a failure's turn as `turn + first_turn`."""
        ...

    @property
    def turn(self) -> int:
        """Turns played so far (0 before the first)."""
        ...

    @property
    def end(self) -> str | None:
        """Why the match ended ("flags", "turn_limit", ...), or None while it goes on."""
        ...

    def start_info(self, ai: int) -> dict[str, Any] | None:
        """What AI `ai`'s bot side needs once, before its first view (None: nothing)."""
        ...

    def views(self) -> dict[int, Any]:
        """This turn's view for each AI asked to play it."""
        ...

    def calls(self, ai: int) -> int:
        """How many bot calls the last view of `ai` asks for (one per robot, say)."""
        ...

    def decode_answer(self, ai: int, answer: Any) -> dict[Any, Any]:
        """One AI's reply checked against its view, as moves for `play_turn`; a reply
        that does not fit its view raises ValueError (the AI broke the protocol)."""
        ...

    def kept_answer(self, ai: int, answer: Any) -> Any:
        """The answer `decode_answer` just accepted, as a replay keeps it: rebuilt from the
        parts it validated (never the value as the bot's side sent it)."""
        ...

    def play_turn(self, moves: Any) -> Any:
        """Play one turn with every AI's decoded moves; returns the turn's log. (The moves
        are the game's own: its `decode_answer` results merged, keyed as it keys them.)"""
        ...

    def stats(self, ai: int) -> dict[str, Any]:
        """AI `ai`'s numbers for results (plain data): the game's own, with every key of
        REQUIRED_STATS and those of COUNTED_STATS the game counts."""
        ...

    def ranking(self) -> list[int]:
        """Competition ranks of the AIs (1 is best, ties share a rank), by index."""
        ...

    def replay_static(self) -> dict[str, Any]:
        """What never changes in the match (the map), merged into the replay's map."""
        ...

    def replay_frame(self) -> dict[str, list[list[Any]]]:
        """The state as keyed rows, {table: [[row id, ...], ...]}; a replay stores the
        rows that changed each turn."""
        ...

    def replay_events(self, log: Any) -> dict[str, Any]:
        """A turn's log (from `play_turn`) as plain data for the replay."""
        ...

    def snapshot(self) -> tuple[Any, ...]:
        """The whole state as plain data: equal snapshots mean equal matches (the
        determinism tests compare them)."""
        ...


class MatchBase:
    """The optional parts of `Match`, with their defaults: turns count from 1, the bot
    side needs nothing at the start, one bot call per view, and the log is plain data."""

    first_turn: int = 1

    def start_info(self, ai: int) -> dict[str, Any] | None:
        return None

    def calls(self, ai: int) -> int:
        return 1

    def replay_events(self, log: Any) -> dict[str, Any]:
        return log      # type: ignore[no-any-return]  # a game whose log is plain data

    # Debug marks (docs/contestant-loop.md, "Marks and notes"): where a bot's square is on
    # the board, and which piece a call was for, as the last views asked. A game that
    # does not say keeps a bot's notes (for the AI as a whole) and none of its squares.
    def mark_square(self, ai: int, call: int, a: int, b: int) -> tuple[int, int] | None:
        """The square (a, b) as bot call `call` of AI `ai` named it, as (x, y) on the
        board the viewers draw (x the column, y the row), or None: not on the board."""
        return None

    def mark_piece(self, ai: int, call: int) -> Any:
        """The replay's row key of the piece bot call `call` of AI `ai` decided for (the
        row of its table), or None."""
        return None
