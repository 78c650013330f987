# Checks the game API rgkit bots rely on; any mismatch raises, which the test counts.
import random

import numpy
import rg
from rgkit import rg as rgkit_rg
from rgkit.settings import settings as rgkit_settings


class Robot:
    def act(self, game):
        assert rgkit_rg is rg and rgkit_settings is rg.settings
        me = game.robots[self.location]
        assert me.robot_id == self.robot_id and me['hp'] == self.hp == me.hp
        assert game['robots'] is game.robots and game.turn == game['turn']
        for loc, bot in game.robots.iteritems():
            assert bot.location == loc and bot['player_id'] == bot.player_id
            assert ('robot_id' in bot) == (bot.player_id == self.player_id)
        assert list(game.robots.iterkeys()) == list(game.robots.keys())
        assert len(list(game.robots.itervalues())) == len(game.robots)
        assert rg.settings.spawn_every == 10 and rg.settings.attack_range == (8, 10)
        assert rg.CENTER_POINT == (9, 9) and 'spawn' in rg.loc_types((7, 1))
        assert rg.loc_types((0, 0)) == {'normal', 'obstacle'} and rg.loc_types((-1, 0)) == {
            'invalid'}
        assert rg.locs_around((9, 9), filter_out=('invalid', 'obstacle')) == [
            (9, 10), (10, 9), (9, 8), (8, 9)]
        assert rg.wdist((1, 1), (4, 5)) == 7 and rg.dist((0, 0), (3, 4)) == 5.0
        assert 0 <= random.random() < 1 and numpy.arange(3).sum() == 3
        return ['guard']
