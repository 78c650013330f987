def bot(round, order, position, score, cards, bots, factory):
    if round < 2:
        return cards[:5] if round else "E"
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
