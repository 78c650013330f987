"""Robot Game for bots that are programs (Ruby): the keeper's side of each turn.

The keeper (`_keeper.py`) runs the bot's program, here `ruby ruby/driver.rb BOT`, which
lives for the whole game. Each turn this module turns the host's view into one JSON line
for it, and its answer line back into the reply a Python player's child would send: 3
bytes per own robot, checked by `_robotgame.validate`, as the answer comes from the bot.

A line in: {"turn", "robots": [[x, y, hp, player_id, robot_id or -1], ...], "player_id",
"key", "soft", "first_soft"}, plus "info" (the map and `rg.settings`) on the first turn.
A line out: a JSON list with one entry per own robot, in the order of "robots": an action
(["move", [x, y]], ["attack", [x, y]], ["guard"], ["suicide"]), or {"error": text}, or
{"timeout": true}. The program may end the game with {"fatal": text} instead.
"""
import json
from array import array

import _robotgame
import rg

ANSWER_CAP = 64 << 10         # a turn's answer line: about 30 bytes per robot


class RobotGameProgram:
    """Speaks Robot Game's frames to the host and JSON lines to the program."""

    def __init__(self, runner, start, limits):
        self.runner = runner            # a `_program.Runner`: the program, for the game
        runner.answer_cap = ANSWER_CAP
        rg._configure(start["info"])
        self.info = start["info"]
        self.player_id = start["ai"]
        self.key = start["key"]          # this AI's own key (hex), never the match seed
        self.soft = limits.get("act_soft_s") or 0.3
        self.first_soft = limits.get("first_act_soft_s") or self.soft
        self.first = True
        self.timed_out_turns = 0        # turns in a row on which every act timed out

    def turn(self, view):
        """Play one turn through the program: the reply frame."""
        rows = array("h", view["robots"])
        robots = [list(rows[i:i + 5]) for i in range(0, len(rows), 5)]
        own = [(row[0], row[1]) for row in robots if row[4] >= 0]
        line = {"turn": view["turn"], "robots": robots, "player_id": self.player_id,
                "key": self.key, "soft": self.soft, "first_soft": self.first_soft}
        if self.first:
            line["info"] = self.info
            self.first = False
        reply = self.runner.turn(json.dumps(line, separators=(",", ":")), calls=len(own))
        answer, problem = reply["moves"]["answer"], reply["moves"]["problem"]
        if problem is not None or answer is None:
            why = problem or "no answer"
            return {"fatal": f"{why}: the program stopped" if problem != "hang"
                    else "wall-clock watchdog (hang)"}
        moves, errors = self.decode(answer, own)
        if isinstance(moves, str):
            return {"fatal": moves}
        # The rule of a Python player's child (`_robotgame`): two turns of timeouts only.
        timeouts = moves[::3].count(_robotgame.TIMEOUT)
        self.timed_out_turns = self.timed_out_turns + 1 if own and timeouts == len(own) else 0
        if self.timed_out_turns >= _robotgame.TIMED_OUT_TURNS:
            return {"fatal": f"timeout: every act went past its time limit, "
                             f"{_robotgame.TIMED_OUT_TURNS} turns in a row"}
        reply.update(moves=moves, errors=errors, bot_s=0.0)
        return reply

    @staticmethod
    def decode(answer, own):
        """(3 bytes per own robot, [[i, error]]), or (the reason, None) for a fatal answer."""
        try:
            entries = json.loads(answer)
        except ValueError:
            return "protocol: the answer is not JSON", None
        except RecursionError:         # nested past the parser's depth: the program's fault
            return "protocol: the answer nests too deep", None
        if isinstance(entries, dict) and "fatal" in entries:
            return str(entries["fatal"])[:200], None
        if not isinstance(entries, list) or len(entries) != len(own):
            return f"protocol: expected {len(own)} actions", None
        out = bytearray()
        errors = []
        for i, (entry, location) in enumerate(zip(entries, own, strict=True)):
            code, x, y, error = _entry(entry, location)
            out += bytes((code, x, y))
            if error and len(errors) < _robotgame.ERRORS_PER_REPLY:
                errors.append([i, error])
        return bytes(out), errors


def _entry(entry, location):
    """(code, x, y, error) for one robot's answer."""
    if isinstance(entry, dict):
        if entry.get("timeout"):
            return _robotgame.TIMEOUT, 0, 0, "timeout: act() went past its time limit"
        return _robotgame.ERROR, 0, 0, str(entry.get("error", "invalid action"))[:200]
    if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list):
        entry = [entry[0], tuple(entry[1])]   # JSON has no tuples; rgkit wants (x, y)
    try:
        return (*_robotgame.validate(entry, location), None)
    except ValueError as exc:
        return _robotgame.ERROR, 0, 0, f"invalid action: {exc}"
