"""Race some Robots' child side: one call of the bot's function per round.

A bot is a file with `bot(round, order, position, score, cards, bots, factory)`, or with
one top-level function of another name (the seed's `random_bot`). It gets fresh copies
of its cards and the factory each round, so what it does to them stays with it. Its
answer comes back as plain data (a string, or a list of strings); the host checks it
against the hand it dealt.
"""
import inspect

from _runtime import LoadError, TimeLimit, guarded, seed_random

WATCH_MODULE_STATE = False         # a bot may keep what it learns in its module
FUNCTION = "_race_bot_function"
MOST_CARDS = 9                     # no answer may be longer than a hand


def check_module(module):
    """The bot's function: `bot`, or the file's only top-level function."""
    found = getattr(module, "bot", None)
    if not inspect.isfunction(found):
        own = [value for value in vars(module).values()
               if inspect.isfunction(value) and value.__module__ == module.__name__]
        if len(own) != 1:
            raise LoadError("the bot defines no function bot(round, order, position, score, "
                            "cards, bots, factory)" if not own else
                            f"the bot defines {len(own)} functions and none is named bot")
        found = own[0]
    setattr(module, FUNCTION, found)


def plain(value):
    """A copy of the answer in exact built-in types, or None: hostile objects run no code."""
    if type(value) is str:
        return value[:8]
    if type(value) in (list, tuple) and len(value) <= MOST_CARDS and \
            all(type(card) is str for card in value):
        return [card[:4] for card in value]
    return None


class RaceRuntime:
    """One bot for the whole race."""

    def __init__(self, module, start, guard):
        self.function = getattr(module, FUNCTION)
        self.factory = start["info"]["factory"]
        self.key = start["key"]          # this AI's own key, never the match seed
        self.ai = start["ai"]
        self.guard = guard
        self.soft = guard.limits.get("act_soft_s")
        self.first_soft = guard.limits.get("first_act_soft_s") or self.soft
        self.called = False

    def handle(self, view):
        """Answer one round: {'moves': {'answer'} or {'problem'}, 'errors', 'bot_s'}."""
        x, y, d = view["position"]
        args = (view["round"], view["order"], (x, y, d), view["score"], list(view["cards"]),
                [(bx, by, bd) for bx, by, bd in view["bots"]],
                [list(row) for row in self.factory])
        seed_random(self.key, view["round"])
        self.guard.soft = self.soft if self.called else self.first_soft
        self.called = True
        try:
            # The answer is copied and let go under the guard: its hooks are the bot's time.
            answer, error = guarded(self.guard, lambda: plain(self.function(*args)))
        except TimeLimit:
            return {"moves": {"problem": "timeout"},
                    "errors": [[0, "timeout: the bot went past its time limit"]]}
        if error:
            return {"moves": {"problem": "error"}, "errors": [[0, error]]}
        return {"moves": {"answer": answer}, "errors": []}


RUNTIME = RaceRuntime
