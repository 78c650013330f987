"""What a game's limits imply, computed once for the tests that check the docs' table and
the ladder's deadlines against it."""
from __future__ import annotations

from sandbox.limits import Limits


def worst_case_s(limits: Limits, ais: int, erases: bool) -> float:
    """The longest one match of `ais` AIs can take with the worst bots `limits` allow (the
    engine aside): an AI that computes meets its CPU bank and one more call, one that waits
    its own bank; each attempt may wait for its bots to load; a game that erases plays the
    match again without the erased AI, down to one."""
    per_ai = max(limits.own_bank_s, limits.cpu_bank_s + limits.cpu_per_call_s)
    attempts = range(ais, 0, -1) if erases else [ais]
    return sum(n * per_ai + limits.load_timeout_s for n in attempts)
