"""A Race bot that plays a few rounds, then spins through every timeout until its CPU
limit erases it mid-match."""


def bot(round, order, position, score, cards, bots, factory):
    if round < 3:
        return cards[:5] if round else "E"
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
