"""What a bot's debug marks cost the host and its replay: a bot without marks, an
honest thinker and a flood, each against the game's first sample, seed 1.

    python bench/marks_cost.py robotgame 100
    python bench/marks_cost.py cave 100

Prints one line each: the host's own CPU seconds for the match (this process, its CPU
clock: the engine, the frames, checking and keeping the marks; the bots' children are not
in it), the replay's size (gzip, and its JSON), the CPU charged to the bot, its warnings.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from orchestrator.games import GAMES
from orchestrator.replay import file as replay
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match

ROOT = Path(__file__).resolve().parent.parent
MARKS = ROOT / "tests" / "marks" / "bots"


def main(game_name: str, turns: int) -> None:
    game = GAMES[game_name]
    samples = game.demo_lineup(on_skip=lambda _: None)
    opponent = next((p for p in samples if p.suffix == ".py"), samples[0])
    for label, bot in (("no marks", opponent), ("honest", MARKS / f"{game_name}.py"),
                       ("flood", MARKS / f"flood_{game_name}.py")):
        spec = MatchSpec(game_name, game.find_map(None), [read_bot(bot), read_bot(opponent)],
                         1, game.rules(game.presets[0], max_turns=turns))
        replays: list[dict] = []
        started = time.process_time()
        result = run_match(spec, replays=replays)
        packed = replay.encode(replays[0])
        host_s = time.process_time() - started
        player = next(p for p in result["players"] if p["seat"] == 0)
        print(f"{game_name} {label}: host CPU {host_s:.3f} s, replay {len(packed):,} B gzip, "
              f"{len(json.dumps(replays[0], separators=(',', ':'))):,} B JSON, bot CPU "
              f"{player['cpu_s']} s, {player['status']}, warnings {player['warnings']}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100)
