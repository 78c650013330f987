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
