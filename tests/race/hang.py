"""A Race bot whose every call spins forever, from the first one."""


def hang(round, order, position, score, cards, bots, factory):
    while True:
        pass
