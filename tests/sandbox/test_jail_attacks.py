"""`--sandbox match` against a bot that attacks the jail's bookkeeping or the host.

A jail runs every bot of its match in one process, so a bot can reach everything the jail
holds: the page it shares with the host (which bot runs), the pipe to the host, the other
bots' players. None of it may decide who is charged, stop a batch, or cost the host more
than a bounded frame: a jail that fails, or whose result names a failed bot, has its match
played again in the standard mode, and that result stands (docs/security.md).

Most attacks are a Robot Game bot (two seats: the other one is the victim); the result
forger (tests/hostile/jail/result_forger.py, the red team's) rewrites the result the jail
builds, out of the shape the host reads. The framing attacks through what the jail's bots
share are cases of the hostile suite (tests/hostile/api_framer.py, gc_framer_masked.py).
As root, these run again as an ordinary user (tests/sandbox/test_ordinary_user.py).
"""
from __future__ import annotations

import gzip
import json
import sqlite3
import stat
import subprocess
import sys
import textwrap

import pytest

from orchestrator.games import GAMES
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from tests.support.paths import ARENA_CMD, BOTS, HOSTILE, ROOT

GAME = GAMES["robotgame"]

# Finds the jail's page (its `Marker`), the seat it says runs (the attacker's own), and the
# pipe to the host (a frame's `out_fd`), as the bot's own code can.
TOOLS = """
import gc, os, signal, struct, sys
import rg

def marker():
    return next((o for o in gc.get_objects()
                 if type(o).__name__ == 'Marker' and hasattr(o, 'page')), None)

def victim(page):
    return 1 - struct.unpack_from('<i', page, 8)[0]

def out_fd():
    frame = sys._getframe()
    while frame is not None:
        fd = frame.f_locals.get('out_fd')
        if isinstance(fd, int):
            return fd
        frame = frame.f_back

def spin():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
    while True:
        pass

def write_frame(size, body):
    fd = out_fd()
    data = struct.pack('>I', size) + body
    while data:
        data = data[os.write(fd, data):]

class Robot:
    def act(self, game):
        if game.turn == 2:
            attack()
        return ['guard']
"""
# What each attacker does on its first act of turn 2. In its standard child (the match
# played again) there is no page: the attacks that exit still exit, and are charged there.
ATTACKS = {
    # The two lines: charge the victim with a limit, then die.
    "frame the victim": """
def attack():
    m = marker()
    if m:
        m.poison(victim(m.page), 1, 'cpu time limit')
    os._exit(70)
""",
    # The page says the victim is in a request; the attacker then hangs the jail.
    "hang in the victim's name": """
def attack():
    m = marker()
    if m:
        m.write(victim(m.page), 5, 3, 1, 2)
        spin()
    os._exit(70)
""",
    # The page says no bot runs: the jail's death looks like the engine's own.
    "die as the engine": """
def attack():
    m = marker()
    if m:
        m.idle()
    os._exit(70)
""",
    # The jail's own player of the victim is marked dead: its result says the victim
    # forfeited, and the attacker plays on, clean.
    "kill the victim's player": """
def attack():
    m = marker()
    if m:
        for o in gc.get_objects():
            if type(o).__name__ == 'GuardedPlayer' and o.seat == victim(m.page):
                o.dead = 'cpu time limit'
""",
    # A forged result that charges the victim, sent before the jail's own.
    "forge the result": """
def attack():
    import msgpack
    m = marker()
    if m:
        body = msgpack.packb({'result': {'players': [{'seat': victim(m.page),
                              'status': 'forfeit', 'reason': 'cpu time limit'}]},
                              'again': True})
        write_frame(len(body), body)
        os._exit(0)
""",
}


def attacker(tmp_path, attack: str):
    path = tmp_path / "attacker.py"
    path.write_text(TOOLS + textwrap.dedent(ATTACKS[attack]))
    return read_bot(path)


def victim_bot():
    return read_bot(next(p for p in GAME.demo_lineup(on_skip=lambda _: None)))


def play(bots, mode: str, seed: int = 1, turns: int = 5) -> dict:
    spec = MatchSpec(GAME.name, GAME.find_map(None), bots, seed,
                     GAME.rules(GAME.presets[0], max_turns=turns), None, mode)
    return run_match(spec)


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_no_bot_is_charged_on_the_jails_word(attack, tmp_path, no_stray_processes) -> None:
    bots = [attacker(tmp_path, attack), victim_bot()]
    result = play(bots, "match")
    victim = next(p for p in result["players"] if p["seat"] == 1)
    assert victim["status"] == "ok" and victim["reason"] is None, result["players"]
    assert result["sandbox_mode"] == "standard", result
    assert result["sandbox_note"].startswith("the match jail failed"), result
    assert all(kill["unverified"] for kill in result["jail_kills"]), result["jail_kills"]
    # The standard mode's own result, the same as a match asked for in that mode.
    standard = play(bots, "standard")
    for key in ("turns", "end", "winner", "restarts"):
        assert result[key] == standard[key], key
    assert [(p["seat"], p["status"], p["reason"]) for p in result["players"]] == \
        [(p["seat"], p["status"], p["reason"]) for p in standard["players"]]


