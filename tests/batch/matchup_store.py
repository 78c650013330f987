"""A results file written by hand for the matchup tests: matches whose ranks the test
chooses, between entrants whose names are hostile text (a spreadsheet formula, rich
markup, HTML that would run a script, a terminal escape), so every output of the matrix
is checked against known counts and known attacks at once."""
from __future__ import annotations

import hashlib
from pathlib import Path

from orchestrator.results.store import Store

FORMULA = '=HYPERLINK("http://evil.example","click")'
MARKUP = "[bold red]boss[/]"
SCRIPT = '</script><img src=x onerror="window.pwned=1">'
ESCAPE = "\x1b]0;owned\x07esc"
NAMES = (FORMULA, MARKUP, SCRIPT, ESCAPE)


def sha(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def player(seat: int, name: str, rank: int, status: str = "ok", turn: int | None = None,
           stats: dict | None = None, version: str = "") -> dict:
    return {"seat": seat, "name": name, "bot": f"bots/{seat}.py", "sha256": sha(name + version),
            "rank": rank, "status": status, "reason": None, "turn": turn, "overheats": 0,
            "cpu_s": 0.1, "peak_rss_mb": 10.0, "stats": stats or {"alive": 1}}


def result(seed: int, map: str, players: list[dict], turns: int = 50,
           game: str = "arena") -> dict:
    return {"game": game, "map": map, "seed": seed, "rules": {"preset": "standard"},
            "engine_version": "test", "turns": turns, "end": "turn_limit", "restarts": 0,
            "players": players}


def write(path: Path, matches: dict[str, dict], run: str = "run1",
          kind: str = "tournament") -> Path:
    store = Store(path)
    store.add_run(run, kind, "arena", {"bots": []}, list(matches))
    for match_id, found in matches.items():
        store.add_match(match_id, found, 1.0)
    store.close()
    return path


def hostile_tournament(path: Path) -> Path:
    """FORMULA against each other name on two maps and both seats, with chosen outcomes:
    against MARKUP 3 wins, 1 draw, 2 losses; SCRIPT and ESCAPE also meet in a match of
    three with FORMULA (ranks 1, 2, 3)."""
    matches: dict[str, dict] = {}
    outcomes = [(1, 2), (1, 2), (1, 1), (2, 1), (1, 2), (2, 1)]      # FORMULA's rank first
    for k, (mine, theirs) in enumerate(outcomes):
        seats = [(FORMULA, mine), (MARKUP, theirs)] if k % 2 == 0 else \
            [(MARKUP, theirs), (FORMULA, mine)]
        matches[f"m{k:02d}aaaaaaaaaaaaaaaaaaaa"] = result(
            k, "quad" if k < 3 else "duel",
            [player(s, name, rank) for s, (name, rank) in enumerate(seats)])
    matches["m90aaaaaaaaaaaaaaaaaaaa"] = result(90, "quad", [
        player(0, SCRIPT, 1), player(1, FORMULA, 2, stats={"alive": 0, "last_alive_turn": 31}),
        player(2, ESCAPE, 3, status="erased", turn=7)])
    return write(path, matches)
