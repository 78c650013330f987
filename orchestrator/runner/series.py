"""The order a run's matches may start in, and the scratch each entrant starts with.

Most games have no order: every match may start at once. In a series game (Cave Rangers)
each entrant's scratch directory runs through its matches in schedule order, so a match
starts only when the matches it comes `after` are done, and it starts with the scratch
they left. A run that resumes rebuilds that state from the store's finished matches.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from orchestrator.results.match_result import Played
from orchestrator.runner.match import scratch_files
from orchestrator.runner.schedule import Planned


class Series:
    """Hands out runnable matches in schedule order and carries scratch between them."""

    def __init__(self, planned: list[Planned],
                 finished: dict[str, dict[int, dict[str, Any]]] | None = None) -> None:
        """`planned`: every match of the run, in schedule order. `finished`: the matches
        already played, each with the scratch (base64 text by file) its seats ended with."""
        finished = finished or {}
        self.scratch: dict[int, dict[str, Any]] = {}     # entrant -> its scratch, as text
        self.done: set[str] = set()
        self.waiting: list[Planned] = []
        self.running = 0
        for item in planned:                         # each entrant's chain, up to its end
            if item.match_id in finished:
                self._ended(item, finished[item.match_id])
            else:
                self.waiting.append(item)

    def take(self) -> Planned | None:
        """The next match that may start now, with its starting scratch; or None."""
        for k, item in enumerate(self.waiting):
            if all(before is None or before in self.done for before in item.after):
                del self.waiting[k]
                if item.entrants:
                    item.spec = dataclasses.replace(item.spec, scratch=[
                        scratch_files(self.scratch.get(e, {})) for e in item.entrants])
                self.running += 1
                return item
        return None

    def finish(self, item: Planned, outcome: Played) -> None:
        """Record a finished match (a failed one leaves its entrants' scratch as it was)."""
        self.running -= 1
        result = outcome.get("result")
        players = result["players"] if result is not None else []
        self._ended(item, {p["seat"]: p["scratch"] for p in players if "scratch" in p})

    def _ended(self, item: Planned, scratch_by_seat: dict[int, dict[str, Any]]) -> None:
        self.done.add(item.match_id)
        if item.entrants:
            for seat, files in scratch_by_seat.items():
                self.scratch[item.entrants[seat]] = files
