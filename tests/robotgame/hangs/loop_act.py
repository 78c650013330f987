# arena check: timeout
# act() never returns: every act times out, and two such turns forfeit the match.
class Robot:
    def act(self, game):
        while True:
            pass
