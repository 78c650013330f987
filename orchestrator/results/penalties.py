"""Every penalty of an AI, in words: the one place that says them, for every printer
(`arena run`'s note, `batch`, `tournament`, `results`, `results --games`), the JSON and
CSV exports and the ladder's pages.

A match's player (a dict of `arena run --json`'s players, or a results file's participant
with its kept `penalties` record) has at most: why it was erased, forfeited or not loaded,
and on which turn (with the memory it held then, when memory erased it); its overheats
(exceptions and invalid moves) and the first error; the attempts the sandbox refused it,
counted by kind; the output cut past the cap (bytes); rule 1's warnings (module state
changed by move(): robots sharing memory); a program's failed turns. `lines(player)` says
each; `Penalties` adds them up over many matches, for one entrant's row.

Everything here a bot chose (an exception's message, a module-level name, a refused
path) is hostile text: passed through `shown()` here, and escaped again as HTML in pages.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping, TypeGuard

from orchestrator.games.sample_folder import cache_dir
from orchestrator.text import plural, shown

# What the sandbox counts as a program's failed turn (runner/check.py keeps the same).
PROGRAM_FAULTS = {"hang": "gave no answer in time", "cpu": "went past its CPU limit",
                  "memory": "was stopped at the memory cap", "crash": "ended with an error",
                  "output": "wrote more than the output cap to stdout"}
ERROR_CAP = 160         # characters of the first error kept in a line
CODE_HINT = ("a bot given as code runs alone in its sandbox: import what it uses inside "
             "the function, or pass its helpers")
STATUS_WORDS = {"erased": "erased", "forfeit": "forfeit", "load_error": "not loaded"}

# What a results file keeps of a player, beside its status, reason and turn: each list
# and text bounded as a match result keeps them (match.py), checked when read back.
KEPT = {"errors": (1, 200), "violations": (20, 100), "warnings": (20, 92)}
MOST_DROPPED = 1 << 53


def record(player: Mapping[str, Any]) -> dict[str, Any]:
    """What a results file keeps of a player's penalties: the first error, the refused
    attempts, rule 1's warnings, the output cut."""
    return {"errors": list((player.get("errors") or [])[:1]),
            "violations": list(player.get("violations") or []),
            "warnings": list(player.get("warnings") or []),
            "output_dropped": int(player.get("output_dropped") or 0)}


def valid_record(value: object) -> TypeGuard[dict[str, Any]]:
    """Whether a results file's record is one `record` writes (a file may come from
    anyone)."""
    if not isinstance(value, dict) or set(value) != {*KEPT, "output_dropped"}:
        return False
    for key, (count, length) in KEPT.items():
        items = value[key]
        if not (isinstance(items, list) and len(items) <= count and all(
                isinstance(item, str) and len(item) <= length for item in items)):
            return False
    dropped = value["output_dropped"]
    return isinstance(dropped, int) and not isinstance(dropped, bool) \
        and 0 <= dropped <= MOST_DROPPED


def _cut(text: str) -> str:
    text = shown(text)
    return text if len(text) <= ERROR_CAP else text[:ERROR_CAP - 3] + "..."


def megabytes(count: int) -> str:
    """`367 GB`, `1.2 GB`, `733 MB`, `1.0 MB`, `12 KB`, `80 bytes`: an amount of output
    (decimal units), never past three figures before the point in one unit: 366,886 MB
    read as 358 GB."""
    for unit, size in (("TB", 10**12), ("GB", 10**9)):
        if count >= size:
            return f"{count / size:.1f} {unit}" if count < 10 * size else \
                f"{count / size:,.0f} {unit}"
    if count >= 10_000_000:
        return f"{count / 1e6:.0f} MB"
    if count >= 1_000_000:
        return f"{count / 1e6:.1f} MB"
    if count >= 1000:
        return f"{count / 1e3:.0f} KB"
    return plural(count, "byte")


