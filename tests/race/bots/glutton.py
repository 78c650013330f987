def bot(round, order, position, score, cards, bots, factory):
    hoard = []
    while True:
        hoard.append(bytearray(1 << 24))