def test_a_batch_with_a_framer_records_every_match(tmp_path, no_stray_processes) -> None:
    from orchestrator import api
    db = tmp_path / "runs.sqlite"
    bots = [attacker(tmp_path, "die as the engine").path, victim_bot().path]
    api.batch(bots, game="robotgame", seeds=3, max_turns=5, sandbox="match", db=db,
              workers=1, progress=False)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seat, status FROM participants").fetchall()
        modes = {row[0] for row in conn.execute("SELECT sandbox FROM matches")}
    assert len(rows) == 6 and modes == {"standard"}, (rows, modes)
    assert {status for seat, status in rows if seat == 1} == {"ok"}, rows


# A bot streams one huge frame of small containers to the host's pipe: its own child's
# (standard) or its jail's (match). The host's peak memory is measured in a process of its
# own, after a warm-up match in the same mode.
BLOAT = """
def attack():
    count = {count}
    body = b'\\xdd' + count.to_bytes(4, 'big') + {item!r} * count
    write_frame(len(body), body)
    spin()
"""
BLOATS = {  # mode: (items, item, the most the host's peak may grow by, in MiB)
    # Empty arrays, 8 MiB (the jail's cap): half a GiB once decoded. The bound.
    "match": ((8 << 20) - 64, b"\x90", 64),
    # Empty maps, 1 MiB (a child's cap): 45 MiB once decoded; refused before that.
    "standard": ((1 << 20) - 64, b"\x80", 16),
}
MEASURE = """
import json, resource, sys
sys.path.insert(0, {root!r})
from orchestrator.runner.bots import read_bot
from orchestrator.games import GAMES
from orchestrator.runner.match import MatchSpec, run_match
game = GAMES['robotgame']
def play(bots):
    spec = MatchSpec('robotgame', game.find_map(None), [read_bot(b) for b in bots], 1,
                     game.rules(game.presets[0], max_turns=4), None, {mode!r})
    return run_match(spec)
victim = {victim!r}
play([victim, victim])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = play([{bot!r}, victim])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"grown_mb": (after - before) / 1024, "players": result["players"]}}))
"""


@pytest.mark.parametrize("mode", sorted(BLOATS))
def test_a_huge_frame_of_small_containers_costs_the_host_little(mode, tmp_path,
                                                                no_stray_processes) -> None:
    count, item, most_mb = BLOATS[mode]
    bot = tmp_path / "bloater.py"
    bot.write_text(TOOLS + BLOAT.format(count=count, item=item))
    script = MEASURE.format(root=str(ROOT), mode=mode, victim=victim_bot().path,
                            bot=str(bot))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    me = next(p for p in found["players"] if p["seat"] == 0)
    assert me["status"] == "forfeit" and me["reason"].startswith("protocol"), me
    assert found["grown_mb"] < most_mb, f"the host's peak grew by {found['grown_mb']:.0f} MiB"


FORGER = HOSTILE / "jail" / "result_forger.py"
KINDS = ("rank", "seat", "bytes", "players", "nan", "identity")


