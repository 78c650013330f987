# arena check: timeout
# Thinks in __setattr__, which the runtime calls to set location, hp, player_id and
# robot_id before each act: that is the act's time too.
class Robot:
    def __setattr__(self, name, value):
        while True:
            pass

    def act(self, game):
        return ['guard']
