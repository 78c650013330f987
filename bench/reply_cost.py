"""What one bot's replies cost the host, and what its replay keeps.

    python bench/reply_cost.py race tests/hostile/replies/race_junk.py        # 10 rounds
    python bench/reply_cost.py robotgame tests/hostile/replies/rg_warn_flood.py   # 30 turns
    python bench/reply_cost.py race honest         # the same play, without the attack
    python bench/reply_cost.py robotgame honest

Plays the bot against the game's first sample in the standard mode, seed 1, and prints
one JSON line: the replay's size (gzip, as `arena run --replay` writes it), the host's
own CPU seconds (this process: the engine, the frames, the bookkeeping; the bots' children
are not in it) per turn, and what became of the bot (status, reason, the CPU charged to
it). Run it with the interpreter of the tree to measure (its editable install decides
which code plays), e.g. `OLD_CHECKOUT/.venv/bin/python bench/reply_cost.py ...` for the
code before the fix.
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from orchestrator.games import GAMES
from orchestrator.replay import file as replay
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match

TURNS = {"race": 10, "robotgame": 30}
# The hostile bots' own play, without their attack: the honest figures.
HONEST = {
    "race": """
def bot(round, order, position, score, cards, bots, factory):
    if round == 0:
        return "N"
    rest = list(cards)
    first = next((card for card in rest if card != "Ag"), rest[0])
    rest.remove(first)
    return [first, *rest[:4]]
""",
    "robotgame": """
import rg

class Robot:
    def act(self, game):
        return ["guard"]
""",
}


def main(game_name: str, bot: str, turns: int | None = None) -> dict:
    game = GAMES[game_name]
    if bot == "honest":
        bot = str(Path(tempfile.mkdtemp()) / "honest.py")
        Path(bot).write_text(HONEST[game_name])
    turns = turns or TURNS.get(game_name, 30)
    other = read_bot(next(iter(game.demo_lineup(on_skip=lambda _: None))))
    spec = MatchSpec(game.name, game.find_map(None), [read_bot(bot), other], 1,
                     game.rules(game.presets[0], max_turns=turns), None, "standard")
    replays: list[dict] = []
    started = time.process_time()
    result = run_match(spec, replays=replays)
    size = len(replay.encode(replays[0]))         # the host writes it: its cost counts
    host_s = time.process_time() - started
    player = next(p for p in result["players"] if p["seat"] == 0)
    return {"game": game_name, "bot": bot, "turns": result["turns"],
            "replay_bytes": size,
            "host_cpu_s": round(host_s, 3),
            "host_cpu_ms_per_turn": round(1000 * host_s / max(1, result["turns"]), 2),
            "status": player["status"], "reason": player["reason"],
            "bot_cpu_s": player["cpu_s"], "restarts": result["restarts"]}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2],
                          int(sys.argv[3]) if len(sys.argv) > 3 else None)))
