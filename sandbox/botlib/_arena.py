"""The Robot Arena's child side: a view payload in, one move() call per robot, codes out."""
import time
from array import array

import _marks
from _runtime import ERRORS_PER_REPLY, LoadError, guarded, seed_random
from roborally import api

MOVE_CODES = {move: code for code, move in enumerate(api.MOVES, start=1)}
OVERHEAT = 255
WATCH_MODULE_STATE = True          # rule 1: robots may not share state through the module
# The flag sense for each value of the view's 4 sense bits, in the order the api lists it.
_SENSE = [tuple(d for bit, d in ((1, api.AHEAD), (4, api.BEHIND), (8, api.LEFT), (2, api.RIGHT))
                if bits & bit) for bits in range(16)]


def check_module(module):
    """A loadable arena bot defines a callable move()."""
    if not callable(getattr(module, "move", None)):
        raise LoadError("the bot has no move() function")


class ArenaRuntime:
    """Holds one AI's bot module and its robots' memories for the whole match."""

    def __init__(self, module, start, guard):
        self.move = module.move
        self.names = start["names"]
        self.key = start["key"]          # this AI's own key, never the match seed
        self.ai = start["ai"]
        self.guard = guard
        self.memories = {}
        self.seed_key = ""
        self.view = None

    def handle(self, view):
        """Answer one turn: {'moves': bytes, 'errors': [[i, text]], 'bot_s': float}."""
        ids = array("i", view["ids"])
        own = array("h", view["own"])
        count = array("h", view["count"])
        things = array("h", view["things"])
        floor = view["floor"]
        names, name, memories = self.names, self.names[self.ai], self.memories
        seed_head, seed_tail = f"{self.key}:", f":{view['turn']}"
        codes = bytearray(len(ids))
        errors = []
        spent = 0.0
        at = 0
        for i, rid in enumerate(ids):
            life, charges, flags, bits = own[4 * i:4 * i + 4]
            end = at + 5 * count[i]
            memory = memories.get(rid)
            if memory is None:
                memory = memories[rid] = {}
            me = {api.TYPE: api.ROBOT, api.POSITION: (5, 5), api.LIFE: life,
                  api.FACING: api.AHEAD, api.NAME: name, api.FLAGS_SCORED: flags,
                  api.CHARGES: charges, api.MEMORY: memory, api.FLAG_SENSE: list(_SENSE[bits])}
            # Set under the guard, in _decide: the view it replaces may hold the bot's objects.
            self.view = api._View(floor[121 * i:121 * i + 121], things, at, end, me, names)
            self.seed_key = f"{seed_head}{rid}{seed_tail}"    # key:robot:turn
            at = end
            _marks.at(i)
            started = time.perf_counter()
            code, error = self._ask()
            spent += time.perf_counter() - started
            codes[i] = code
            if error and len(errors) < ERRORS_PER_REPLY:
                errors.append([i, error])
        return {"moves": bytes(codes), "errors": errors, "bot_s": spent}

    def _ask(self):
        """One move() call: (code, None), or (OVERHEAT, reason) for a raise or bad answer."""
        answer, error = guarded(self.guard, self._decide)
        return (OVERHEAT, error) if error else answer

    def _decide(self):
        """move() and a look at its answer, under the guard: the answer is let go there,
        so that its `__del__` (or its type's `__name__`) runs on the bot's time."""
        api._set_view(self.view)
        seed_random(self.seed_key)      # the bot may have replaced random's generator
        answer = self.move()
        if type(answer) is str and answer in MOVE_CODES:
            return MOVE_CODES[answer], None
        shown = repr(answer[:40]) if type(answer) is str else f"a {type(answer).__name__}"
        return OVERHEAT, f"invalid move: {shown}"


RUNTIME = ArenaRuntime