@pytest.mark.parametrize("kind", KINDS)
def test_a_result_forged_out_of_shape_is_played_again_in_the_standard_mode(
        kind, tmp_path, no_stray_processes) -> None:
    bot = tmp_path / "result_forger.py"
    bot.write_text(FORGER.read_text().replace("KIND = 'rank'", f"KIND = {kind!r}"))
    db = tmp_path / "runs.sqlite"
    done = subprocess.run(
        [*ARENA_CMD, "batch", str(bot), str(BOTS / "hunter.py"), "--seeds", "2",
         "--max-turns", "5", "--sandbox", "match", "--workers", "1", "--db", str(db),
         "--replays", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)                 # strict JSON: no NaN reached it
    assert report["matches"] == 2
    assert {p["name"]: (p["matches"], p["erased"], p["load_errors"])
            for p in report["players"]} == {"ResultForger": (2, 0, 0), "Hunter": (2, 0, 0)}
    with sqlite3.connect(db) as conn:
        modes = [row[0] for row in conn.execute("SELECT sandbox FROM matches")]
        ranks = {row[0] for row in conn.execute("SELECT typeof(rank) FROM participants")}
        replays = [row[0] for row in conn.execute("SELECT replay FROM matches")]
    assert modes == ["standard", "standard"]         # played again, and recorded so
    assert ranks == {"integer"}
    for path in replays:
        replay = json.loads(gzip.decompress(open(path, "rb").read()))
        assert {p["name"] for p in replay["players"]} == {"ResultForger", "Hunter"}


def test_the_forger_plays_on_in_a_child_of_its_own(tmp_path, no_stray_processes) -> None:
    """The control: in the standard mode the forger finds nothing to forge, and a batch
    records it as any bot."""
    db = tmp_path / "runs.sqlite"
    done = subprocess.run(
        [*ARENA_CMD, "batch", str(FORGER), str(BOTS / "hunter.py"), "--seeds", "1",
         "--max-turns", "5", "--workers", "1", "--db", str(db), "--json"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["matches"] == 1


# Prints every path of the job the jail was given that it can find through `gc`, and the
# host's modules (a game kept elsewhere, ARENA_GAMES, among them) it finds loaded.
PATH_FINDER = """
import gc
import sys
import rg
class Robot:
    def act(self, game):
        if game.turn == 1 and self.location == min(
                loc for loc, bot in game.robots.items() if bot.player_id == self.player_id):
            paths = sorted({str(getattr(o, name)) for o in gc.get_objects()
                            if type(o).__name__ in ('BotFile', 'MatchSpec')
                            for name in ('path', 'map_path') if hasattr(o, name)})
            print('PATHS', paths)
            print('HOSTS', sorted(m for m in sys.modules if m.split('.')[0] in (
                'engine', 'orchestrator', 'sandbox') or m.startswith('arena_game_')))
        return ['guard']
"""


def test_the_jail_is_told_file_names_and_hides_the_hosts_modules(
        tmp_path, no_stray_processes) -> None:
    path = tmp_path / "finder.py"
    path.write_text(PATH_FINDER)
    result = play([read_bot(path), victim_bot()], "match")
    assert result["sandbox_mode"] == "match", result
    me = next(p for p in result["players"] if p["seat"] == 0)
    assert me["bot"] == str(path)                          # the host's result keeps them
    printed, hosts = me["output"].split("PATHS", 1)[1].split("HOSTS")
    assert "finder.py" in printed and "/" not in printed, printed
    assert "toy" in GAMES and hosts.strip() == "[]", hosts   # tests/toy is ARENA_GAMES


# Lists the descriptors open in the jail, as the bot's own code can (fstat each: the jail's
# nobody may not read /proc/self/fd): the host's page is a memfd, a file with no name.
FD_LISTER = """
import json
import os
import rg
class Robot:
    def act(self, game):
        if game.turn == 1 and self.location == min(
                loc for loc, bot in game.robots.items() if bot.player_id == self.player_id):
            found = []
            for fd in range(1024):
                try:
                    found.append([fd, os.fstat(fd).st_mode, os.fstat(fd).st_nlink])
                except OSError:
                    pass
            print('FDS', json.dumps(found))
        return ['guard']
"""


def test_no_descriptor_of_the_hosts_page_is_open_in_the_jail(tmp_path,
                                                            no_stray_processes) -> None:
    path = tmp_path / "lister.py"
    path.write_text(FD_LISTER)
    result = play([read_bot(path), victim_bot()], "match")
    assert result["sandbox_mode"] == "match", result
    me = next(p for p in result["players"] if p["seat"] == 0)
    found = json.loads(me["output"].split("FDS", 1)[1])
    # It sees the jail's own two pipes to the host, and no file that has no name.
    assert sum(stat.S_ISFIFO(mode) for _, mode, _ in found) == 2, found
    assert [f for f in found if stat.S_ISREG(f[1]) and f[2] == 0] == [], found


def test_a_standard_batch_never_takes_a_jailed_batchs_results(tmp_path,
                                                              no_stray_processes) -> None:
    """A jail's results may have been bent by a bot of its line-up (its bots share one
    process), so the same batch in the standard mode plays every match again, into the
    same results file, rather than counting them as its own (a newcomer found a
    standard batch that said "6 already in" the match batch's file)."""
    from orchestrator import api
    db = tmp_path / "runs.sqlite"
    bots = [victim_bot().path, victim_bot().path]
    skipped = [api.batch(bots, game="robotgame", seeds=2, max_turns=3, sandbox=mode, db=db,
                         workers=1, progress=False).to_json()["skipped"]
               for mode in ("match", "standard", "standard")]
    assert skipped == [0, 0, 2], skipped          # the second standard batch resumes
    with sqlite3.connect(db) as conn:
        modes = sorted(row[0] for row in conn.execute("SELECT sandbox FROM matches"))
    assert modes == ["match", "match", "standard", "standard"], modes


# The marks forger (tests/hostile/jail/marks_forger.py) adds an AI to the replay's `debug`
# section under a key str.isdigit() takes for a number: '²' (int() raises on it: before,
# `arena batch` recorded 0 of 4 matches and exited 2, and `arena run` gave a traceback) and
# '٠' (int() reads it as AI 0: before, the forged note was taken as AI 0's). Either is a
# result the host refuses: the match plays again in the standard mode. Two workers: the
# standard mode's matches then start in two threads at once (their engine's numpy, loaded
# on first use, was found half loaded by the second: the batch stopped there too).
MARKS_FORGER = HOSTILE / "jail" / "marks_forger.py"
FORGED_KEYS = ("\u00b2", "\u0660")


def marks_forger(tmp_path, key: str):
    bot = tmp_path / "marks_forger.py"
    bot.write_text(MARKS_FORGER.read_text(encoding="utf-8").replace(
        "KEY = '\\u00b2'", f"KEY = {key!r}"), encoding="utf-8")
    return bot


@pytest.mark.parametrize("key", FORGED_KEYS, ids=("superscript-two", "arabic-indic-zero"))
def test_a_batch_with_forged_marks_records_every_match(key, tmp_path,
                                                        no_stray_processes) -> None:
    bot, db = marks_forger(tmp_path, key), tmp_path / "runs.sqlite"
    done = subprocess.run(
        [*ARENA_CMD, "batch", str(bot), str(BOTS / "hunter.py"), "--seeds", "4",
         "--max-turns", "20", "--sandbox", "match", "--workers", "2", "--db", str(db),
         "--replays", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["matches"] == 4
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT sandbox, replay FROM matches").fetchall()
    assert [row[0] for row in rows] == ["standard"] * 4          # refused, played again
    for _, path in rows:
        replay = json.loads(gzip.decompress(open(path, "rb").read()))
        assert "forged by another AI" not in json.dumps(replay)


def test_a_run_with_forged_marks_ends_without_a_traceback(tmp_path,
                                                          no_stray_processes) -> None:
    bot, out = marks_forger(tmp_path, FORGED_KEYS[0]), tmp_path / "match.json.gz"
    done = subprocess.run(
        [*ARENA_CMD, "run", str(bot), str(BOTS / "hunter.py"), "--seed", "3",
         "--max-turns", "5", "--sandbox", "match", "--replay", str(out)],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr + done.stdout
    assert "played again in the standard mode" in done.stdout + done.stderr
    assert "forged by another AI" not in gzip.decompress(out.read_bytes()).decode()


# The carrier (tests/hostile/jail/carrier.py) patches random.Random.randint at its first
# import in a jail, so that from the jail's second match on every roll is the highest
# (Robot Game's attack damage). Before, a jail played a line-up's matches one after
# another in one process, and seeds 12, 13 and 14 of a `--workers 1` batch differed from
# the standard mode's (seed 13: 124-154 in standard, 140-140 in match). Each match now
# plays in a process forked for it from the jail, which runs no bot's code.
RG_BOTS = BOTS.parent / "robotgame"
LINEUPS = {"carrier": [HOSTILE / "jail" / "carrier.py", RG_BOTS / "example.py"],
           "honest": [RG_BOTS / "coordinator.py", RG_BOTS / "example.py"]}


def batch_by_seed(bots, mode: str, db) -> dict:
    """Each seed's match of a `--workers 1` batch, as the results file keeps it."""
    done = subprocess.run(
        [*ARENA_CMD, "batch", "--game", "robotgame", *map(str, bots), "--seeds", "4",
         "--first-seed", "11", "--max-turns", "40", "--sandbox", mode, "--workers", "1",
         "--db", str(db), "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    with sqlite3.connect(db) as conn:
        matches = conn.execute("SELECT id, seed, turns, end_reason, sandbox FROM matches")
        return {seed: (turns, end, sandbox, conn.execute(
            "SELECT seat, rank, status, stats FROM participants WHERE match_id = ? "
            "ORDER BY seat", (match_id,)).fetchall())
            for match_id, seed, turns, end, sandbox in matches.fetchall()}


@pytest.mark.parametrize("lineup", sorted(LINEUPS))
def test_a_jailed_batch_plays_each_seed_as_the_standard_mode(lineup, tmp_path,
                                                              no_stray_processes) -> None:
    bots = LINEUPS[lineup]
    standard = batch_by_seed(bots, "standard", tmp_path / "standard.sqlite")
    jailed = batch_by_seed(bots, "match", tmp_path / "match.sqlite")
    assert sorted(standard) == sorted(jailed) == [11, 12, 13, 14]
    assert {seed: found[2] for seed, found in jailed.items()} == dict.fromkeys(jailed, "match")
    differ = [seed for seed in standard if standard[seed][:2] + standard[seed][3:] !=
              jailed[seed][:2] + jailed[seed][3:]]
    assert differ == [], f"seeds {differ} played otherwise in the match jail"
