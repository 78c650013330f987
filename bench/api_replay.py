"""Recorded arena views, replayed through a bot with one version of `roborally.api`.

`record()` plays the official map with the sample bots in-process and keeps the views
the engine sends (the bytes a child receives). Run as a script, this module replays them
through one bot with the api and child runtime of one version, in a fresh interpreter:
- `--api after`: the current `sandbox/botlib`;
- `--api before`: the frozen copies in `bench/api_before/` (the api before it was reworked),
  found ahead of `sandbox/botlib` on the path.
It prints JSON: decisions, CPU seconds spent in the runtime (decoding the view and every
move() call), a hash of all moves, and with `--probe` the bot module's `LOG`.
Used by bench/api_bench.py and tests/arena/test_api_differential.py.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parent.parent
BOTLIB = ROOT / "sandbox" / "botlib"
BEFORE = ROOT / "bench" / "api_before"
SAMPLES = ("beeline.py", "hunter.py", "randy.py", "turtle.py")


def _start(names: list, seed: int, ai: int) -> dict:
    """The start frame for either bot side: the frozen one reads `seed` and seeds `random`
    from "seed:ai:robot:turn"; today's reads `key` (the host sends no seed) and seeds it
    from "key:robot:turn", so this key makes both draw alike."""
    return {"names": names, "seed": seed, "key": f"{seed}:{ai}", "ai": ai}


def record(path: Path, turns: int = 60, every: int = 3, seed: int = 7,
           map_name: str = "official.txt") -> int:
    """Write the views of turns 1, 1+every, ... of one match to `path`; their count."""
    sys.path.insert(0, str(ROOT))
    from engine.arena.game import ArenaGame  # noqa: PLC0415
    from engine.arena.mapfile import load_map  # noqa: PLC0415
    from engine.arena.rules import rules_from  # noqa: PLC0415
    from sandbox.inprocess import child_runtime  # noqa: PLC0415
    runtime = child_runtime()
    import _arena  # noqa: PLC0415
    sources = [ROOT / "bots" / "arena" / name for name in SAMPLES] * 2
    names = [f"{p.stem}{i}" for i, p in enumerate(sources)]
    match = ArenaGame(load_map(ROOT / "maps" / "arena" / map_name), names, seed,
                       rules_from("seed", max_turns=turns))
    players = {}
    for ai, source in enumerate(sources):
        module = runtime.load_bot(source.read_text(), str(source), runtime.NoGuard(),
                                  module_name=f"bot_{ai}")
        players[ai] = _arena.ArenaRuntime(module, _start(names, seed, ai), runtime.NoGuard())
    kept = []
    while match.end is None and match.turn < turns:
        views = match.views()
        if match.turn % every == 0:
            kept += [[ai, view] for ai, view in sorted(views.items())]
        moves = {}
        for ai, view in views.items():
            moves.update(match.decode_answer(ai, players[ai].handle(view)["moves"]))
        match.play_turn(moves)
    path.write_bytes(msgpack.packb({"names": names, "seed": seed, "views": kept}))
    return len(kept)


def replay(api: str, bot: Path, views_path: Path, probe: bool, repeat: int) -> dict:
    """Run every recorded view through `bot`; see the module doc for what is returned."""
    sys.path[:0] = [str(BEFORE), str(BOTLIB)] if api == "before" else [str(BOTLIB)]
    import _arena  # noqa: PLC0415
    import _runtime  # noqa: PLC0415
    data = msgpack.unpackb(views_path.read_bytes())
    best, digest, log = None, None, None
    for _ in range(repeat):
        module = _runtime.load_bot(bot.read_text(), str(bot), _runtime.NoGuard())
        runtimes = {}
        moves = hashlib.sha256()
        decisions = 0
        cpu = 0.0
        for ai, view in data["views"]:
            if ai not in runtimes:
                runtimes[ai] = _arena.ArenaRuntime(
                    module, _start(data["names"], data["seed"], ai), _runtime.NoGuard())
            started = time.process_time()
            reply = runtimes[ai].handle(view)
            cpu += time.process_time() - started
            decisions += len(reply["moves"])
            moves.update(reply["moves"])
            if reply["errors"]:
                raise SystemExit(f"{bot.name} raised on {api}: {reply['errors'][0]}")
        best = cpu if best is None else min(best, cpu)
        digest, log = moves.hexdigest(), getattr(module, "LOG", None)
    return {"decisions": decisions, "cpu_s": best, "moves": digest,
            "log": log if probe else None}


def replay_fresh(api: str, bot: Path, views: Path, probe: bool = False, repeat: int = 1
                 ) -> dict:
    """`replay` in a fresh interpreter (this script), so that each api version loads alone;
    a failure raises RuntimeError with the script's stderr."""
    command = [sys.executable, __file__, "--api", api, "--bot", str(bot), "--views",
               str(views), "--repeat", str(repeat), *(["--probe"] if probe else [])]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if proc.returncode:
        raise RuntimeError(f"api_replay.py --api {api} --bot {bot.name} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", choices=("before", "after"), required=True)
    parser.add_argument("--bot", type=Path, required=True)
    parser.add_argument("--views", type=Path, required=True)
    parser.add_argument("--probe", action="store_true", help="print the bot's LOG too")
    parser.add_argument("--repeat", type=int, default=1, help="keep the fastest of N runs")
    args = parser.parse_args()
    print(json.dumps(replay(args.api, args.bot, args.views, args.probe, args.repeat)))


if __name__ == "__main__":
    main()
