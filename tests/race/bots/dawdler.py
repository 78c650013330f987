import time


def bot(round, order, position, score, cards, bots, factory):
    end = time.process_time() + 1.3          # past the 1 s a round, within the hard 2 s
    while time.process_time() < end:
        pass
    return cards[:5] if round else "E"
