"""Bots defined as code, as a notebook cell would define them: the API writes their source
to files. Not a bot file itself: the tests pass these objects to the API."""


def idle(*args):
    """Any function game's bot that answers nothing: it loads, and its answers are invalid."""
    return None


class Idle:
    """A class game's bot (Robot Game) that always guards."""

    def act(self, game):
        return ["guard"]


def spin(*args):
    """A bot that never answers: the sandbox must stop it, not the caller."""
    while True:
        pass


def closure_maker():
    seen = []

    def remembers(*args):
        seen.append(args)
    return remembers


def by_kind(kind: str):
    return {"function": idle, "class": Idle}[kind]


# A module bound outside the bot, as another notebook cell's `import math` binds it (an
# import statement in this file would compile the bot's calls on it differently).
math = __import__("math")


def uses_math(*args):
    """An arena bot that uses a module imported outside it: in its sandbox, where its file
    has no `import math`, every call raises NameError."""
    return math.floor(0)


def says_hostile(*args):
    """An arena bot whose every call raises with terminal escapes and a bidi override in
    the message."""
    raise ValueError("\x1b]52;c;cGFzdGU=\x07\x1b[31mred\u202eevil")
