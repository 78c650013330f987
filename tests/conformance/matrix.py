"""The conformance matrix: every game of `orchestrator.games.GAMES` x every command a user
runs, every bundled sample, every driver-loaded bot, played through the `arena` command
line as a user would, from the checkout or from an installed wheel (a `Where`).

Nothing here names a game: the rows come from the registry (each Game's demo and check
line-ups, scenario support, map suffix, drivers), the bundled files on disk and the
scenario files in tests/<game>/scenarios/. A new entry anywhere gets its rows."""
from __future__ import annotations

import gzip
import json
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from orchestrator.cli.maps import GENERATED
from orchestrator.games import DEFAULT_GAME, GAMES, Game
from orchestrator.runner.bots import declared_name, sample_bots
from orchestrator.runner.samples import named_samples
from sandbox.modes import DEFAULT_MODE, MODES, Mode, offered
from sandbox.programs import BY_NAME, describe, with_driver
from tests.positions.support import turns_of
from tests.support.cli import arena, as_json
from tests.support.games import game_tests
from tests.support.ladder import Server, wait_for
from tests.support.paths import ARENA_CMD, ROOT

TESTS = ROOT / "tests"
SEED = "1"
TURNS = "5"
# What a piped `arena` must never print: a traceback, rich markup, a terminal escape.
LEAKS = re.compile(r"Traceback \(most recent call last\)|\[/?(?:bold|dim|red|green|yellow)"
                   r"\b[^\]]*\]|\[/\]|\x1b\[")


@dataclass(frozen=True)
class Where:
    """An `arena` to run: the checkout's (python -m orchestrator), or an installed one."""

    name: str
    arena: tuple[str, ...]
    bundled: Path                    # the folder holding maps/ and bots/

    def bot(self, game: str, sample: str) -> Path:
        return folder(game, "bots", self.bundled) / sample

    def map(self, game: Game, name: str) -> Path:
        return folder(game.name, "maps", self.bundled) / f"{name}{game.map_suffix}"


CHECKOUT = Where("checkout", tuple(ARENA_CMD), ROOT)


def folder(game: str, kind: str, bundled: Path = ROOT) -> Path:
    """A game's `bots` or `maps` folder: its own, for a game kept outside the package (the
    toy game of tests/), else the one bundled under `bundled`."""
    home = GAMES[game].home
    return home / kind if home else bundled / kind / game


# What each command of the matrix gets: plain text, wide, the checkout not on its path (an
# installed `arena` imports its own copy).
PLAIN = {"PYTHONPATH": None, "FORCE_COLOR": None, "COLUMNS": "200", "NO_COLOR": "1"}


def run_in(where: Where, cwd: Path, *args: str, code: int | None = 0,
           timeout: float = 300) -> subprocess.CompletedProcess:
    """`arena ARGS` of `where` in `cwd`, forked (tests/support/cli.py). Fails the row with
    the command's stderr unless it exits with `code` (None: any) and prints no traceback,
    markup or escape."""
    done = arena(*args, cwd=cwd, timeout=timeout, env=PLAIN, command=where.arena, forked=True)
    shown = f"`arena {' '.join(args)}` ({where.name}) exited {done.returncode}:\n" \
            f"{done.stderr[-3000:]}\n{done.stdout[-1500:]}"
    assert code is None or done.returncode == code, shown
    leak = LEAKS.search(done.stdout + done.stderr)
    assert leak is None, f"{leak.group()!r} in the output of {shown}"
    return done


# --- what the registry and the disk say ---------------------------------------------------

def demo(game: Game) -> list[str]:
    """The sample files `arena run --game G` plays with no bots given: the entry's demo,
    else every Python sample (Game.demo_lineup), whether or not a compiled one is built."""
    return list(game.demo) or [path.name for path in sample_bots(game.name)]


def lineup(game: Game) -> list[str]:
    """Two samples for the line-up commands: the first two of the demo."""
    return demo(game)[:2]


