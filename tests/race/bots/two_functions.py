def plan(cards):
    return cards[:5]


def helper(round, order, position, score, cards, bots, factory):
    return plan(cards)
