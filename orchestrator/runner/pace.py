"""`arena check`'s time gate: how much of a match's wall time the checked bot takes, told
within seconds.

Own time is what the host measures of each request: its wall time less the time its tasks
waited on a run queue (`sandbox/botlib/_sched.py`). Sleeping, waiting on its own threads
and blocking on I/O count; a busy machine's run queue does not, so an honest bot on a
loaded machine is not charged for it. The check plays a bot for a few turns only, so it
judges the pace: the median own time of the turns after the first (the first may set up,
and one slow turn is not a pace), and projects a full match of the game's defaults (its
rules' turns; the check's map has the official robot count): the turns played as they
were, the rest at that pace. It compares that with what the game allows of a match, the
AI's own-time bank (`Limits.own_bank_s`):

- past the bank, the bot `stalls`: a full match would erase it; the check fails, and stops
  as soon as two turns after the first, and at least `EVIDENCE_S` of own time, show it;
- past `SLOW_SHARE` of the bank, it is `slow`: a warning, which `--strict` fails on (and
  then stops as early).

A stall inside one turn never reaches a projection: the check plays with at most
`CHECK_TURN_S` of own time a turn (`check_limits`), so the host ends it there.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from statistics import median
from typing import Any

from sandbox.limits import Limits

# The most own time one turn's request may take in a check, whatever its robot count:
# the host ends the bot there (`Limits.own_per_turn_s`), so a hang or a stall inside one
# turn is decided in seconds, and one turn's setup still has a call's whole allowance.
CHECK_TURN_S = 5.0
# Own time the turns after the first must show before a projection stops a check early,
# over at least MIN_TURNS of them: a single slow turn (a lazy import, a collection) is
# not a pace.
EVIDENCE_S = 1.0
MIN_TURNS = 2
# A full match at a pace past this share of the own-time bank is slow: it holds every
# opponent, worker and the ladder that long, and a busier match may erase it.
SLOW_SHARE = 0.25
VERDICTS = ("ok", "slow", "stalls")


def check_limits(limits: Limits) -> Limits:
    """The limits a check plays with: the game's, with a turn's own time at most
    CHECK_TURN_S."""
    return dataclasses.replace(limits, own_per_turn_s=min(limits.own_per_turn_s, CHECK_TURN_S))


@dataclass(frozen=True)
class Pace:
    """What a check saw of a bot's own time, and what a full match would cost at that
    pace (`--json`'s `pace`)."""

    own_s: float                 # own time of every turn it played
    turns: int                   # the turns it played (requests answered)
    per_call_s: float | None     # own time a call (a move, an act...) after the first turn
    per_turn_s: float            # own time a turn after the first (the first, if alone)
    call: str                    # what the game calls a call: "move", "act", "turn"
    match_turns: int             # a full match's turns
    match_s: float               # a full match's own time at this pace
    bank_s: float                # what a match allows (the own-time bank)
    verdict: str                 # ok, slow or stalls
    at_least: bool = False       # a turn was cut at the check's own time a turn: the
                                 # figures are what it took at least

    def said(self) -> str:
        """`stalls: 0.50 s of own time a move, ~5.5 h for a 1,000-turn match` (the verdict
        first where it is not ok)."""
        turn = self.call if self.call in ("turn", "round") else "turn"
        match = f"a {self.match_turns:,}-{turn} match"
        if self.at_least:
            return (f"stalls: more than {self.per_turn_s:g} s of own time in one {turn} (a "
                    f"check allows {self.per_turn_s:g} s), more than ~{duration(self.match_s)} "
                    f"for {match} at that pace")
        each = (f"{seconds(self.per_call_s)} of own time {article(self.call)} {self.call}"
                if self.per_call_s is not None else
                f"{seconds(self.per_turn_s)} of own time a {turn}")
        cost = f"~{duration(self.match_s)} for {match}"
        if self.verdict == "stalls":
            return (f"stalls: {each}, {cost}, past its {self.bank_s:g} s own-time bank "
                    f"(a match would erase it)")
        if self.verdict == "slow":
            return (f"slow: {each}, {cost}, over {SLOW_SHARE:.0%} of its "
                    f"{self.bank_s:g} s own-time bank")
        return f"{each}, {cost}"

    def as_dict(self) -> dict[str, Any]:
        return {"own_s": round(self.own_s, 3), "turns": self.turns,
                "per_call_s": None if self.per_call_s is None else round(self.per_call_s, 4),
                "per_turn_s": round(self.per_turn_s, 4), "call": self.call,
                "match_turns": self.match_turns, "match_s": round(self.match_s, 1),
                "bank_s": self.bank_s, "verdict": self.verdict, "at_least": self.at_least,
                "said": self.said()}


def article(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"


def cut_turn(own_s: float, turns: int, limits: Limits, call: str, match_turns: int) -> Pace:
    """The pace of a bot the host ended in a turn at the check's own time a turn: at least
    that much a turn, and a full match's worth of such turns."""
    per_turn = limits.own_per_turn_s
    return Pace(own_s=own_s, turns=turns, per_call_s=None, per_turn_s=per_turn, call=call,
                match_turns=match_turns, match_s=per_turn * match_turns,
                bank_s=limits.own_bank_s, verdict="stalls", at_least=True)


def verdict_of(match_s: float, bank_s: float) -> str:
    if match_s > bank_s:
        return "stalls"
    return "slow" if match_s > SLOW_SHARE * bank_s else "ok"


class PaceWatch:
    """`run_match`'s stop predicate for a check's time gate: follows the checked seat's
    own time turn by turn (`own`, where the players measure it), and stops
    the match once the pace projects a full match past the bank (or, `strict`, past
    SLOW_SHARE of it), over MIN_TURNS turns after the first and EVIDENCE_S of own time.
    The pace each such turn is judged by is the smaller of the last turn's and the median
    turn's, so one slow turn among fast ones never stops a check."""

    def __init__(self, match_turns: int, bank_s: float, call: str, strict: bool = False,
                 seat: int = 0) -> None:
        self.match_turns, self.bank_s, self.call = match_turns, bank_s, call
        self.strict, self.seat = strict, seat
        self.samples: list[tuple[float, int]] = []     # per turn: own time, calls
        self._seen = (0.0, 0)
        self.stopped: Pace | None = None                # the pace it stopped on
        self.turn: int | None = None                    # and the turn

    def __call__(self, turn: int, stats: dict[int, dict[str, Any]],
                 own: dict[int, float]) -> bool:
        if self.stopped is not None:
            return True
        seat_stats, spent = stats.get(self.seat), own.get(self.seat)
        if seat_stats is None or spent is None:
            return False
        calls = int(seat_stats.get("decisions", 0))
        self.samples.append((max(0.0, spent - self._seen[0]),
                             max(0, calls - self._seen[1])))
        self._seen = (spent, calls)
        rest = self.samples[1:]
        if len(rest) < MIN_TURNS or sum(s for s, _ in rest) < EVIDENCE_S:
            return False
        judged = self._pace(min(rest[-1][0], median(s for s, _ in rest)))
        if judged.verdict == "stalls" or self.strict and judged.verdict == "slow":
            self.stopped, self.turn = judged, turn
            return True
        return False

    def pace(self) -> Pace | None:
        """The pace over every turn seen (None: none was measured)."""
        if not self.samples:
            return None
        return self._pace(median(s for s, _ in self.samples[1:] or self.samples))

    def _pace(self, per_turn: float) -> Pace:
        """A full match: the turns seen as they were, the rest at `per_turn` each."""
        own = sum(s for s, _ in self.samples)
        rest = self.samples[1:] or self.samples
        calls = sum(n for _, n in rest)
        match_s = own + per_turn * max(0, self.match_turns - len(self.samples))
        return Pace(own_s=own, turns=len(self.samples),
                    per_call_s=per_turn * len(rest) / calls if calls else None,
                    per_turn_s=per_turn, call=self.call, match_turns=self.match_turns,
                    match_s=match_s, bank_s=self.bank_s,
                    verdict=verdict_of(match_s, self.bank_s))


def seconds(value: float) -> str:
    """0.50 s, 12 ms, 0.3 ms, 3.2 s."""
    if value < 0.1:
        return f"{value * 1000:.{0 if value >= 0.0095 else 1}f} ms" if value >= 0.00005 \
            else "<0.1 ms"
    return f"{value:.2f} s" if value < 10 else f"{value:.0f} s"


def duration(value: float) -> str:
    """A span a reader takes in at once: <1 s, 40 s, 12 min, 5.5 h, 3 days."""
    if value < 1:
        return "1 s" if value >= 0.5 else "<1 s"
    if value < 90:
        return f"{value:.0f} s"
    if value < 3600:
        return f"{value / 60:.0f} min"
    if value < 48 * 3600:
        return f"{value / 3600:.1f} h"
    return f"{value / 86400:.0f} days"