def samples(game: str) -> list[str]:
    """The bundled sample files of a game, as a user sees them on disk: a compiled
    program built beside its source is the source's, not a sample of its own."""
    bots = folder(game, "bots")
    if not bots.is_dir():
        return []                   # a new game with no samples: its run rows say so
    return sorted(path.name for path in bots.iterdir()
                  if path.is_file() and not path.name.startswith(("_", "."))
                  and path.read_bytes()[:4] != b"\x7fELF")


def bot_name(game: str, sample: str) -> str:
    """The name a sample plays under (its `name = ...`, else its stem)."""
    path = folder(game, "bots") / sample
    return declared_name(path.read_bytes(), path.stem) if path.is_file() else Path(sample).stem


def how_it_runs(game: Game, sample: str) -> dict:
    """sandbox.programs' reading of a sample (its runtime), or {} for a Python module bot."""
    path = folder(game.name, "bots") / sample
    driver = dict(game.drivers).get(path.suffix.lower())
    if driver is not None:
        return with_driver(path.name, path.read_bytes(), driver)
    return describe(path.name, path.read_bytes()) if game.programs else {}


def missing_runtime(game: Game, sample: str) -> str | None:
    """Why a sample cannot run on this machine (its runtime's binary is missing), if so."""
    info = how_it_runs(game, sample)
    runtime = info.get("runtime")
    if info and runtime is None:                 # a source to build: the C sample
        return None if shutil.which("cc") else f"{sample} needs a C compiler (cc)"
    if runtime in (None, "native"):
        return None
    return None if BY_NAME[runtime].binary() else f"runtime {runtime!r} is not installed"


def scenario_files(game: str) -> list[Path]:
    return sorted((game_tests(game) / "scenarios").glob("*.json"))


# --- the rows -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    command: str
    game: str
    sample: str = ""

    def __str__(self) -> str:
        return "-".join(part for part in (self.game, self.command, self.sample) if part)

    def play(self, where: Where, tmp: Path) -> None:
        work = tmp / "work"                 # a folder with no bot or map in it
        work.mkdir(exist_ok=True)
        PLAYS[self.command](where, GAMES[self.game], work, self.sample)


def _expect_players(players: list[dict], game: Game, files: list[str]) -> None:
    """The result's players are exactly these sample files, and all played to the end."""
    assert sorted(Path(p["bot"]).stem for p in players) == sorted(Path(f).stem for f in files)
    bad = [(p["name"], p["status"], p["reason"]) for p in players if p["status"] != "ok"]
    assert not bad, bad


def run_table(where: Where, game: Game, work: Path, _: str) -> None:
    done = run_in(where, work, "run", "--game", game.name, "--seed", SEED, "--max-turns", TURNS)
    for sample in demo(game):
        assert bot_name(game.name, sample) in done.stdout, (sample, done.stdout)
    assert "Winner:" in done.stdout and f"seed {SEED}" in done.stdout


def run_json(where: Where, game: Game, work: Path, _: str) -> None:
    result = as_json(run_in(where, work, "run", "--game", game.name, "--seed", SEED,
                           "--max-turns", TURNS, "--json"))
    assert result["game"] == game.name and result["seed"] == int(SEED)
    assert 1 <= result["turns"] <= int(TURNS)
    _expect_players(result["players"], game, demo(game))


def run_by_name(where: Where, game: Game, work: Path, _: str) -> None:
    """A bundled sample named by its name alone, where no such file exists."""
    named = named_samples(game.name)           # as `arena bots` names them
    by_file = {path.stem: name for name, path in named} | {path.name: name for name, path in named}
    names = [by_file[Path(sample).name] for sample in lineup(game)]
    result = as_json(run_in(where, work, "run", "--game", game.name, *names, "--seed", SEED,
                           "--max-turns", TURNS, "--json"))
    _expect_players(result["players"], game, names)