def _outcome_parts(player: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """The word and the reason and turn of an erase, forfeit or load error, else None."""
    word = STATUS_WORDS.get(player.get("status"))  # type: ignore[arg-type]  # text (checked); unknown: None
    if word is None and player.get("status") != "ok" and player.get("status"):
        word = shown(player["status"])          # a status of no known game: said as it is
    if word is None:
        return ("", [shown(player["reason"])]) if player.get("reason") else None
    parts = [shown(player["reason"])] if player.get("reason") else []
    if player.get("turn") is not None:
        parts.append(f"turn {player['turn']}")
    return word, parts


def erase_memory(player: Mapping[str, Any]) -> float | None:
    """The memory an AI held when memory erased it (MB), else None."""
    if player.get("status") == "erased" and "memory" in str(player.get("reason") or "") \
            and player.get("peak_rss_mb"):
        return float(player["peak_rss_mb"])
    return None


def _said(word: str, parts: list[str]) -> str:
    if not word:
        return ", ".join(parts)
    return f"{word} ({', '.join(parts)})" if parts else word


def outcome(player: Mapping[str, Any]) -> str:
    """`erased (cpu time limit, turn 1)`, `erased (memory limit: an allocation went past
    the 512 MB cap, turn 2, peak 93 MB)`, `forfeit (...)`, `not loaded (...)`; "" for an AI
    that finished. The reason names the figure hit; the peak is the most it was seen
    holding, which a refused allocation never reached."""
    found = _outcome_parts(player)
    if found is None:
        return ""
    word, parts = found
    memory = erase_memory(player)
    return _said(word, parts + ([f"peak {memory:.0f} MB"] if memory is not None else []))


def overheats(player: Mapping[str, Any]) -> str:
    """`3 overheats, first: ZeroDivisionError: division by zero`, or ""."""
    count = player.get("overheats") or 0
    errors = player.get("errors") or []
    if not count and not errors:
        return ""
    said = plural(count or len(errors), "overheat")
    if errors:
        text = _cut(errors[0])
        said += f", first: {text}"
        if text.startswith("NameError") and _is_code_bot(player.get("bot") or ""):
            said += f" ({CODE_HINT})"
    return said


def _kind(violation: object) -> str:
    """A refused attempt's kind: `socket: socket(AF_INET, ...)` is a socket."""
    return shown(str(violation).split(":", 1)[0].strip() or "other")


def refused_kinds(violations: Iterable[object]) -> Counter[str]:
    """The refused attempts by kind."""
    return Counter(_kind(v) for v in violations)


def _refused_text(kinds: Counter[str], first: dict[str, Any]) -> str:
    return "refused: " + ", ".join(
        f"{count} {kind}" + (f" ({first[kind]})" if first.get(kind) else "")
        for kind, count in sorted(kinds.items(), key=lambda kc: (-kc[1], kc[0])))


def _detail(violation: str) -> str:
    kind, _, detail = str(violation).partition(":")
    return _cut(detail.strip() or kind)


def refused(player: Mapping[str, Any]) -> str:
    """`refused: 2 socket (socket(AF_INET, SOCK_STREAM)), 1 file (open /etc/passwd for
    reading)`: what the sandbox refused it, by kind, the first of each; or ""."""
    violations = player.get("violations") or []
    if not violations:
        return ""
    first: dict[str, Any] = {}
    for v in violations:
        first.setdefault(_kind(v), _detail(v))
    return _refused_text(refused_kinds(violations), first)


def output_cut(player: Mapping[str, Any]) -> str:
    """`output cut: 733 MB` (what it printed past the cap), or ""."""
    dropped = player.get("output_dropped") or 0
    return f"output cut: {megabytes(dropped)}" if dropped else ""


def rule_one(player: Mapping[str, Any]) -> str:
    """`rule 1: module state changed by move(): seen` (robots sharing memory), or ""."""
    warnings = player.get("warnings") or []
    if not warnings:
        return ""
    more = f" (+{len(warnings) - 1} more)" if len(warnings) > 1 else ""
    return f"rule 1: {shown(warnings[0])}{more}"


def faults(player: Mapping[str, Any]) -> str:
    """A program's failed turns (by kind), or its invalid answers, else ""."""
    stats = player.get("stats") or {}
    turns = stats.get("decisions") or 0
    said = [f"{kind}: {PROGRAM_FAULTS.get(kind, 'failed')} in {count} of {turns} turns"
            for kind, count in (stats.get("faults") or {}).items() if count]
    if stats.get("invalid") and not said:
        said.append(f"{plural(stats['invalid'], 'invalid answer')}")
    return "; ".join(said)


def lines(player: Mapping[str, Any]) -> list[str]:
    """Every penalty of one player of one match, one phrase each."""
    return [part for part in (outcome(player), overheats(player), refused(player),
                              output_cut(player), rule_one(player), faults(player)) if part]


def note(player: Mapping[str, Any]) -> str:
    """All of them in one line ("" for a clean game)."""
    return "; ".join(lines(player))


def _is_code_bot(path: str) -> bool:
    """Whether a bot's file is one the API wrote from a function or class (cellbots)."""
    return str(cache_dir() / "cells") in path


class Penalties:
    """One entrant's penalties over many matches, kept one match at a time."""

    def __init__(self) -> None:
        self.outcomes: Counter[tuple[Any, ...]] = Counter()     # (word, reason and turn)
        self.memory: dict[tuple[Any, ...], float] = {}          # the most held at a memory erase
        self.overheats = self.overheat_games = 0
        self.first_error = ""
        self.kinds: Counter[str] = Counter()
        self.first_refused: dict[str, str] = {}
        self.refused_games = 0
        self.dropped = self.dropped_games = 0
        self.warnings: Counter[str] = Counter()
        self.faults: Counter[str] = Counter()

    def add(self, player: Mapping[str, Any]) -> None:
        found = _outcome_parts(player)
        if found is not None:
            key = (found[0], tuple(found[1]))
            self.outcomes[key] += 1
            memory = erase_memory(player)
            if memory is not None:
                self.memory[key] = max(memory, self.memory.get(key, 0.0))
        if player.get("overheats"):
            self.overheats += player["overheats"]
            self.overheat_games += 1
        if not self.first_error and player.get("errors"):
            self.first_error = _cut(player["errors"][0])
        violations = player.get("violations") or []
        if violations:
            self.refused_games += 1
            self.kinds.update(refused_kinds(violations))
            for v in violations:
                self.first_refused.setdefault(_kind(v), _detail(v))
        if player.get("output_dropped"):
            self.dropped += player["output_dropped"]
            self.dropped_games += 1
        for warning in player.get("warnings") or []:
            self.warnings[shown(warning)] += 1
        said = faults(player)
        if said:
            self.faults[said] += 1

    def lines(self) -> list[str]:
        said = []
        for (word, parts), count in self.outcomes.most_common():
            memory = self.memory.get((word, parts))
            held = [] if memory is None else [
                f"peak {'' if count == 1 else 'up to '}{memory:.0f} MB"]
            said.append(f"{count} x {_said(word, [*parts, *held])}")
        if self.overheats:
            said.append(f"{plural(self.overheats, 'overheat')} in "
                        f"{plural(self.overheat_games, 'game')}"
                        + (f", first: {self.first_error}" if self.first_error else ""))
        if self.kinds:
            said.append(f"{_refused_text(self.kinds, self.first_refused)} in "
                        f"{plural(self.refused_games, 'game')}")
        if self.dropped:
            said.append(f"output cut: {megabytes(self.dropped)} in "
                        f"{plural(self.dropped_games, 'game')}")
        said += [f"{count} x rule 1: {text}" for text, count in self.warnings.most_common(3)]
        said += [f"{count} x {text}" for text, count in self.faults.most_common(3)]
        return said
