"""The toy game's bot side: one call of the bot's `step(view)` per turn, its answer (a
step: N, E, S, W or `.`) sent back as plain text.

It runs beside the bot in the sandbox child, which gets this file's source from the host
in the load frame (the toy game lives outside sandbox/botlib/): it may import only what
the child has, the child side's modules (`_runtime`) and the standard library."""
from _runtime import LoadError, guarded, seed_random

WATCH_MODULE_STATE = False         # a bot may keep what it learns in its module


def check_module(module):
    """A loadable toy bot defines a callable step()."""
    if not callable(getattr(module, "step", None)):
        raise LoadError("the bot has no step(view) function")


class ToyRuntime:
    """One bot for the whole match."""

    def __init__(self, module, start, guard):
        self.step = module.step
        self.key = start["key"]
        self.ai = start["ai"]
        self.guard = guard

    def handle(self, view):
        """Answer one turn: {'moves': {'step': str}, 'errors': [[0, text]]}."""
        seed_random(self.key, view["turn"])
        answer, error = guarded(self.guard, lambda: _plain(self.step(view)))
        if error:
            return {"moves": {"step": "?"}, "errors": [[0, error]]}
        return {"moves": {"step": answer}, "errors": []}


def _plain(answer):
    """The answer as exact text, so that a hostile object runs no code in the host."""
    return answer[:1] if type(answer) is str else "?"


RUNTIME = ToyRuntime
