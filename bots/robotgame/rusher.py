# Rusher: hits the weakest enemy next to it, otherwise charges the nearest enemy.
import rg


class Robot:
    def act(self, game):
        enemies = [bot for bot in game.robots.values() if bot.player_id != self.player_id]
        if not enemies:
            return ['guard']
        near = [bot for bot in enemies if rg.wdist(bot.location, self.location) == 1]
        if near:
            target = min(near, key=lambda bot: (bot.hp, bot.location))
            return ['attack', target.location]
        nearest = min(enemies, key=lambda bot: (rg.wdist(bot.location, self.location),
                                                bot.location))
        step = rg.toward(self.location, nearest.location)
        if step in game.robots or 'obstacle' in rg.loc_types(step):
            return ['guard']
        return ['move', step]
