"""A Race bot that naps 0.5 s before every choice: 50 s of a 100-round match."""
import time


def bot(round, order, position, score, cards, bots, factory):
    time.sleep(0.5)
    if round == 0:
        return 'N'
    return [card for card in cards if card != 'Ag'][:5]
