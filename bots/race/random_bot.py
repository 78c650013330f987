import random
def random_bot(round, order, position, score, cards, bots, factory):
    if round == 0:
        return random.choice('NESW')
    random.shuffle(cards)
    while cards[0] == 'Ag': random.shuffle(cards)
    return cards[:5]