def bots_list(where: Where, game: Game, work: Path, _: str) -> None:
    """`arena bots --game G` lists every bundled sample, as a table and as JSON."""
    table = run_in(where, work, "bots", "--game", game.name).stdout
    listed = json.dumps(as_json(run_in(where, work, "bots", "--game", game.name, "--json")))
    for sample in samples(game.name):
        assert Path(sample).stem in table and Path(sample).stem in listed, sample


def check(where: Where, game: Game, work: Path, sample: str) -> None:
    info = how_it_runs(game, sample)
    # A source the arena builds (the C sample) is named by its name; the rest by path.
    bot = Path(sample).stem if info and info["runtime"] is None else str(
        where.bot(game.name, sample))
    found = as_json(run_in(where, work, "check", "--game", game.name, bot, "--turns", TURNS,
                          "--json"))
    assert found["ok"] is True and found["turns"] >= 1, found


def batch(where: Where, game: Game, work: Path, _: str) -> None:
    """A few seeds into a results file, then `arena results` reads it back."""
    bots = [str(where.bot(game.name, sample)) for sample in lineup(game)]
    db = str(work / "batch.sqlite")
    report = as_json(run_in(where, work, "batch", "--game", game.name, *bots, "--seeds", "2",
                           "--max-turns", TURNS, "--workers", "1", "--db", db, "--json"))
    assert report["game"] == game.name and report["matches"] == 2 and report["skipped"] == 0
    _expect_summary(report["players"], lineup(game), 2)
    runs = as_json(run_in(where, work, "results", db, "--json"))["runs"]
    assert [(r["kind"], r["game"], r["finished"]) for r in runs] == [("batch", game.name, 2)]


LOOP_SEEDS, LOOP_TURNS, AT, AHEAD = "2", "20", 2, 3
LOOP_MOST_SEEDS = 16


