import os


class Robot:
    def act(self, game):
        os._exit(3)
