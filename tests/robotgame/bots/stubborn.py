# Swallows the timeout and keeps thinking: past the hard limit, the match is forfeit.
class Robot:
    def act(self, game):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