def loop(where: Where, game: Game, work: Path, _: str) -> None:
    """The contestant's loop, each step a command of the README: a batch; `results
    --matrix`, `--games --bot NAME` and `--lost`; the replay of a lost game, `arena replay
    DB:MATCH_ID` (played again from its record: the batch kept none; then the file the
    listing names); `--save-position` at a turn, from the record and from that file alike;
    `arena run --from` with the same bots (the replay's next turns, exactly) and with a
    changed bot (a copy of another sample in the loser's seat: other turns)."""
    picked = loop_lineup(game)
    files = [where.bot(game.name, sample) for sample in picked]
    db = work / "runs.sqlite"

    def batch(seeds: int) -> dict:
        return as_json(run_in(where, work, "batch", "--game", game.name, *map(str, files),
                             "--seeds", str(seeds), "--max-turns", LOOP_TURNS, "--workers",
                             "1", "--db", str(db), "--json"))
    played = int(LOOP_SEEDS)
    report = batch(played)
    assert report["matches"] == played and report["skipped"] == 0, report
    matrix = as_json(run_in(where, work, "results", str(db), "--matrix", "--json"))
    # The seed is drawn, so a few short games may all be drawn: the same command with more
    # seeds goes on from the same first seed (what it played is skipped) until one is lost.
    while not any(c["losses"] for c in matrix["cells"]) and played < LOOP_MOST_SEEDS:
        report = batch(played + int(LOOP_SEEDS))
        assert report["skipped"] == played, report
        played += int(LOOP_SEEDS)
        matrix = as_json(run_in(where, work, "results", str(db), "--matrix", "--json"))
    heat = work / "matrix.html"
    run_in(where, work, "results", str(db), "--matrix", "--html", str(heat))
    assert "matrix-data" in heat.read_text()
    # The bot with a lost game (the matrix counts its losses), its games and lost ones.
    losers = [c["entrant"] for c in matrix["cells"] if c["losses"]]
    assert losers, f"no game of {played} seeds x {LOOP_TURNS} turns was lost: {matrix}"
    name = losers[0]
    listed = as_json(run_in(where, work, "results", str(db), "--games", "--bot", name,
                           "--json"))["games"]
    # The batch names no first seed: it draws one (63 bits), and its seeds follow on from
    # it; the rest of the loop carries those large seeds through results, replays and
    # positions.
    seeds = sorted(row["seed"] for row in listed)
    assert seeds == list(range(seeds[0], seeds[0] + played)), seeds
    mine = [c for c in matrix["cells"] if c["entrant"] == name]
    assert sum(c["losses"] for c in mine) >= sum(row["result"] == "lost" for row in listed)
    lost = as_json(run_in(where, work, "results", str(db), "--games", "--bot", name, "--lost",
                         "--json"))["games"]
    assert lost and lost == [row for row in listed if row["result"] == "lost"], (lost, listed)
    chosen = lost[0]
    ref = f"{db}:{chosen['match']}"
    assert chosen["open"] == f"arena replay {ref}", chosen
    # Its replay: played again from the record, once; then the kept file, listed.
    shown = run_in(where, work, "replay", ref, "--turn", "1")
    assert all(n in shown.stdout for n in chosen["opponents"]), shown.stdout
    assert "from its record" in shown.stderr, shown.stderr
    page = work / "lost.html"
    run_in(where, work, "replay", ref, "--html", str(page))
    assert page.read_text().lower().startswith("<!doctype html")
    again = as_json(run_in(where, work, "results", str(db), "--games", "--bot", name, "--lost",
                          "--json"))["games"][0]
    kept = Path(again["open"].removeprefix("arena replay "))
    assert kept.is_file() and kept.parent == db.parent / "replays", again
    # The position at turn AT, from the record and from the file: one position.
    pos, from_file = work / "pos.json", work / "pos-file.json"
    said = run_in(where, work, "replay", ref, "--turn", str(AT), "--save-position", str(pos))
    seats = [p["name"] for p in json.loads(gzip.decompress(kept.read_bytes()))["players"]]
    assert f"{len(seats)} bots, in seat order: {', '.join(seats)}" in said.stderr, said.stderr
    run_in(where, work, "replay", str(kept), "--turn", str(AT), "--save-position",
          str(from_file))
    state = json.loads(pos.read_text())
    assert state["game"] == game.name and state["seed"] == chosen["seed"], state
    assert state["players"] == seats and seats[chosen["seat"]] == name, (state, chosen)
    assert state["state"] == json.loads(from_file.read_text())["state"]
    # The same bots from there: the replay's next turns, byte for byte.
    record = json.loads(gzip.decompress(kept.read_bytes()))["turns"][AT:AT + AHEAD]
    same = work / "same.json.gz"
    played = as_json(run_in(where, work, "run", "--from", str(pos), *map(str, files),
                           "--turns", str(AHEAD), "--json", "--replay", str(same)))
    # Robot Game names a turn by its bots' game.turn: the replay's entry less one.
    seen = 1 if game.shown.seen_turns else 0
    assert [t["turn"] for t in played["played_turns"]] == [t["turn"] - seen for t in record]
    assert turns_of(replay_data(same)) == turns_of({"turns": record}), game.name
    # A changed bot in the loser's seat: the user's copy of another sample, played to the
    # end. On a drawn seed two samples may play a few turns alike (both charge, say), so it
    # plays on to the end and the next sample is tried until one plays other turns.
    rest = json.loads(gzip.decompress(kept.read_bytes()))["turns"][AT:]
    tried = []
    for sample in other_samples(game, picked[chosen["seat"]]):
        changed = work / f"my_bot_v2{Path(sample).suffix}"
        shutil.copy(where.bot(game.name, sample), changed)
        bots = [str(changed) if seat == chosen["seat"] else str(file)
                for seat, file in enumerate(files)]
        v2 = work / "v2.json.gz"
        table = run_in(where, work, "run", "--from", str(pos), *bots, "--turns",
                      str(len(rest)), "--replay", str(v2)).stdout
        assert f"turn {rest[0]['turn'] - seen}" in table.splitlines(), table
        assert re.search(r"\d+ turns?, (ended|stopped) ", table), table   # how it ended
        tried.append(sample)
        if turns_of(replay_data(v2)) != turns_of({"turns": rest}):
            break
    else:
        raise AssertionError(f"{tried} each played as {picked[chosen['seat']]} did: "
                             "no change to see")


