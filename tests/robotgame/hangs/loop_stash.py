# arena check: cpu
# Acts at once, but leaves in `game` an object whose __del__ loops, for the runtime to let
# go after the turn: that runs under the hard limit, which ends the AI.
class Burden:
    def __del__(self):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass


class Robot:
    def act(self, game):
        game['burden'] = Burden()
        return ['guard']
