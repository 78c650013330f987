# Noisy Survivor: bots/robotgame/survivor.py verbatim, except that 30 % of the time a robot
# plays a random legal action instead (tests/compare: a copy known to be weaker).
# Survivor: the careful one. It keeps off the spawn squares, guards when outnumbered, trades
# only when safe, and blows itself up when it is about to die anyway.
import random

import rg

name = 'Noisy Survivor'

OPEN = ('invalid', 'obstacle')


class Robot:
    def act(self, game):
        if random.random() < 0.3:
            return random_action(self.location)
        me = self.location
        enemies = [loc for loc in rg.locs_around(me, filter_out=OPEN)
                   if loc in game.robots and game.robots[loc].player_id != self.player_id]
        spawn_soon = game.turn % rg.settings.spawn_every == 0
        if 'spawn' in rg.loc_types(me) and spawn_soon:
            for loc in rg.locs_around(me, filter_out=OPEN + ('spawn',)):
                if loc not in game.robots:
                    return ['move', loc]
        if len(enemies) >= 2 and self.hp <= 9 * len(enemies):
            return ['suicide']
        if len(enemies) >= 2:
            return ['guard']
        if enemies:
            return ['attack', enemies[0]]
        step = rg.toward(me, rg.CENTER_POINT)
        if step == me or step in game.robots or 'spawn' in rg.loc_types(step):
            return ['guard']
        return ['move', step]


def random_action(me):
    """Any legal action, each as likely: guard, a move or an attack next door (no suicide)."""
    around = rg.locs_around(me, filter_out=OPEN)
    return random.choice([['guard']] + [['move', loc] for loc in around]
                         + [['attack', loc] for loc in around])
