"""Bots defined as code in a file that imports, at its top, a module they use: CPython
compiles their calls on it differently from the same text alone (`math` is an import
here), which once made the API refuse them as "not the code passed"."""
import math


def uses_imported(*args):
    """An arena bot calling a module imported outside it."""
    return math.floor(0)


class Floors:
    """A Robot Game bot whose method calls a module imported outside it."""

    def act(self, game):
        return ["guard"] if math.floor(0.5) == 0 else ["suicide"]
