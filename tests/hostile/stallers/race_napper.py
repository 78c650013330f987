"""Race some Robots: naps 0.3 s before each round's choice, a legal one (the first five
cards; the first round's facing). No CPU, under the 1 s a round: its bank erases it."""
import time


def bot(round, order, position, score, cards, bots, factory):
    time.sleep(0.3)
    return cards[:5] if round else "E"
