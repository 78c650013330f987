"""A toy bot whose every call spins forever, from the first one."""


def step(view):
    while True:
        pass
