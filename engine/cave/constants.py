"""Cave Rangers' symbols, directions and numbers, each in one place (spec/cave.md)."""
from __future__ import annotations

# What a square can hold besides bots and creatures: one item or obstacle, or ground.
GROUND, GOLD, FOOD, WATER, REVEALER, KNIFE, BOULDER, PIT = "-", "G", "F", "W", "R", "K", "}", "P"
ITEMS = (GOLD, FOOD, WATER, REVEALER, KNIFE)
SQUARE_SYMBOLS = (GROUND, *ITEMS, BOULDER, PIT)
# Creatures and bots, as views show them.
LION, CENTIPEDE, BATS, NURSE = "L", "C", "B", "N"
ME, OTHER_BOT = "Y", "@"
CREATURES = (LION, CENTIPEDE, BATS)
BITERS = (LION, CENTIPEDE)                 # they attack, and bots block them
# What the revealer's outer ring shows when it lies: any symbol but the bot's own.
NOISE_SYMBOLS = (OTHER_BOT, GROUND, CENTIPEDE, BATS, LION, FOOD, WATER, REVEALER, KNIFE, GOLD,
                 NURSE, BOULDER, PIT)

# Directions: (row step, column step); north is up.
DIRECTIONS = {"NN": (-1, 0), "NE": (-1, 1), "EE": (0, 1), "SE": (1, 1), "SS": (1, 0),
              "SW": (1, -1), "WW": (0, -1), "NW": (-1, -1)}
DIRECTION_NAMES = tuple(DIRECTIONS)
MOVE, ATTACK, HOLD = "M", "A", "H"
HOLD_TWICE = ((HOLD, "NN"), (HOLD, "NN"))

# The bot.
START_HEALTH = 20
FOOD_HEALTH = 5
NURSE_HEALTH = 10
ATTACK_DAMAGE = 5
KNIFE_DAMAGE = 10
PIT_TURNS = 3                 # whole turns stuck after the one it fell in
# Creatures.
LION_DAMAGE = 10
BITE_DAMAGE = 1
POISON_TURNS = 3
POISON_DAMAGE = 2
NURSE_STAY = 3                # turns Nurse Nina stays on a square before she jumps
# The game.
MAX_TURNS = 50
VIEW_RADIUS = 2               # 5x5
REVEALER_RADIUS = 5           # 11x11
REVEALER_TRUTH = 0.75         # chance that a square of the outer ring is shown as it is


def cavern_side(bots: int) -> int:
    """30 plus 10 per bot: two bots play in 50x50."""
    return 30 + 10 * bots


# Densities of the generated cavern: the expected share of the squares holding each
# thing. The seed gives none; these make a 50x50 cavern of two bots hold about 60 gold,
# 35 food, a dozen lions and centipedes, and room to walk (see docs/cave.md).
DENSITY = {GOLD: 0.025, FOOD: 0.014, WATER: 0.006, REVEALER: 0.002, KNIFE: 0.002,
           BOULDER: 0.08, PIT: 0.012, CENTIPEDE: 0.005, BATS: 0.004, LION: 0.003}
