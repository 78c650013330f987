# arena check: overheats
# Answers with a location whose __eq__ and __hash__ loop, should the runtime compare it.
class Spot(tuple):
    def __eq__(self, other):
        while True:
            pass

    def __hash__(self):
        while True:
            pass


class Robot:
    def act(self, game):
        x, y = self.location
        return ['move', Spot((x + 1, y))]
