"""A Race bot that spins from its first call on, through every timeout (it catches the
exception that ends a call), until its CPU limit erases it."""


def bot(round, order, position, score, cards, bots, factory):
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