def loop_lineup(game: Game) -> list[str]:
    """Two samples that keep no memory (the entry's `memoryless`), so that playing on from
    a position gives the replay's turns exactly; else the line-up of the other rows."""
    return list(game.memoryless[:2]) if len(game.memoryless) >= 2 else lineup(game)


def other_samples(game: Game, sample: str) -> list[str]:
    """The game's other samples, to play a changed bot: those in the same language (its
    suffix) first."""
    others = [s for s in dict.fromkeys(demo(game) + samples(game.name)) if s != sample]
    return sorted(others, key=lambda s: Path(s).suffix != Path(sample).suffix)


def replay_data(path: Path) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


def compare(where: Where, game: Game, work: Path, _: str) -> None:
    """`arena compare NEW OLD` (the game's default opponents where it seats more): pairs of
    games until the sequential test decides, here cut at two pairs."""
    new, old = (str(where.bot(game.name, sample)) for sample in lineup(game))
    report = as_json(run_in(where, work, "compare", new, old, "--game", game.name,
                           "--max-games", "4", "--max-turns", TURNS, "--workers", "1",
                           "--db", str(work / "compare.sqlite"), "--json", code=3))
    assert report["game"] == game.name and report["verdict"] == "undecided"
    assert report["games"] == 2 * report["pairs"] <= 4 and report["skipped"] == 0, report
    assert sum(report["counts"]) == report["pairs"] and len(report["elo_ci"]) == 2, report


def _expect_summary(players: list[dict], files: list[str], matches: int) -> None:
    assert sorted(Path(p["bot"]).stem for p in players) == sorted(Path(f).stem for f in files)
    for p in players:
        assert p["matches"] == matches and p["erased"] == p["forfeits"] == p["load_errors"] == 0, p


def tournament(where: Where, game: Game, work: Path, _: str) -> None:
    bots = [str(where.bot(game.name, sample)) for sample in lineup(game)]
    report = as_json(run_in(where, work, "tournament", "--game", game.name, *bots, "--games",
                           "1", "--max-turns", TURNS, "--workers", "1", "--db",
                           str(work / "tour.sqlite"), "--json"))
    assert report["game"] == game.name and report["matches"] >= 1
    _expect_summary(report["players"], lineup(game), report["matches"])
    # The run published: every match with its replay (played again from its record), a
    # page per AI and per match, and the game's one viewer.
    site = work / "site"
    said = as_json(run_in(where, work, "publish", str(work / "tour.sqlite"), "--out",
                         str(site), "--json"))
    assert said["game"] == game.name and said["matches"] == report["matches"], said
    assert said["replays"] == said["matches"] and not said["without_replay"], said
    assert len(list((site / "matches").glob("*.html"))) == said["matches"]
    assert len(list((site / "ais").glob("*.html"))) == len(lineup(game)) == said["ais"]
    assert (site / "viewer" / f"{game.name}.js").is_file(), sorted(site.rglob("*"))


