"""An honest Race bot that prints its own hand each round, for a test to compare with
what an opponent predicted."""


def bot(round, order, position, score, cards, bots, factory):
    print("HAND", round, " ".join(cards))
    return "E" if round == 0 else [c for c in cards if c != "Ag"][:5]
