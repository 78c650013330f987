def bot(round, order, position, score, cards, bots, factory):
    if round == 0:
        return "north"
    return ["M3", "M3", "M3", "M3", "M3", "M3"]