def scenario(where: Where, game: Game, work: Path, _: str) -> None:
    """One bundled scenario file played (table and JSON); a game without scenarios says
    so in one error line."""
    if game.scenario is None:
        empty = work / "scenario.json"
        empty.write_text("{}")
        done = run_in(where, work, "scenario", "--game", game.name, str(empty), code=2)
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
        return
    files = scenario_files(game.name)
    assert files, f"{game.name} runs scenarios but tests/{game.name}/scenarios/ has none"
    state = as_json(run_in(where, work, "scenario", "--game", game.name, str(files[0]), "--json"))
    pieces = [v for v in state.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
    assert pieces, state
    shown = run_in(where, work, "scenario", "--game", game.name, str(files[0])).stdout
    ids = [str(piece["id"]) for group in pieces for piece in group if "id" in piece]
    assert ids and all(i in shown for i in ids), shown


def replay(where: Where, game: Game, work: Path, _: str) -> None:
    """A match saved with --replay, then watched as a web page and in a (piped) terminal."""
    saved = work / "match.json.gz"
    result = as_json(run_in(where, work, "run", "--game", game.name, "--seed", SEED,
                           "--max-turns", TURNS, "--replay", str(saved), "--json"))
    data = json.loads(gzip.decompress(saved.read_bytes()))
    assert data["game"] == game.name and data["seed"] == int(SEED)
    names = [p["name"] for p in result["players"]]
    page = work / "match.html"
    run_in(where, work, "replay", str(saved), "--html", str(page))
    html = page.read_text()
    assert html.lower().startswith("<!doctype html") and all(n in html for n in names)
    shown = run_in(where, work, "replay", str(saved), "--turn", "2").stdout
    assert all(n in shown for n in names), shown


def maps(where: Where, game: Game, work: Path, _: str) -> None:
    """`arena maps --game G` lists every bundled map, and every one of them validates."""
    bundled = sorted(folder(game.name, "maps", where.bundled).glob(f"*{game.map_suffix}"))
    assert where.map(game, game.default_map) in bundled, bundled
    listed = run_in(where, work, "maps", "--game", game.name).stdout
    assert all(path.stem in listed for path in bundled), listed
    done = run_in(where, work, "maps", "validate", "--game", game.name, *map(str, bundled))
    assert done.stdout.count("ok: ") == len(bundled), done.stdout


def maps_generate(where: Where, game: Game, work: Path, _: str) -> None:
    """A game that generates maps: one is drawn, validates and is played on. Any other
    game: one error line, no file."""
    drawn = work / f"drawn{game.map_suffix}"
    args = ("maps", "generate", "--game", game.name, "--seed", SEED, "--out", str(drawn))
    if game.name not in GENERATED:
        done = run_in(where, work, *args, code=2)
        assert done.stderr.startswith("error: ") and game.name in done.stderr
        assert not drawn.exists()
        return
    run_in(where, work, *args)
    assert run_in(where, work, "maps", "validate", "--game", game.name,
                 str(drawn)).stdout.startswith("ok: ")
    result = as_json(run_in(where, work, "run", "--game", game.name, "--map", str(drawn),
                           "--seed", SEED, "--max-turns", TURNS, "--json"))
    assert result["map"] == drawn.stem


def ladder(where: Where, game: Game, work: Path, _: str) -> None:
    """`arena serve`: two samples uploaded, checked, and played in a rated match."""
    upload_and_play(where, game, work, [where.bot(game.name, s) for s in lineup(game)])


def upload_and_play(where: Where, game: Game, work: Path, files: list[Path]) -> dict:
    """Upload `files` to a ladder of `game` alone; each passes its check; they play.
    Returns the match's result."""
    server = Server(work / "ladder.sqlite", "--games", game.name, "--workers", "1",
                    "--lineup", f"{game.name}={len(files)}", arena=list(where.arena), cwd=work)
    try:
        for file in files:
            answer = server.upload(game.name, file.stem, file)
            assert answer.status_code == 201, (answer.text, server.logged())
            assert answer.json()["check"]["ok"], answer.json()
        match = wait_for(lambda: server.matches(game=game.name), 180, f"a {game.name} match")[0]
        result = server.client.get(f"/api/matches/{match['id']}").json()
        assert result["game"] == game.name
        assert sorted(p["name"] for p in result["players"]) == sorted(f.stem for f in files)
        bad = [p for p in result["players"] if p["status"] != "ok"]
        assert not bad, bad
        replayed = server.client.get(f"/api/matches/{match['id']}/replay")
        assert json.loads(gzip.decompress(replayed.content))["game"] == game.name
        board = server.client.get(f"/api/ladders/{game.name}").json()
        assert sorted(b["name"] for b in board["bots"]) == sorted(f.stem for f in files)
        return result
    finally:
        server.stop()


# --- bots that our driver program loads (Ruby Robot Game bots) ------------------------------

def _mine(game: Game, sample: str, work: Path) -> Path:
    """The sample as a user's own file, outside the package."""
    mine = work / f"mine{Path(sample).suffix}"
    shutil.copy(folder(game.name, "bots") / sample, mine)
    return mine


def _python_partner(where: Where, game: Game) -> Path:
    return where.bot(game.name, next(s for s in demo(game) if s.endswith(".py")))


def driver_run(where: Where, game: Game, work: Path, sample: str) -> None:
    mine = _mine(game, sample, work)
    result = as_json(run_in(where, work, "run", "--game", game.name, str(mine),
                           str(_python_partner(where, game)), "--seed", SEED,
                           "--max-turns", TURNS, "--json"))
    played = next(p for p in result["players"] if p["bot"] == str(mine))
    assert played["status"] == "ok" and played["overheats"] == 0, played


def driver_check(where: Where, game: Game, work: Path, sample: str) -> None:
    mine = _mine(game, sample, work)
    found = as_json(run_in(where, work, "check", "--game", game.name, str(mine), "--turns",
                          TURNS, "--json"))
    assert found["ok"] is True, found


def driver_ladder(where: Where, game: Game, work: Path, sample: str) -> None:
    upload_and_play(where, game, work, [_mine(game, sample, work),
                                        _python_partner(where, game)])


PLAYS: dict[str, Callable[[Where, Game, Path, str], None]] = {
    "run": run_table, "run-json": run_json, "run-by-name": run_by_name, "bots": bots_list,
    "batch": batch, "tournament": tournament, "compare": compare, "scenario": scenario,
    "replay": replay, "loop": loop, "maps": maps, "maps-generate": maps_generate,
    "ladder": ladder,
    "check": check, "driver-run": driver_run,
    "driver-check": driver_check,
    "driver-ladder": driver_ladder,
}
PER_GAME = ("run", "run-json", "run-by-name", "bots", "batch", "loop", "tournament",
            "compare", "scenario", "replay", "maps", "maps-generate", "ladder")
PER_SAMPLE = ("check",)
PER_DRIVEN_SAMPLE = ("driver-run", "driver-check", "driver-ladder")
# Each `arena` command and the rows that run it: a command with no entry fails
# test_generation, so a new command cannot go unplayed.
COVERS = {"run": ("run", "run-json", "run-by-name", "loop"),
          "check": ("check", "driver-check"),
          "batch": ("batch", "loop"), "results": ("batch", "loop"),
          "tournament": ("tournament",), "publish": ("tournament",), "compare": ("compare",),
          "scenario": ("scenario",), "replay": ("replay", "loop"),
          "maps": ("maps", "maps-generate"),
          "serve": ("ladder", "driver-ladder"), "bots": ("bots",)}


def driven(game: Game) -> list[str]:
    """For each of a game's `drivers` (Ruby Robot Game bots), the first sample it loads."""
    return [found[0] for suffix, _ in game.drivers
            if (found := [s for s in samples(game.name) if Path(s).suffix.lower() == suffix])]


def rows() -> list[Row]:
    """Every row of the matrix, from the registry and the disk."""
    found = []
    for name, game in GAMES.items():
        found += [Row(command, name) for command in PER_GAME]
        found += [Row(command, name, s) for s in samples(name) for command in PER_SAMPLE]
        found += [Row(command, name, s) for s in driven(game) for command in PER_DRIVEN_SAMPLE]
    return found


# --- the sandbox modes ------------------------------------------------------------------------
# Every mode a user can name (sandbox/modes.py, whose registry the tests extend with
# tests/modes/counting.py) gets a row per command that plays in it: `run` and `batch`, and
# `check`, which passes where the mode's record lets check use it and is refused in one
# line where it does not. The rule that keeps them few: a mode knows no game, so its rows
# play the default game only, from the checkout; the default mode's rows are every other
# row of the matrix.

@dataclass(frozen=True)
class ModeRow:
    mode: str
    command: str

    def __str__(self) -> str:
        return f"{self.mode}-{self.command}"

    def play(self, where: Where, tmp: Path) -> None:
        work = tmp / "work"
        work.mkdir(exist_ok=True)
        MODE_PLAYS[self.command](where, MODES[self.mode], GAMES[DEFAULT_GAME], work)


def _refused_here(done: subprocess.CompletedProcess) -> str | None:
    """Why a mode cannot run on this machine, in its own error line (`strict` missing a
    layer, bubblewrap unable to start), if that is why it exited 2."""
    said = done.stderr.strip()
    if done.returncode == 2 and ("missing isolation layers" in said or "bubblewrap" in said):
        return said
    return None


def _arena_in(where: Where, work: Path, *args: str) -> subprocess.CompletedProcess:
    """`arena ARGS`; a row whose mode this machine cannot give is skipped, saying why."""
    done = run_in(where, work, *args, code=None)
    if reason := _refused_here(done):
        pytest.skip(reason)
    assert done.returncode == 0, f"`arena {' '.join(args)}`: {done.stderr[-3000:]}"
    return done


def mode_run(where: Where, mode: Mode, game: Game, work: Path) -> None:
    result = as_json(_arena_in(where, work, "run", "--game", game.name, "--seed", SEED,
                               "--max-turns", TURNS, "--sandbox", mode.name, "--json"))
    assert result["sandbox_mode"] == mode.name and 1 <= result["turns"] <= int(TURNS)
    _expect_players(result["players"], game, demo(game))
    assert bool(result["sandbox"]) == (mode.tier is not None), result["sandbox"]


def mode_batch(where: Where, mode: Mode, game: Game, work: Path) -> None:
    bots = [str(where.bot(game.name, sample)) for sample in lineup(game)]
    db = work / "batch.sqlite"
    report = as_json(_arena_in(where, work, "batch", "--game", game.name, *bots, "--seeds",
                               "2", "--max-turns", TURNS, "--workers", "1", "--sandbox",
                               mode.name, "--db", str(db), "--json"))
    assert report["matches"] == 2 and report["skipped"] == 0
    _expect_summary(report["players"], lineup(game), 2)
    with sqlite3.connect(db) as conn:
        played = [row[0] for row in conn.execute("SELECT sandbox FROM matches")]
    assert played == [mode.name] * 2, played


def mode_check(where: Where, mode: Mode, game: Game, work: Path) -> None:
    bot = str(where.bot(game.name, lineup(game)[0]))
    args = ("check", "--game", game.name, bot, "--turns", TURNS, "--sandbox", mode.name)
    if not mode.checks:
        done = run_in(where, work, *args, code=2)
        assert done.stderr.startswith(f"error: --sandbox {mode.name} is not available for "
                                      f"check") and done.stderr.count("\n") == 1
        return
    found = as_json(_arena_in(where, work, *args, "--json"))
    assert found["ok"] is True and found["turns"] >= 1, found


MODE_PLAYS: dict[str, Callable[[Where, Mode, Game, Path], None]] = {
    "run": mode_run, "batch": mode_batch, "check": mode_check}


def mode_rows() -> list[ModeRow]:
    """Every offered mode but the default, once per command that plays in it."""
    return [ModeRow(mode.name, command) for mode in offered() if mode.name != DEFAULT_MODE
            for command in MODE_PLAYS]


def skip_reason(row: Row) -> str | None:
    """Why a row cannot run on this machine: the runtime of its sample, or of one of the
    game's demo samples, is not installed."""
    game = GAMES[row.game]
    played = demo(game) + (loop_lineup(game) if row.command == "loop" else [])
    for sample in [row.sample] if row.sample else played:
        if (folder(game.name, "bots") / sample).is_file() and (
                reason := missing_runtime(game, sample)):
            return reason
    return None
