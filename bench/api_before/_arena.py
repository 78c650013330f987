"""The Robot Arena's child side: a view payload in, one move() call per robot, codes out."""
import time
from array import array

from _runtime import ERRORS_PER_REPLY, LoadError, guarded, seed_random
from roborally import api

MOVE_CODES = {move: code for code, move in enumerate(api.MOVES, start=1)}
OVERHEAT = 255
WATCH_MODULE_STATE = True          # rule 1: robots may not share state through the module
_SENSE = ((1, api.AHEAD), (4, api.BEHIND), (8, api.LEFT), (2, api.RIGHT))


def check_module(module):
    """A loadable arena bot defines a callable move()."""
    if not callable(getattr(module, "move", None)):
        raise LoadError("the bot has no move() function")


class ArenaRuntime:
    """Holds one AI's bot module and its robots' memories for the whole match."""

    def __init__(self, module, start, guard):
        self.move = module.move
        self.names = start["names"]
        self.seed = start["seed"]
        self.ai = start["ai"]
        self.guard = guard
        self.memories = {}

    def handle(self, view):
        """Answer one turn: {'moves': bytes, 'errors': [[i, text]], 'bot_s': float}."""
        ids = array("i", view["ids"])
        own = array("h", view["own"])
        count = array("h", view["count"])
        things = array("h", view["things"])
        floor = view["floor"]
        turn = view["turn"]
        codes = bytearray(len(ids))
        errors = []
        spent = 0.0
        at = 0
        for i, rid in enumerate(ids):
            life, charges, flags, bits = own[4 * i:4 * i + 4]
            seen = {}
            for k in range(at, at + count[i]):
                row = things[5 * k:5 * k + 5]
                seen[row[0]] = (row[1], row[2], row[3], row[4])
            at += count[i]
            memory = self.memories.get(rid)
            if memory is None:
                memory = self.memories[rid] = {}
            me = {api.TYPE: api.ROBOT, api.POSITION: (5, 5), api.LIFE: life,
                  api.FACING: api.AHEAD, api.NAME: self.names[self.ai],
                  api.FLAGS_SCORED: flags, api.CHARGES: charges, api.MEMORY: memory,
                  api.FLAG_SENSE: [d for bit, d in _SENSE if bits & bit]}
            api._set_view(api._View(floor[121 * i:121 * i + 121], seen, me, self.names))
            seed_random(self.seed, self.ai, rid, turn)
            started = time.perf_counter()
            code, error = self._ask()
            spent += time.perf_counter() - started
            codes[i] = code
            if error and len(errors) < ERRORS_PER_REPLY:
                errors.append([i, error])
        return {"moves": bytes(codes), "errors": errors, "bot_s": spent}

    def _ask(self):
        """One move() call: (code, None), or (OVERHEAT, reason) for a raise or bad answer."""
        answer, error = guarded(self.guard, self.move)
        if error:
            return OVERHEAT, error
        if type(answer) is str and answer in MOVE_CODES:
            return MOVE_CODES[answer], None
        shown = repr(answer[:40]) if type(answer) is str else f"a {type(answer).__name__}"
        return OVERHEAT, f"invalid move: {shown}"


RUNTIME = ArenaRuntime
