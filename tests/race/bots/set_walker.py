# Plays its cards in the order a set of strings iterates: the same only if the hash seed is.
def bot(round, order, position, score, cards, bots, factory):
    if round == 0:
        return next(iter({"N", "E", "S", "W", "NE", "SW", "NW", "SE"})) [:1]
    return list(dict.fromkeys(c for c in set(cards) if c != "Ag"))[:5]
