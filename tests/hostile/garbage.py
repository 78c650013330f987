from roborally.api import *
name = 'Garbage'


class Weird:
    """Pretends to equal every move."""
    def __eq__(self, other):
        return True

    def __hash__(self):
        return hash(FORWARD)


GARBAGE = [None, 42, [FORWARD], FORWARD.upper() * 100000, Weird(), {'move': FORWARD}]


def move():
    n = memory().get('n', 0)
    memory()['n'] = n + 1
    return GARBAGE[n % len(GARBAGE)]
