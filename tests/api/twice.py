"""Bots whose names are defined twice in this one file, as an attacker would write them:
a definition under `if False:` never runs, so the object of that name is the other one.
The tests pass these objects to the API; what plays must be the object passed (it prints
`passed`), never the hidden text (it prints `hidden`). Not a bot file itself."""
# ruff: noqa: F811  (the redefinitions are the point)

if False:
    def move_hidden_first(*args):
        print("hidden")
        return None

    class RobotHiddenFirst:
        def act(self, game):
            print("hidden")
            return ["guard"]

    class Marker:
        def say(self):
            return "hidden"


def move_hidden_first(*args):
    print("passed")
    return None


class RobotHiddenFirst:
    def act(self, game):
        print("passed")
        return ["guard"]


class Marker:
    """A helper class defined twice, the hidden text first."""

    def say(self):
        return "passed"


def says_marker(*args):
    print(Marker().say())
    return None


def move_hidden_after(*args):
    print("passed")
    return None


class RobotHiddenAfter:
    def act(self, game):
        print("passed")
        return ["guard"]


if False:
    def move_hidden_after(*args):
        print("hidden")
        return None

    class RobotHiddenAfter:
        def act(self, game):
            print("hidden")
            return ["guard"]


class RobotPatched:
    """Harmless where it is defined; its method is replaced below, so the object passed
    runs other code than this text."""

    def act(self, game):
        print("passed")
        return ["guard"]


def _other_act(self, game):
    print("hidden")
    return ["guard"]


RobotPatched.act = _other_act

if False:
    class Plain:
        shout = "hidden"


class Plain:
    """No methods of its own: nothing but its name could tell its two definitions apart."""

    shout = "passed"
