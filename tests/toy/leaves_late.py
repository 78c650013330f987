"""A toy bot that steps a few turns, then spins forever."""

name = "leaves_late"


def step(view):
    if view["turn"] >= 3:
        while True:
            pass
    return "."
