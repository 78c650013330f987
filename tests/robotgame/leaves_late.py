"""A Robot Game bot that plays a few turns, then whose act() never returns."""


class Robot:
    def act(self, game):
        if game.turn >= 4:
            while True:
                pass
        return ['guard']
