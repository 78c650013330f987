# Answers with an object whose __del__ loops: it runs when the runtime lets the answer go,
# which must be inside the call's guard, on the bot's time.
from roborally.api import *

name = 'Burden'


class Burden:
    def __del__(self):
        while True:
            pass


def move():
    return Burden()
