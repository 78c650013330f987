# arena check: timeout
# Answers with an object whose __del__ loops: it runs when the runtime lets the answer go.
# Python swallows the timeout raised in a __del__; it is a timeout all the same.
class Burden:
    def __del__(self):
        while True:
            pass


class Robot:
    def act(self, game):
        return Burden()
